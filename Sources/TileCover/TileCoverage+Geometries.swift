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
}
