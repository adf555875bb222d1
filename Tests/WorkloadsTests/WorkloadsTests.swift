import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GraticuleSupport
import GraticuleTestSupport
import SourceDiff
import TileCover
import VectorTile
@testable import Workloads
import XCTest

/// The implementation protocols' digests and registration.
final class WorkloadsTests: XCTestCase {
    func digest(_ text: String) throws -> ResultDigest {
        ResultDigests.geoJSON(try GeoJSONReader.read(Array(text.utf8)).object)
    }

    /// Order of features, of properties and of nested object members does not change the
    /// digest; an integer and the same double agree; -0 is +0; any changed value changes it.
    func testGeoJSONDigestIsOrderIndependentAndValueSensitive() throws {
        let a = try digest(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1,"b":{"x":true,"y":null}}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[3.5,-0.0]]},"properties":{"s":"é"}}]}"#)
        let b = try digest(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0.0,0],[3.5,0]]},"properties":{"s":"é"}},{"type":"Feature","properties":{"b":{"y":null,"x":true},"a":1.0},"geometry":{"type":"Point","coordinates":[1.0,2]}}]}"#)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.counts.map(\.value), [2, 3, 3])
        for changed in [#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":2,"b":{"x":true,"y":null}}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[3.5,0]]},"properties":{"s":"é"}}]}"#,
                        #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2.0000000000000004]},"properties":{"a":1,"b":{"x":true,"y":null}}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[3.5,0]]},"properties":{"s":"é"}}]}"#,
                        #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1,"b":{"x":false,"y":null}}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[3.5,0]]},"properties":{"s":"é"}}]}"#] {
            let c = try digest(changed)
            XCTAssertEqual(c.counts, a.counts)
            XCTAssertNotEqual(c.checksum, a.checksum, changed)
        }
    }

    struct Parser: GeoJSONParsing {
        func parse(_ bytes: [UInt8]) throws -> GeoObject { try GeoJSONReader.read(bytes).object }
        func digest(_ document: GeoObject, into digest: inout GeoJSONDigest) {}
    }

    struct Cover: TileCovering {
        func tiles(for geometry: Geometry, zoom: Int) throws -> [TileID] { [] }
    }

    func testRegistrationRefusesDuplicateAndBuiltInNames() throws {
        var r = Implementations()
        try r.add(geoJSONParser: Parser(), name: "p")
        XCTAssertThrowsError(try r.add(tileCover: Cover(), name: "p")) {
            XCTAssertEqual($0 as? Implementations.RegistrationError, .duplicateName("p"))
        }
        XCTAssertThrowsError(try r.add(tileCover: Cover(), name: "")) {
            XCTAssertEqual($0 as? Implementations.RegistrationError, .emptyName)
        }
        XCTAssertEqual(r.names, ["p"])
        let suite = try DefaultSuite.make(quick: true, implementations: r)
        XCTAssertTrue(suite.cases.contains { $0.implementation == "p" && $0.name == "geojson.parse" && $0.check != nil })
        var clash = Implementations()
        try clash.add(geoJSONParser: Parser(), name: "foundation.jsondecoder")
        XCTAssertThrowsError(try DefaultSuite.make(quick: true, implementations: clash))
    }

    /// The benchmark names an external manifest may use cover every case the suite
    /// registers, with the shared corpora when they are there.
    func testBenchmarkNamesListEveryRegisteredBenchmark() throws {
        let data = URL(fileURLWithPath: TestPaths.shared("")).path
        let suite = try DefaultSuite.make(quick: false,
                                          dataDirectory: FileManager.default.fileExists(atPath: data) ? data : nil)
        XCTAssertEqual(Set(suite.cases.map(\.name)).subtracting(DefaultSuite.benchmarkNames), [])
    }

    /// `mvt.decode [layer=NAME]` decodes one source layer: the case is named by its layer,
    /// decodes fewer features than the whole tile, and fails on a dataset without it.
    func testOneSourceLayerDecodeCases() throws {
        let suite = try DefaultSuite.make(quick: true, mvtLayers: ["roads", "no-such-layer"])
        let ids = suite.cases.map(\.id.description)
        XCTAssertTrue(ids.contains("mvt.decode|graticule|generated/tiles-8|layer=roads;mode=tolerant"), "\(ids)")
        let missing = try XCTUnwrap(suite.cases.first { $0.id.description.contains("layer=no-such-layer") })
        guard case .inProcess(let setup) = missing.body else { return XCTFail("in-process case expected") }
        let dataset = try XCTUnwrap(BuiltinDatasets.all(quick: true).first { $0.name == "generated/tiles-8" })
        XCTAssertThrowsError(try setup(dataset)) { XCTAssertTrue("\($0)".contains("no-such-layer"), "\($0)") }
        XCTAssertFalse(try DefaultSuite.make(quick: true).selected(quick: true, filter: nil).contains { $0.parameters["layer"] != nil },
                       "the quick suite has no layer case unless asked")
        XCTAssertTrue(try DefaultSuite.make(quick: false).selected(quick: false, filter: nil).contains { $0.parameters["layer"] == "roads" },
                      "the full suite decodes the generated tiles' roads layer")
    }

    /// The digest as the JavaScript adapter computes it (BigInt FNV-1a and SplitMix64)
    /// equals graticule's for the same tiles: the definition is implemented twice.
    func testTileDigestAgreesWithTheJavaScriptAdapter() throws {
        let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let peer = URL(fileURLWithPath: TestPaths.repositoryRoot).deletingLastPathComponent().path + "/shared/peers/tile-cover"
        guard let node, FileManager.default.fileExists(atPath: peer) else { throw XCTSkip("node or ../shared/peers/tile-cover missing") }
        var rng = SplitMix64(seed: 38)
        var coordinates: [String] = []
        var positions: [Double] = []
        for _ in 0..<500 {
            let lon = Double(rng.next() % 3_500_000) / 10_000 - 175, lat = Double(rng.next() % 1_600_000) / 10_000 - 80
            coordinates.append("[\(lon),\(lat)]")
            positions += [lon, lat]
        }
        let path = NSTemporaryDirectory() + "graticule-digest-\(getpid()).geojson"
        try FileIO.writeText(path, #"{"type":"MultiPoint","coordinates":["# + coordinates.joined(separator: ",") + "]}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = try LineProtocolProcess(command: [node, TestPaths.repositoryRoot + "/Benchmarks/Adapters/tilecover_js.js",
                                                  "points", "14", "--dataset", path])
        XCTAssertEqual(p.readLine(timeout: 30), .line("ready"))
        try p.send("digest")
        guard case .line(let line) = p.readLine(timeout: 30) else { return XCTFail("no digest") }
        p.finish()
        let ours = ResultDigests.tiles([TileCoverage.tiles(for: Geometry(kind: .multiPoint, coordinates: positions), zoom: 14)]).digest
        XCTAssertEqual(line, "digest " + ours.description)
    }
}

