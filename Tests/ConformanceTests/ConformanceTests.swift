import GraticuleTestSupport
import XCTest
@testable import Conformance

final class ConformanceTests: XCTestCase {
    /// The suite's fixtures live in the project's corpora/; find them from this file.
    var fixtureDirectory: String {
        TestPaths.corpora("conformance/pbf-varint")
    }

    func testPBFVarintSuitePassesEveryCase() throws {
        let cases = try PBFVarintSuite().loadCases(from: fixtureDirectory)
        XCTAssertGreaterThanOrEqual(cases.count, 25)
        let rows = ConformanceRunner.run(suite: "pbf-varint", cases: cases, implementation: PBFVarintSuite.graticule)
        for r in rows where r.verdict == .fail { XCTFail("\(r.caseID): expected \(r.expected), got \(r.actual)") }
        let rules = Set(ConformanceRunner.ruleSummary(rows).map(\.rule))
        XCTAssertEqual(rules, ["P1", "P2", "P3", "P10", "P11"])
    }

    /// The runner can fail: a wrong expectation and a wrong error class are failures.
    func testWrongExpectationsFail() {
        let impl = PBFVarintSuite.graticule
        let cases = [
            ConformanceCase(id: "wrong-value", rule: "P1", input: [0x01], expected: .accept(output: "u:2")),
            ConformanceCase(id: "wrong-class", rule: "P3", input: [0x80], expected: .reject(errorClass: "varintTooLong")),
            ConformanceCase(id: "accepts-bad", rule: "P1", input: [0x80], expected: .accept(output: nil)),
            ConformanceCase(id: "rejects-good", rule: "P1", input: [0x01], expected: .reject(errorClass: nil)),
            ConformanceCase(id: "either", rule: "X", input: [0x80], expected: .either),
        ]
        let rows = ConformanceRunner.run(suite: "t", cases: cases, implementation: impl)
        XCTAssertEqual(rows.map(\.verdict), [.fail, .fail, .fail, .fail, .pass])
        XCTAssertEqual(rows[1].actual, "reject:truncated")
        XCTAssertEqual(rows[3].detail, "accepted input that must be rejected")
    }

    func testVerdictCSV() {
        let row = VerdictRow(suite: "s", implementation: "i", caseID: "c,1", rule: "P1", expected: "accept",
                             actual: "reject:truncated", verdict: .fail, detail: "say \"x\"")
        XCTAssertEqual(ConformanceRunner.csv([row]),
                       "suite,implementation,case,rule,expected,actual,verdict,detail\ns,i,\"c,1\",P1,accept,reject:truncated,fail,\"say \"\"x\"\"\"\n")
    }

    func testMalformedFixtureFileIsAnError() throws {
        let dir = try TestPaths.newFolder("graticule-badsuite")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "id\tP1\tzz\taccept:u:0\n".write(toFile: dir + "/cases.tsv", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PBFVarintSuite().loadCases(from: dir))
        XCTAssertThrowsError(try PBFVarintSuite().loadCases(from: dir + "/missing"))
    }
}
