import BenchKit
import GeoJSON
import GeoModel
import TileCover

/// `tilecover.polygon`: exact closed-mode cover of every polygon of a GeoJSON dataset
/// (canada.json with `--data`) at z6, z8, z10 and z12; `tilecover.points`: the points of a
/// GeoJSON dataset at z16. Items = tiles produced (polygons) or points (points).
enum TileCoverBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        // Datasets are loaded lazily, so the ones with polygons / points go by name.
        for d in datasets where d.kind == "geojson" && d.name.contains("canada") {
            for zoom in [6, 8, 10, 12] {
                suite.add("tilecover.polygon", implementation: "graticule", dataset: d, parameters: ["zoom": String(zoom)],
                          quick: zoom <= 8) { d in
                    let polygons = try geometries(d).filter { $0.kind == .polygon || $0.kind == .multiPolygon }
                    return Workload { n in
                        for _ in 0..<n {
                            var count = 0
                            for g in polygons { count += TileCoverage.tiles(for: g, zoom: zoom).count }
                            blackHole(count)
                        }
                    }
                }
            }
        }
        for d in datasets where d.kind == "geojson" && d.name.contains("points") {
            suite.add("tilecover.points", implementation: "graticule", dataset: d, parameters: ["zoom": "16"]) { d in
                let points = try geometries(d).filter { $0.kind == .point || $0.kind == .multiPoint }
                let all = Geometry(kind: .multiPoint, coordinates: points.flatMap(\.coordinates))
                return Workload { n in
                    for _ in 0..<n { blackHole(TileCoverage.tiles(for: all, zoom: 16).count) }
                }
            }
        }
    }

    static func geometries(_ d: Dataset) throws -> [Geometry] {
        switch try GeoJSONReader.read(try d.bytes()).object {
        case .geometry(let g): return [g]
        case .feature(let f): return f.geometry.map { [$0] } ?? []
        case .featureCollection(let fs): return fs.compactMap(\.geometry)
        }
    }
}