/// The MVT and source-update protocols end to end: an implementation that agrees with
/// graticule is timed, one that drops one element is `wrong`.
final class ProtocolRunTests: XCTestCase {
    struct Decoder: VectorTileDecoding {
        var dropOneVertex = false
        struct Decoded { var features: [(layer: String, id: UInt64?, type: UInt8, xy: [(Int64, Int64)], tags: [(String, DigestValue)])] = [] }
        func decode(_ bytes: [UInt8]) throws -> Decoded {
            var out = Decoded()
            try bytes.withUnsafeBytes { raw in
                for layer in try VectorTile(bytes: raw).layers() {
                    try layer.forEachFeature { (f: Feature) throws(MVTError) in
                        var v = VertexList()
                        try f.decodeGeometry(into: &v, mode: .tolerant)
                        var tags: [(String, DigestValue)] = []
                        try f.forEachTag { k, value in
                            tags.append((String(decoding: layer.keys[k], as: UTF8.self), DigestValue(layer.values[value].propertyValue)))
                        }
                        out.features.append((layer.name, f.hasID ? f.id : nil, UInt8(f.rawType ?? 0), v.xy, tags))
                    }
                }
            }
            return out
        }
        func digest(_ tile: Decoded, into digest: inout MVTDigest) {
            var layers: [String] = []
            for f in tile.features where layers.last != f.layer { layers.append(f.layer) }
            // Layers without features count too; the fixtures here have none such.
            for _ in layers { digest.layer() }
            var dropped = !dropOneVertex
            for f in tile.features {
                var xy = f.xy
                if !dropped, !xy.isEmpty { xy.removeLast(); dropped = true }
                digest.feature(layer: f.layer, id: f.id, type: f.type, vertices: xy.count)
                for (x, y) in xy { digest.vertex(x: x, y: y) }
                for (k, v) in f.tags { digest.property(layer: f.layer, key: k, value: v) }
            }
        }
    }

