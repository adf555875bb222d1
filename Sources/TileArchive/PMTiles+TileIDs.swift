import TileCover

/// Hilbert tile ids (PMTiles v3 §2): every tile of lower zooms first, then the position on
/// the zoom's Hilbert curve.
extension PMTiles {
    /// The tile id of z/x/y: the tiles of every lower zoom, then the position on zoom z's
    /// Hilbert curve.
    public static func tileID(z: Int, x: UInt32, y: UInt32) -> UInt64 {
        var base: UInt64 = 0
        for i in 0..<z { base += UInt64(1) << UInt64(2 * i) }
        var d: UInt64 = 0
        var px = UInt64(x), py = UInt64(y)
        var s = UInt64(1) << UInt64(max(z, 1) - 1)
        if z == 0 { return 0 }
        while s > 0 {
            let rx: UInt64 = (px & s) != 0 ? 1 : 0
            let ry: UInt64 = (py & s) != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { px = s &* 2 &- 1 &- px; py = s &* 2 &- 1 &- py }
                swap(&px, &py)
            }
            s >>= 1
        }
        return base + d
    }

    /// The id of `zoom`'s first tile: the number of tiles of every lower zoom,
    /// (4^zoom − 1) / 3; past z30 it is `maxTileID + 1`.
    public static func firstTileID(zoom: Int) -> UInt64 {
        let z = UInt64(min(max(zoom, 0), Int(TileCover.TileID.maxZoom) + 1))
        return ((1 << (2 * z)) - 1) / 3
    }

    /// The largest tile id, the last tile of z30: (4^31 − 1) / 3 − 1.
    public static let maxTileID: UInt64 = ((1 << 62) - 1) / 3 - 1

    /// z/x/y of a tile id (nil beyond z30).
    public static func tile(id: UInt64) -> TileID? {
        var z = 0
        var base: UInt64 = 0
        while true {
            guard z <= Int(TileCover.TileID.maxZoom) else { return nil }
            let count = UInt64(1) << UInt64(2 * z)
            if id < base + count { break }
            base += count
            z += 1
        }
        var d = id - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (d / 2)
            let ry = 1 & (d ^ rx)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            d /= 4
            s *= 2
        }
        return TileCover.TileID(z: z, x: Int(x), y: Int(y))
    }
}
