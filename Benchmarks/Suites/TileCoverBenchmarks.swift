#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchKit
import GeoJSON
import GeoModel
import GPX
import TileCover

/// `tilecover.polygon`: exact closed-mode cover of every polygon of a GeoJSON dataset
/// (canada.json with `--data`) at z6, z8, z10 and z12; `tilecover.points`: the points of a
/// GeoJSON dataset at z16. Items = tiles produced (polygons) or points (points). Other
/// implementations (`TileCovering`) run on the same cases.
enum TileCoverBenchmarks {
    /// The polygon cases: canada at z6 to z12 (z6 and z8 in the quick suite).
    static func polygonCases(_ datasets: [Dataset]) -> [(dataset: Dataset, zoom: Int, quick: Bool)] {
        // Datasets are loaded lazily, so the ones with polygons / points go by name.
        datasets.filter { $0.kind == "geojson" && $0.name.contains("canada") }
            .flatMap { d in [6, 8, 10, 12].map { (d, $0, $0 <= 8) } }
    }

    /// The point cases: the 20k points of the GeoJSON suite and the data-source points, z16.
    static func pointCases(_ datasets: [Dataset]) -> [Dataset] {
        datasets.filter { ($0.kind == "geojson" || $0.kind == "source-points") && $0.name.contains("points") }
    }

    /// The line cases: the generated random walk and long segment at z16, the coastlines at z10.
    static func lineCases(_ datasets: [Dataset]) -> [(dataset: Dataset, zoom: Int)] {
        datasets.filter { $0.kind == "geojson-lines" }.map { ($0, 16) }
            + datasets.filter { $0.kind == "geojson" && $0.name.contains("coastline") }.map { ($0, 10) }
    }

    static func polygons(_ d: Dataset) throws -> [Geometry] {
        try geometries(d).filter { $0.kind == .polygon || $0.kind == .multiPolygon }
    }

    static func lines(_ d: Dataset) throws -> [Geometry] {
        try geometries(d).filter { $0.kind == .lineString || $0.kind == .multiLineString }
    }

    /// Every point of the dataset as one MultiPoint.
    static func allPoints(_ d: Dataset) throws -> Geometry {
        let points = try geometries(d).filter { $0.kind == .point || $0.kind == .multiPoint }
        return Geometry(kind: .multiPoint, coordinates: points.flatMap(\.coordinates))
    }