    struct Updater: SourceUpdating {
        var dropOneTile = false
        func makeSource(_ features: [GeoFeature], indexZooms: ClosedRange<Int>) throws -> FeatureStore {
            try FeatureStore(features, indexZooms: indexZooms)
        }
        func apply(_ diff: GeoJSONSourceDiff, to source: inout FeatureStore) throws -> Set<TileID> {
            var tiles = try source.apply(diff).touchedTiles
            if dropOneTile, let t = tiles.min() { tiles.remove(t) }
            return tiles
        }
    }

    func run(_ implementations: Implementations, filter: String) throws -> [String: MetricResult] {
        var out: [String: MetricResult] = [:]
        for r in try quickTimeResults(implementations, filter: filter) { out[r.key.implementation] = r }
        return out
    }

    func testDecoderAgreeingIsTimedAndOneVertexShortIsWrong() throws {
        var r = Implementations()
        try r.add(tileDecoder: Decoder(), name: "t.right")
        try r.add(tileDecoder: Decoder(dropOneVertex: true), name: "t.short")
        let results = try run(r, filter: "mvt.decode|graticule|generated/tiles,mvt.decode|t.")
        let graticule = results.filter { $0.key == "graticule" }
        XCTAssertEqual(graticule.first?.value.status, .ok)
        XCTAssertEqual(results["t.right"]?.status, .ok, results["t.right"]?.detail ?? "")
        XCTAssertEqual(results["t.short"]?.status, .wrong)
        XCTAssertTrue(results["t.short"]?.detail.contains("vertices") ?? false, results["t.short"]?.detail ?? "")
    }

    func testUpdaterAgreeingIsTimedAndOneTileShortIsWrong() throws {
        var r = Implementations()
        try r.add(sourceUpdater: Updater(), name: "u.right")
        try r.add(sourceUpdater: Updater(dropOneTile: true), name: "u.short")
        let results = try run(r, filter: "source.update|graticule|generated/source-points-10k|k=1,source.update|u.")
        XCTAssertEqual(results["graticule"]?.status, .ok)
        XCTAssertEqual(results["u.right"]?.status, .ok, results["u.right"]?.detail ?? "")
        XCTAssertEqual(results["u.short"]?.status, .wrong)
        XCTAssertTrue(results["u.short"]?.detail.contains("is missing") ?? false, results["u.short"]?.detail ?? "")
    }
}

/// A wrong result names its first difference: for GeoJSON the feature, the position or
/// property and both values (with their distance in ULPs); for tiles of a vector tile set
/// the layer, feature and vertex.
final class FirstDifferenceTests: XCTestCase {
    /// graticule's reader with one coordinate moved by `ulps` (feature `feature`, position 1).
    struct NudgingParser: GeoJSONParsing {
        var feature: Int
        var ulps: Int
        func parse(_ bytes: [UInt8]) throws -> GeoObject { try GeoJSONReader.read(bytes).object }
        func digest(_ document: GeoObject, into digest: inout GeoJSONDigest) {
            guard case .featureCollection(let fs) = document else { return }
            for (i, f) in fs.enumerated() {
                digest.feature()
                let g = f.geometry!
                for p in 0..<g.positionCount {
                    var x = g.x(p)
                    if i == feature && p == 1 { for _ in 0..<ulps { x = x.nextUp } }
                    digest.position(x, g.y(p))
                }
                for prop in f.properties ?? PropertyList() { digest.property(prop.key, DigestValue(prop.value)) }
            }
        }
    }

    func check(_ implementation: String, in suite: BenchmarkSuite) throws -> ResultCheck {
        let c = try XCTUnwrap(suite.cases.first { $0.implementation == implementation && $0.name == "geojson.parse" && $0.parameters["mode"] == "whole" })
        return try XCTUnwrap(c.check)(c.dataset)
    }

