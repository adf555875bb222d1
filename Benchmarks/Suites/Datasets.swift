import BenchKit
import CorpusGenerators

/// The built-in datasets: generated from fixed seeds, so the main job downloads nothing and
/// every machine measures the same bytes. Sizes differ between the quick and full suites.
public enum BuiltinDatasets {
    public static func all(quick: Bool) -> [Dataset] {
        let points = quick ? 2_000 : 20_000
        let varints = quick ? 100_000 : 1_000_000
        let tiles = quick ? 8 : 64
        return [
            Dataset(name: "generated/points-\(points / 1000)k", kind: "geojson") {
                PointsGeoJSON.generate(count: points, seed: 1)
            },
            Dataset(name: "generated/mvt-geometry-\(varints / 1000)k", kind: "pbf-varints") {
                GeometryVarints.generate(varints: varints, seed: 2)
            },
            Dataset(name: "generated/tiles-\(tiles)", kind: "mvt-tiles") {
                SyntheticTiles.generate(tiles: tiles, seed: 3)
            },
        ]
    }
}
