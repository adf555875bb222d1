/// A tile a camera needs: the source tile, the world copy it is drawn in, and the zoom it
/// is drawn at (deeper than `tile.z` only for overscaled tiles at the source's max zoom).
public struct CameraTile: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let tile: TileID
    /// 0 for the main world, −1 for the copy to the west, +1 east, and so on.
    public let wrap: Int
    public let overscaledZ: Int

    public init(tile: TileID, wrap: Int = 0, overscaledZ: Int? = nil) {
        self.tile = tile
        self.wrap = wrap
        self.overscaledZ = overscaledZ ?? Int(tile.z)
    }

    public var description: String {
        var s = tile.description
        if overscaledZ != Int(tile.z) { s += "@\(overscaledZ)" }
        if wrap != 0 { s += " wrap \(wrap)" }
        return s
    }

    public static func < (a: CameraTile, b: CameraTile) -> Bool {
        (a.overscaledZ, a.wrap, a.tile) < (b.overscaledZ, b.wrap, b.tile)
    }
}
