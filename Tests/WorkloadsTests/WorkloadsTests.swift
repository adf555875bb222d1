import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GraticuleSupport
import GraticuleTestSupport
import TileCover
import Workloads
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
