/// How a tile source asks for tiles (the source-side options of a camera cover).
public struct CameraCoverOptions: Sendable, Equatable {
    /// The source's tile size in points: 512 matches the map zoom, 256 loads one zoom
    /// deeper (zoom + log2(512 / tileSize)).
    public var tileSize: Int
    /// Image pixels per point of a tile (1...4): a raster tile layer on a high-density
    /// screen asks for `tileSize · tileScale`-pixel images of the same z/x/y tiles. Unlike
    /// `tileSize`, it never changes which tiles are needed, only how many pixels each has.
    public var tileScale: Int
    /// Tiles below `minZoom` are not loaded (and not replaced by parents).
    public var minZoom: Int
    /// The deepest zoom the source has; deeper views overscale its tiles.
    public var maxZoom: Int
    /// Round the target zoom instead of flooring it (what raster sources do).
    public var roundZoom: Bool
    /// Tiles at `maxZoom` carry the zoom they are drawn at as `overscaledZ` (vector sources).
    public var reparseOverscaled: Bool
    /// Search the world copies east and west of the main one (wrap −3...3).
    public var renderWorldCopies: Bool

    public init(tileSize: Int = 512, tileScale: Int = 1, minZoom: Int = 0, maxZoom: Int = 22, roundZoom: Bool = false,
                reparseOverscaled: Bool = true, renderWorldCopies: Bool = true)
    {
        self.tileSize = tileSize
        self.tileScale = tileScale
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.roundZoom = roundZoom
        self.reparseOverscaled = reparseOverscaled
        self.renderWorldCopies = renderWorldCopies
    }

    /// The side of one tile image in pixels: `tileSize · tileScale`.
    public var tilePixels: Int { tileSize * tileScale }
}
