import BenchKit
import CorpusGenerators

/// The built-in datasets: generated from fixed seeds, so the main job downloads nothing and
/// every machine measures the same bytes. Sizes differ between the quick and full suites.
public enum BuiltinDatasets {
    static let worldSquare = Array(#"{"type":"Polygon","coordinates":[[[-180,-86],[180,-86],[180,86],[-180,86],[-180,-86]]]}"#.utf8)

    public static func all(quick: Bool) -> [Dataset] {
        let points = quick ? 2_000 : 20_000
        let varints = quick ? 100_000 : 1_000_000
        let tiles = quick ? 8 : 64
        let walk = quick ? 5_000 : 50_000
        let drive = quick ? 200 : 1_000
        let source = quick ? 10_000 : 100_000
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
            Dataset(name: "generated/random-walk-\(walk / 1000)k", kind: "geojson-lines") {
                LinesGeoJSON.randomWalk(vertices: walk, seed: 4)
            },
            // One segment across Europe: 11.3k tiles at z16, no drift allowed.
            Dataset(name: "generated/long-segment", kind: "geojson-lines") {
                LinesGeoJSON.segment(-9.14, 38.72, 30.52, 50.45)
            },
            Dataset(name: "generated/drive-\(drive)", kind: "gpx") {
                GPXTrackGenerator.generate(points: drive, seed: 5)
            },
            Dataset(name: "generated/source-points-\(source / 1000)k", kind: "source-points") {
                PointsGeoJSON.generate(count: source, seed: 1)
            },
            Dataset(name: "generated/source-polygons-\(source / 1000)k", kind: "source-polygons") {
                PolygonsGeoJSON.generate(count: source, seed: 11)
            },
            // Camera views: "lon,lat,zoom,bearing,pitch,width,height" per line.
            Dataset(name: "camera/1920x1080-z8-p60-b30", kind: "camera") {
                (Array("13.4,52.5,8,30,60,1920,1080\n".utf8), 1)
            },
            Dataset(name: "camera/1920x1080-z14.3-p80-b30", kind: "camera") {
                (Array("13.4,52.5,14.3,30,80,1920,1080\n".utf8), 1)
            },
            Dataset(name: "camera/3840x2160-z8-p60-b30", kind: "camera") {
                (Array("13.4,52.5,8,30,60,3840,2160\n".utf8), 1)
            },
            // The whole world as one polygon (latitudes past the projection's clamp), for its
            // cover at z10 and z14: every tile of the grid, 4^z items.
            Dataset(name: "generated/world-square-z10", kind: "world-polygon") { (worldSquare, 1 << 20) },
            Dataset(name: "generated/world-square-z14", kind: "world-polygon") { (worldSquare, 1 << 28) },
            // A 5K view: 1,099 tiles of a 256-px source.
            Dataset(name: "camera/5120x2880-z8-p60-b30", kind: "camera") {
                (Array("13.4,52.5,8,30,60,5120,2880\n".utf8), 1)
            },
        ]
    }
}