    func testGeoJSONMismatchNamesFeaturePositionAndULPs() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{"a":1}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[2,2],[3.25,3],[4,4]]},"properties":{"b":"x"}}]}"#
        let d = Dataset(name: "test/two-lines", kind: "geojson") { (Array(text.utf8), 2) }
        var extra = Implementations()
        try extra.add(geoJSONParser: NudgingParser(feature: 1, ulps: 2), name: "nudged")
        var suite = BenchmarkSuite(name: "t")
        GeoJSONBenchmarks.register(in: &suite, datasets: [d])
        extra.register(in: &suite, datasets: [d])
        let mismatch = try XCTUnwrap(try check("nudged", in: suite).mismatch(against: try check("graticule", in: suite)))
        XCTAssertTrue(mismatch.contains("at feature 00000001 position 00000001: 3.250000000000001 3.0, reference 3.25 3.0 (2 ULP apart)"), mismatch)
        // The same parser without the nudge agrees.
        var same = Implementations()
        try same.add(geoJSONParser: NudgingParser(feature: 1, ulps: 0), name: "same")
        var suite2 = BenchmarkSuite(name: "t2")
        GeoJSONBenchmarks.register(in: &suite2, datasets: [d])
        same.register(in: &suite2, datasets: [d])
        XCTAssertNil(try check("same", in: suite2).mismatch(against: try check("graticule", in: suite2)))
    }

    func testLocatedDifferenceListsMissingAndExtra() {
        XCTAssertEqual(ResultCheck.firstLocatedDifference(["a\t1", "b\t2"], ["a\t1", "b\t2"]), nil)
        XCTAssertEqual(ResultCheck.firstLocatedDifference(["a\t1"], ["a\t1", "b\t2"]), "at b: 2 is missing")
        XCTAssertEqual(ResultCheck.firstLocatedDifference(["a\t1", "c\t3"], ["a\t1", "b\t2"]), "at b: 2 is missing")
        XCTAssertEqual(ResultCheck.firstLocatedDifference(["a\t1", "b\t\"x\""], ["a\t1", "b\t\"y\""]), "at b: \"x\", reference \"y\"")
        XCTAssertEqual(ResultCheck.ulpDistance(1.0, 1.0.nextUp), 1)
        XCTAssertEqual(ResultCheck.ulpDistance(-0.0, 0.0), 0)
        XCTAssertEqual(ResultCheck.ulpDistance(-Double.leastNonzeroMagnitude, Double.leastNonzeroMagnitude), 2)
    }
}

/// The Python adapters list their located elements in exactly Graticule's text, so a wrong
/// external result names its first differing place.
final class LocatedElementsAgreementTests: XCTestCase {
    func testPythonLocatedElementsEqualGraticules() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1e-05,-0.5]},{"type":"LineString","coordinates":[[3,1e16],[123456.789,2.5e-300]]}]},"properties":{"n":5,"s":"a\"b\\c\nd\te\u0001 é","x":null,"t":true,"a":[1,{"z":1,"b":[false]}]}},{"type":"Feature","geometry":null,"properties":{"k":-0.0}}]}"#
        let dir = try TestPaths.newFolder("graticule-located")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/doc.json"
        try FileIO.writeText(path, text)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import sys, json; sys.path.insert(0, sys.argv[1]); import result_digest; "
                       + "sys.stdout.write(''.join(l + '\\n' for l in result_digest.geojson_located(json.load(open(sys.argv[2], encoding='utf-8')))))",
                       TestPaths.repositoryRoot + "/Benchmarks/Adapters", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let python = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        let swift = ResultDigests.geoJSONLocated(try GeoJSONReader.read(Array(text.utf8)).object)
        XCTAssertEqual(python, swift)
        XCTAssertEqual(swift.count, 9)
    }
}

/// The `time_ns` results of the quick suite's cases that `filter` selects, with
/// `implementations` registered, run with the shortest sampling that still checks results.
func quickTimeResults(_ implementations: Implementations, filter: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> [MetricResult] {
    let suite = try DefaultSuite.make(quick: true, implementations: implementations)
    var config = RunConfiguration.quick
    config.warmupSeconds = 0.01
    config.minSamples = 3
    config.minSeconds = 0.01
    config.maxSeconds = 0.05
    config.allocationPasses = 1
    let cases = suite.selected(quick: true, filter: filter)
    XCTAssertFalse(cases.isEmpty, filter, file: file, line: line)
    return Runner(configuration: config).run(cases).filter { $0.metric == "time_ns" }
}
