import GraticuleTestSupport
import XCTest
import Foundation
@testable import Conformance

final class SupermercadoSuiteTests: XCTestCase {
    func testCorpusEdgesAndUnion() throws {
        let p = TestPaths.shared("supermercado")
        guard FileManager.default.fileExists(atPath: p) else { throw XCTSkip("supermercado corpus not found") }
        let cases = try SupermercadoSuite().loadCases(from: p)
        XCTAssertTrue(Set(cases.map(\.id)).isSuperset(of: ["edges", "union"]))
        let rows = ConformanceRunner.run(suite: "supermercado", cases: cases, implementation: SupermercadoSuite.graticule)
        for r in rows { XCTAssertEqual(r.verdict, .pass, "\(r.caseID): \(r.detail)") }
    }

    /// A burn case written here: a polygon inside tile 2/1/1 plus a line crossing tiles
    /// 2/1/2 and 2/2/2. The right expectation passes; one listing a far tile fails as
    /// `extra`; one omitting a crossed tile passes with the omission counted.
    func testBurnCases() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sm-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir + "/fixtures", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/expected", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let shape = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-80,10],[-10,10],[-10,50],[-80,50],[-80,10]]]}},{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[-60,-30],[60,-30]]}}]}"#
        for (name, tiles) in [("good", "[1, 1, 2]\n[1, 2, 2]\n[2, 2, 2]\n"), ("far", "[1, 1, 2]\n[3, 3, 2]\n"), ("short", "[1, 1, 2]\n[1, 2, 2]\n")] {
            try shape.write(toFile: dir + "/fixtures/\(name).geojson", atomically: true, encoding: .utf8)
            try tiles.write(toFile: dir + "/expected/\(name).txt", atomically: true, encoding: .utf8)
        }
        let rows = ConformanceRunner.run(suite: "supermercado", cases: try SupermercadoSuite().loadCases(from: dir),
                                         implementation: SupermercadoSuite.graticule)
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.caseID, $0) })
        XCTAssertEqual(byID["good"]?.verdict, .pass)
        XCTAssertEqual(byID["good"]?.actual, "accept:consistent: 3 expected tiles at z2, all touched; expectation omits 0 crossed and 0 touch-only tiles")
        XCTAssertEqual(byID["far"]?.verdict, .fail)
        XCTAssertEqual(byID["far"]?.actual, "reject:extra")
        XCTAssertEqual(byID["short"]?.verdict, .pass)
        XCTAssertTrue(byID["short"]?.actual.contains("omits 1 crossed") ?? false, byID["short"]?.actual ?? "")

        // Upstream's own layout: fixtures/shape.geojson is burned against expected/burned.txt.
        try shape.write(toFile: dir + "/fixtures/shape.geojson", atomically: true, encoding: .utf8)
        try "[1, 1, 2]\n[1, 2, 2]\n[2, 2, 2]\n".write(toFile: dir + "/expected/burned.txt", atomically: true, encoding: .utf8)
        let upstream = try SupermercadoSuite().loadCases(from: dir)
        XCTAssertTrue(upstream.contains { $0.id == "shape" }, "\(upstream.map(\.id))")
        let shapeRow = ConformanceRunner.run(suite: "supermercado", cases: upstream.filter { $0.id == "shape" },
                                             implementation: SupermercadoSuite.graticule)
        XCTAssertEqual(shapeRow.first?.verdict, .pass)
    }
}
