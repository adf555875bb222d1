import GeoModel

extension TileCoverage {
    /// The union of the covers of `geometries` at `zoom`, each tile once, sorted by row then
    /// column.
    public static func tiles(for geometries: [Geometry], zoom: Int, mode: Mode = .closed) -> [TileID] {
        var seen = Set<TileID>()
        for g in geometries { seen.formUnion(tiles(for: g, zoom: zoom, mode: mode)) }
        return seen.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The sum of the estimates of `geometries`' covers at `zoom` (an upper bound on the
    /// union's size, for refusing a cover before computing it).
    public static func estimatedCount(for geometries: [Geometry], zoom: Int) -> Double {
        geometries.reduce(0) { $0 + estimatedCount(for: $1, zoom: zoom) }
    }

    /// The sum of the boundary estimates of `geometries` at `zoom`
    /// (`estimatedBoundaryCount(for:zoom:)`).
    public static func estimatedBoundaryCount(for geometries: [Geometry], zoom: Int) -> Double {
        geometries.reduce(0) { $0 + estimatedBoundaryCount(for: $1, zoom: zoom) }
    }

    /// The most boundary tiles a streamed cover holds while it is computed: 2^26, 512 MiB
    /// of tile keys. A cover's interior costs one run per row whatever its area, but the
    /// tiles its lines and rings cross are held one by one (a line's cover is all boundary),
    /// so a caller refuses a request beyond this rather than let the allocation fail.
    public static let maxHeldBoundaryTiles = 1 << 26
}