    /// graticule's result on a case: the covers of the geometries, checked before any
    /// implementation is timed.
    static func graticuleCheck(_ inputs: @escaping (Dataset) throws -> [Geometry], zoom: Int) -> (Dataset) throws -> ResultCheck {
        { d in ResultDigests.tiles(try inputs(d).map { TileCoverage.tiles(for: $0, zoom: zoom) }) }
    }

    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        registerLines(in: &suite, datasets: datasets)
        registerStream(in: &suite, datasets: datasets)
        registerCamera(in: &suite, datasets: datasets)
        registerFollow(in: &suite, datasets: datasets)
        for (d, zoom, quick) in polygonCases(datasets) {
            suite.add("tilecover.polygon", implementation: "graticule", dataset: d, parameters: ["zoom": String(zoom)],
                      quick: quick, check: graticuleCheck(polygons, zoom: zoom)) { d in
                let polygons = try polygons(d)
                return Workload { n in
                    for _ in 0..<n {
                        var count = 0
                        for g in polygons { count += TileCoverage.tiles(for: g, zoom: zoom).count }
                        blackHole(count)
                    }
                }
            }
        }
        for d in pointCases(datasets) {
            suite.add("tilecover.points", implementation: "graticule", dataset: d, parameters: ["zoom": "16"],
                      check: graticuleCheck({ [try allPoints($0)] }, zoom: 16)) { d in
                let all = try allPoints(d)
                return Workload { n in
                    for _ in 0..<n { blackHole(TileCoverage.tiles(for: all, zoom: 16).count) }
                }
            }
        }
    }

    /// `tilecover.lines`: every line of a dataset (generated random walk and long segment at
    /// z16; coastlines at z10 with `--data`). Items = tiles produced.
    static func registerLines(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for (d, zoom) in lineCases(datasets) {
            suite.add("tilecover.lines", implementation: "graticule", dataset: d, parameters: ["zoom": String(zoom)],
                      check: graticuleCheck(lines, zoom: zoom)) { d in
                let lines = try lines(d)
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

    /// Another implementation's cover on the same cases as graticule's, its result checked.
    static func registerCover<C: TileCovering>(_ cover: C, name: String, in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        func add(_ benchmark: String, _ d: Dataset, zoom: Int, quick: Bool, _ inputs: @escaping (Dataset) throws -> [Geometry]) {
            suite.add(benchmark, implementation: name, dataset: d, parameters: ["zoom": String(zoom)], quick: quick,
                      check: { d in ResultDigests.tiles(try inputs(d).map { try cover.tiles(for: $0, zoom: zoom) }) }) { d in
                let geometries = try inputs(d)
                return Workload { n in
                    for _ in 0..<n {
                        var count = 0
                        for g in geometries { count += (try? cover.tiles(for: g, zoom: zoom).count) ?? 0 }
                        blackHole(count)
                    }
                }
            }
        }
        for (d, zoom, quick) in polygonCases(datasets) { add("tilecover.polygon", d, zoom: zoom, quick: quick, polygons) }
        for (d, zoom) in lineCases(datasets) { add("tilecover.lines", d, zoom: zoom, quick: true, lines) }
        for d in pointCases(datasets) { add("tilecover.points", d, zoom: 16, quick: true) { [try allPoints($0)] } }
    }

    /// Another implementation's camera cover on graticule's camera cases.
    static func registerCameraCover<C: CameraCovering>(_ cover: C, name: String, in suite: inout BenchmarkSuite,
                                                       datasets: [Dataset]) {
        for d in datasets where d.kind == "camera" {
            for size in [512, 256] {
                let options = CameraCoverOptions(tileSize: size)
                suite.add("tilecover.camera", implementation: name, dataset: d, parameters: ["tileSize": String(size)],
                          check: { d in ResultDigests.cameraTiles(try cover.tiles(for: try parseCamera(d.bytes()), options: options)) }) { d in
                    let camera = try parseCamera(d.bytes())
                    return Workload { n in
                        for _ in 0..<n { blackHole((try? cover.tiles(for: camera, options: options))?.count ?? -1) }
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
                suite.add("tilecover.camera", implementation: "graticule", dataset: d, parameters: ["tileSize": String(size)],
                          check: { d in
                              ResultDigests.cameraTiles(try CameraCoverage.tiles(for: try parseCamera(d.bytes()),
                                                                                 options: CameraCoverOptions(tileSize: size)))
                          }) { d in
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

    /// `tilecover.stream`: the cover of the world square (every tile of the grid: 4^z)
    /// streamed as `z/x/y` lines through a 1 MiB buffer into /dev/null, as `graticule cover
    /// geometry` writes it: z10 in the quick suite, z14 (268 million tiles, 4.3 GB of
    /// text) in the full one. Items = tiles. Its peak heap (with allocation counting) stays
    /// that of the runs and the buffer, whatever the count.
    static func registerStream(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "world-polygon" {
            guard let zoom = d.name.split(separator: "-z").last.flatMap({ Int($0) }) else { continue }
            let tiles = 1 << (2 * zoom)
            do {
                suite.add("tilecover.stream", implementation: "graticule", dataset: d, parameters: ["zoom": String(zoom)],
                          quick: zoom <= 10) { d in
                    let world = try geometries(d)
                    let sink = open("/dev/null", O_WRONLY)
                    guard sink >= 0 else { throw BadCamera() }
                    // The expected count is the grid's: a cover that differs is not timed.
                    var lines = 0
                    TileCoverage.runs(for: world, zoom: zoom).writeText(.lines) { b in
                        for c in b where c == UInt8(ascii: "\n") { lines += 1 }
                    }
                    guard lines == tiles else { throw WrongCount(expected: tiles, got: lines) }
                    return Workload { n in
                        for _ in 0..<n {
                            var written = 0
                            TileCoverage.runs(for: world, zoom: zoom).writeText(.lines) { b in
                                written &+= write(sink, b.baseAddress, b.count)
                            }
                            blackHole(written)
                        }
                    }
                }
            }
        }
    }

    struct WrongCount: Error, CustomStringConvertible {
        var expected: Int, got: Int
        var description: String { "the world square's cover has \(got) tiles, not \(expected)" }
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
