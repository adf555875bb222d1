#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension _CameraView {
    /// The cover at one target zoom, row by row.
    ///
    /// The footprint is convex, so the tiles of one row that meet it are a run of
    /// consecutive columns. Each test of `visibility` is monotone in the column: the box's
    /// left edge and a half-plane whose `a` is positive ask for the column to be far enough
    /// east, the box's right edge and a negative `a` for it to be far enough west (the
    /// products and sums of a corner value are monotone in x). A row's run is therefore
    /// found by searching, from an estimate, for the first column that passes the
    /// east-going tests and the last that passes the west-going ones, with the very
    /// expressions `visibility` evaluates on every plane at once; no tile off the run is
    /// looked at. `coverByQuadtree` returns the same tiles (a test compares them).
    func coverByRows() -> [CameraTile] {
        let z = nominalZ
        guard minX <= maxX, z >= options.minZoom else { return [] }
        let over = z == maxZoom && options.reparseOverscaled ? max(z, desiredZ) : z
        let n = 1 << z
        let scale = Double(n)
        let inv = Double(sign: .plus, exponent: -z, significand: 1)
        // Columns of the searched world copies, and rows of the world.
        let lo = wraps.lowerBound * n, hi = (wraps.upperBound + 1) * n - 1
        func index(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
            // floor(v) clamped to lo...hi; NaN gives lo.
            guard v > Double(lo) else { return lo }
            guard v < Double(hi) else { return hi }
            return Int(v.rounded(.down))
        }
        let rowLo = index(minY * scale, 0, n - 1), rowHi = index(maxY * scale, 0, n - 1)

        return withUnsafeBytes(of: planes) { raw in
            let hp = raw.bindMemory(to: _HalfPlane.self)
            return withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: rowHi - rowLo + 1) { runs in
                var total = 0
                for j in rowLo...rowHi {
                    let y0 = Double(j) * inv, y1 = Double(j + 1) * inv
                    runs[j - rowLo] = (0, -1)
                    guard y1 > minY && y0 < maxY else { continue }
                    // Each plane's value at the row's extreme y (the corner `visibility` reads).
                    var east = Double(lo), west = Double(hi)
                    var rowOK = true
                    for h in hp {
                        let hiY = h.b > 0 ? y1 : y0
                        if h.a > 0 {
                            east = max(east, (-(h.b * hiY + h.c) / h.a) * scale - 1)
                        } else if h.a < 0 {
                            west = min(west, (-(h.b * hiY + h.c) / h.a) * scale)
                        } else if !(h.value(0, hiY) > 0) {
                            rowOK = false
                        }
                    }
                    guard rowOK else { continue }
                    @inline(__always)
                    func eastOK(_ i: Int) -> Bool {
                        let x1 = Double(i + 1) * inv
                        if !(x1 > minX) { return false }
                        for h in hp where h.a > 0 {
                            if !(h.value(x1, h.b > 0 ? y1 : y0) > 0) { return false }
                        }
                        return true
                    }
                    @inline(__always)
                    func westFails(_ i: Int) -> Bool {
                        let x0 = Double(i) * inv
                        if !(x0 < maxX) { return true }
                        for h in hp where h.a < 0 {
                            if !(h.value(x0, h.b > 0 ? y1 : y0) > 0) { return true }
                        }
                        return false
                    }
                    let first = _firstTrue(lo, hi, index(max(east, minX * scale - 1), lo, hi), eastOK)
                    let last = _firstTrue(lo, hi, index(min(west, maxX * scale), lo, hi) + 1, westFails) - 1
                    if first <= last {
                        runs[j - rowLo] = (first, last)
                        total += last - first + 1
                    }
                }
                guard total > 0 else { return [] }
                var iMin = Int.max, iMax = Int.min, dMax = 0.0
                // The distance from the view's centre to tile (i, j)'s centre, in target-zoom
                // tiles: the value `coverByQuadtree` computes (its distance2), term for term.
                @inline(__always)
                func distance2(_ i: Int, _ j: Int) -> Double {
                    let cx = ((Double(i) + 0.5) * inv - centerX) * scale
                    let cy = ((Double(j) + 0.5) * inv - centerY) * scale
                    return cx * cx + cy * cy
                }
                for j in rowLo...rowHi {
                    let (first, last) = runs[j - rowLo]
                    guard first <= last else { continue }
                    iMin = min(iMin, first)
                    iMax = max(iMax, last)
                    // Along a row the distance is convex, so its largest value is at an end.
                    dMax = max(dMax, distance2(first, j), distance2(last, j))
                }
                guard iMax - iMin < 1 << 32, dMax.isFinite else { return coverByQuadtree() }
                // The order: (distance, i, j), the quadtree's (distance, tile) order. Each tile
                // is one word, (i − iMin) << 32 | j, whose order is (i, j)'s. One counting pass
                // over count to 2·count buckets of round(d · 2^k) (2^k chosen as in
                // `_sortedByDistance`), then an insertion pass with the full comparison
                // between neighbours; only words move. Bunched distances (a bucket of more
                // than 32) and views of more than 2^16 tiles take the quadtree walk, which
                // returns the same tiles in the same order.
                let count = total
                let bits = max(Int.bitWidth - (count - 1).leadingZeroBitCount, 1)
                guard bits <= 16 else { return coverByQuadtree() }
                let buckets = 1 << bits
                // dMax · keyScale < 2^bits, and every distance is at most dMax.
                let keyScale = dMax > 0 ? Double(sign: .plus, exponent: min(bits - 1 - dMax.exponent, 1000), significand: 1) : 1
                return withUnsafeTemporaryAllocation(of: Int32.self, capacity: buckets) { h -> [CameraTile] in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * count) { words -> [CameraTile] in
                        withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { ds -> [CameraTile] in
                          withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { bucket -> [CameraTile] in
                            h.initialize(repeating: 0)
                            let w = words.baseAddress!, order = w + count
                            // Each tile's word and bucket.
                            var t = 0
                            for j in rowLo...rowHi {
                                let (first, last) = runs[j - rowLo]
                                guard first <= last else { continue }
                                let cy = ((Double(j) + 0.5) * inv - centerY) * scale
                                let dy2 = cy * cy
                                for i in first...last {
                                    let cx = ((Double(i) + 0.5) * inv - centerX) * scale
                                    // round(v) for 0 ≤ v ≤ 2^bits, from the low bits of v + 2^52
                                    // (no range checks): monotone in d, which is all a
                                    // bucket needs to be.
                                    let v = (cx * cx + dy2) * keyScale
                                    let key = min(Int(truncatingIfNeeded: (v + 0x1p52).bitPattern & 0xF_FFFF_FFFF_FFFF), buckets - 1)
                                    w[t] = UInt64(truncatingIfNeeded: i - iMin) << 32 | UInt64(truncatingIfNeeded: j)
                                    bucket[t] = Int32(truncatingIfNeeded: key)
                                    h[key] &+= 1
                                    t &+= 1
                                }
                            }
                            var sum: Int32 = 0, fullest: Int32 = 0
                            for b in 0..<buckets { let c = h[b]; h[b] = sum; sum &+= c; fullest = max(fullest, c) }
                            guard fullest <= 32 else { return coverByQuadtree() }
                            for t in 0..<count {
                                let key = Int(truncatingIfNeeded: bucket[t])
                                order[Int(truncatingIfNeeded: h[key])] = w[t]
                                h[key] &+= 1
                            }
                            // Tiles of different buckets are in distance order already.
                            for t in 0..<count {
                                let word = order[t]
                                let d = distance2(iMin + Int(truncatingIfNeeded: word >> 32), Int(truncatingIfNeeded: word & 0xFFFF_FFFF))
                                var k = t
                                while k > 0 && (d < ds[k - 1] || (d == ds[k - 1] && word < order[k - 1])) {
                                    order[k] = order[k - 1]
                                    ds[k] = ds[k - 1]
                                    k -= 1
                                }
                                order[k] = word
                                ds[k] = d
                            }
                            return [CameraTile](unsafeUninitializedCapacity: count) { out, filled in
                                for t in 0..<count {
                                    let word = order[t]
                                    let i = iMin + Int(truncatingIfNeeded: word >> 32)
                                    let tile = TileID(unchecked: z, x: UInt32(truncatingIfNeeded: i & (n - 1)),
                                                      y: UInt32(truncatingIfNeeded: word & 0xFFFF_FFFF))
                                    (out.baseAddress! + t).initialize(to: CameraTile(tile: tile, wrap: i >> z, overscaledZ: over))
                                }
                                filled = count
                            }
                          }
                        }
                    }
                }
            }
        }
    }
}
