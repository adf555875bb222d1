#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension _CameraView {
    /// The quadtree walk: every zoom policy, including the per-tile zooms of a pitched view.
    func coverByQuadtree() -> [CameraTile] {
        guard minX <= maxX else { return [] }
        // `mask`: the half-planes whose lines cross the node's square (bit k for plane k);
        // a child can only be cut by those, and none means the node is wholly visible.
        struct Entry { var z: Int; var x: Int; var y: Int; var wrap: Int; var mask: UInt8 }
        var stack: [Entry] = []
        stack.reserveCapacity(4 * 31 + 8)
        var out: [(tile: CameraTile, d: Double)] = []
        // The footprint's area in target-zoom tiles, a good first guess at the output size.
        let nominalScale = exp2(Double(nominalZ))
        // (Under variable zoom far tiles are shallower, so the guess would be far too big.)
        out.reserveCapacity(variableZoom ? 256 : min(4096, Int(((maxX - minX) * nominalScale + 2) * ((maxY - minY) * nominalScale + 2))))
        for w in wraps where w != 0 { stack.append(Entry(z: 0, x: 0, y: 0, wrap: w, mask: 0b11111)) }
        stack.append(Entry(z: 0, x: 0, y: 0, wrap: 0, mask: 0b11111))
        /// Squared distance, in nominal-zoom tiles, from the view's centre to a tile's centre
        /// (mx, my). A tile centre wrap + (x + ½)·2^−z is exact in binary (z ≤ 30, |wrap| ≤ 3),
        /// so however a caller forms it, one tile always gets one distance.
        @inline(__always)
        func distance2(_ mx: Double, _ my: Double) -> Double {
            let cx = (mx - centerX) * nominalScale, cy = (my - centerY) * nominalScale
            return cx * cx + cy * cy
        }
        while let e = stack.popLast() {
            // 2^−z is exact, so these products equal the quotients by 2^z.
            let inv = Double(sign: .plus, exponent: -e.z, significand: 1)
            let x0 = Double(e.wrap) + Double(e.x) * inv, x1 = Double(e.wrap) + Double(e.x + 1) * inv
            let y0 = Double(e.y) * inv, y1 = Double(e.y + 1) * inv
            var mask = e.mask
            if mask != 0 {
                guard let m = visibility(x0, y0, x1, y1, mask) else { continue }
                mask = m
            }
            let full = mask == 0
            // Below the pitch threshold every tile asks for the desired zoom (an integer
            // already, so rounding it changes nothing).
            var targetZ = desiredZ
            if variableZoom {
                let dx = max(x0 - cameraX, 0, cameraX - x1), dy = max(y0 - cameraY, 0, cameraY - y1)
                let target = tileZoom(distance2D: (dx * dx + dy * dy).squareRoot())
                targetZ = max(0, Int(options.roundZoom ? target.rounded(.toNearestOrAwayFromZero) : target.rounded(.down)))
            }
            let z = min(targetZ, maxZoom)
            if e.z >= z {
                if e.z < options.minZoom { continue }
                let over = e.z == maxZoom && options.reparseOverscaled ? max(e.z, targetZ) : e.z
                let tile = CameraTile(tile: TileID(unchecked: e.z, x: UInt32(e.x), y: UInt32(e.y)), wrap: e.wrap, overscaledZ: over)
                out.append((tile, distance2((x0 + x1) / 2, (y0 + y1) / 2)))
                continue
            }
            if full && !variableZoom {
                // Wholly inside the footprint, at one target zoom: every descendant at z is
                // in the cover, with nothing left to test.
                if z < options.minZoom { continue }
                let over = z == maxZoom && options.reparseOverscaled ? max(z, targetZ) : z
                let shift = z - e.z
                let invZ = Double(sign: .plus, exponent: -z, significand: 1)
                for ty in (e.y << shift)..<((e.y + 1) << shift) {
                    let my = (Double(ty) + 0.5) * invZ
                    for tx in (e.x << shift)..<((e.x + 1) << shift) {
                        let tile = CameraTile(tile: TileID(unchecked: z, x: UInt32(tx), y: UInt32(ty)), wrap: e.wrap, overscaledZ: over)
                        out.append((tile, distance2(Double(e.wrap) + (Double(tx) + 0.5) * invZ, my)))
                    }
                }
                continue
            }
            for i in 0..<4 {
                stack.append(Entry(z: e.z + 1, x: 2 * e.x + (i & 1), y: 2 * e.y + (i >> 1), wrap: e.wrap, mask: mask))
            }
        }
        return _sortedByDistance(out)
    }
}
