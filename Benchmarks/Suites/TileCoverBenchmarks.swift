import BenchKit
import GeoJSON
import GeoModel
import GPX
import TileCover

/// `tilecover.polygon`: exact closed-mode cover of every polygon of a GeoJSON dataset
/// (canada.json with `--data`) at z6, z8, z10 and z12; `tilecover.points`: the points of a
/// GeoJSON dataset at z16. Items = tiles produced (polygons) or points (points).
enum TileCoverBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        registerLines(in: &suite, datasets: datasets)
        registerCamera(in: &suite, datasets: datasets)
        registerFollow(in: &suite, datasets: datasets)
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
        // The 20k points of the GeoJSON suite and the 100k of the data-source suite.
        for d in datasets where (d.kind == "geojson" || d.kind == "source-points") && d.name.contains("points") {
            suite.add("tilecover.points", implementation: "graticule", dataset: d, parameters: ["zoom": "16"]) { d in
                let points = try geometries(d).filter { $0.kind == .point || $0.kind == .multiPoint }
                let all = Geometry(kind: .multiPoint, coordinates: points.flatMap(\.coordinates))
                return Workload { n in
                    for _ in 0..<n { blackHole(TileCoverage.tiles(for: all, zoom: 16).count) }
                }
            }
        }
    }

    /// `tilecover.lines`: every line of a dataset (generated random walk and long segment at
    /// z16; coastlines at z10 with `--data`). Items = tiles produced.
    static func registerLines(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        var cases: [(Dataset, Int)] = datasets.filter { $0.kind == "geojson-lines" }.map { ($0, 16) }
        cases += datasets.filter { $0.kind == "geojson" && $0.name.contains("coastline") }.map { ($0, 10) }
        for (d, zoom) in cases {
            suite.add("tilecover.lines", implementation: "graticule", dataset: d, parameters: ["zoom": String(zoom)]) { d in
                let lines = try geometries(d).filter { $0.kind == .lineString || $0.kind == .multiLineString }
                return Workload { n in
                    for _ in 0..<n {
                        var count = 0
                        for g in lines { count += TileCoverage.tiles(for: g, zoom: zoom).count }
                        blackHole(count)
                    }
                }
            }
        }
    }

    /// `tilecover.camera`: the tiles of one camera view (MapLibre semantics), for 512- and
    /// 256-px sources. Items = tiles produced.
    static func registerCamera(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "camera" {
            for size in [512, 256] {
                suite.add("tilecover.camera", implementation: "graticule", dataset: d, parameters: ["tileSize": String(size)]) { d in
                    let camera = try parseCamera(d.bytes())
                    let options = CameraCoverOptions(tileSize: size)
                    return Workload { n in
                        for _ in 0..<n { blackHole((try? CameraCoverage.tiles(for: camera, options: options))?.count ?? -1) }
                    }
                }
            }
        }
    }

    /// `tilecover.follow`: a whole follow simulation of a GPX route (navigation mode, z15,
    /// a 390×844 phone view at pitch 60°: one camera cover and one delta per update).
    /// Items = location updates.
    static func registerFollow(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "gpx" {
            suite.add("tilecover.follow", implementation: "graticule", dataset: d,
                      parameters: ["mode": "navigation", "zoom": "15", "pitch": "60"]) { d in
                guard let route = try GPXReader.read(try d.bytes()).firstPath else { throw BadCamera() }
                let template = Camera(longitude: route[0].longitude, latitude: route[0].latitude, zoom: 15, pitch: 60,
                                      width: 390, height: 844)
                let follower = try RouteFollower(route: route, template: template, mode: .navigation(heightFactor: 0.75))
                return Workload { n in
                    for _ in 0..<n {
                        var loads = 0
                        follower.run { loads &+= $0.load.count }
                        blackHole(loads)
                    }
                }
            }
        }
    }

    struct BadCamera: Error {}

    static func parseCamera(_ bytes: [UInt8]) throws -> Camera {
        let f = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "," || $0 == "\n" }).compactMap { Double($0) }
        guard f.count >= 7 else { throw BadCamera() }
        return Camera(longitude: f[0], latitude: f[1], zoom: f[2], bearing: f[3], pitch: f[4], width: f[5], height: f[6])
    }

    static func geometries(_ d: Dataset) throws -> [Geometry] {
        switch try GeoJSONReader.read(try d.bytes()).object {
        case .geometry(let g): return [g]
        case .feature(let f): return f.geometry.map { [$0] } ?? []
        case .featureCollection(let fs): return fs.compactMap(\.geometry)
        }
    }
}
