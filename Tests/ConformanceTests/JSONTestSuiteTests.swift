import GraticuleTestSupport
import XCTest
@testable import Conformance

final class JSONTestSuiteTests: XCTestCase {
    var corpus: String {
        TestPaths.shared("json-test-suite")
    }

    func testRuleMapping() {
        XCTAssertEqual(JSONTestSuite.rule(for: "n_number_01.json"), "RFC8259-6")
        XCTAssertEqual(JSONTestSuite.rule(for: "y_string_utf8.json"), "RFC8259-7")
        XCTAssertEqual(JSONTestSuite.rule(for: "n_array_extra_comma.json"), "RFC8259-5")
        XCTAssertEqual(JSONTestSuite.rule(for: "n_object_trailing_comma.json"), "RFC8259-4")
        XCTAssertEqual(JSONTestSuite.rule(for: "n_structure_lone-open-bracket.json"), "RFC8259-2")
    }

    func testLoaderAndFoundationRun() throws {
        guard FileManager.default.fileExists(atPath: corpus) else { throw XCTSkip("json-test-suite not found") }
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus + "/test_parsing")
            .filter { $0.hasSuffix(".json") }
        let cases = try JSONTestSuite().loadCases(from: corpus)
        XCTAssertEqual(cases.count, files.count)
        for c in cases {
            switch c.id.prefix(2) {
            case "y_": XCTAssertEqual(c.expected, .accept(output: nil))
            case "n_": XCTAssertEqual(c.expected, .reject(errorClass: nil))
            default: XCTAssertEqual(c.expected, .either)
            }
        }
        // Every case gets a verdict; Foundation must at least accept the plainest documents.
        let rows = ConformanceRunner.run(suite: "json-test-suite", cases: cases, implementation: JSONTestSuite.foundation)
        XCTAssertEqual(rows.count, cases.count)
        XCTAssertEqual(rows.first { $0.caseID == "y_array_empty" }?.verdict, .pass)
    }
}
