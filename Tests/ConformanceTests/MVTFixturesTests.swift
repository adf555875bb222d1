import GraticuleTestSupport
import XCTest
@testable import Conformance
import VectorTile

/// Runs the mvt-fixtures suite from ../shared/corpora (beside the repository in CI).
final class MVTFixturesTests: XCTestCase {
    var corpus: String {
        TestPaths.shared("mvt-fixtures")
    }

    func testEveryFixtureGetsItsVerdict() throws {
        guard FileManager.default.fileExists(atPath: corpus) else {
            throw XCTSkip("mvt-fixtures not found at \(corpus)")
        }
        let cases = try MVTFixturesSuite().loadCases(from: corpus)
        XCTAssertGreaterThanOrEqual(cases.count, 50)
        let rows = ConformanceRunner.run(suite: "mvt-fixtures", cases: cases, implementation: MVTFixturesSuite.graticule)
        for r in rows where r.verdict == .fail {
            XCTFail("\(r.caseID) [\(r.rule)]: expected \(r.expected.prefix(80)), got \(r.actual.prefix(80)) \(r.detail)")
        }
    }

    /// The expected text comes from tile.json through Foundation; check the reader of that
    /// side on a fixture whose content is known (022, the §4.3.5 multi-polygon).
    func testCanonicalFormOfKnownFixture() throws {
        guard FileManager.default.fileExists(atPath: corpus) else { throw XCTSkip("mvt-fixtures not found") }
        let json = try Data(contentsOf: URL(fileURLWithPath: corpus + "/fixtures/022/tile.json"))
        let text = try MVTFixturesSuite.canonical(tileJSON: json, path: "022")
        XCTAssertTrue(text.hasPrefix("layer hello v2 extent 4096\nkeys \"hello\"\nvalues string:\"world\"\n"), text)
        XCTAssertTrue(text.contains("feature id 1 type 3 tags [0,0] geometry [9,0,0,26,20,0,0,20,19,0,15,"), text)
    }
}
