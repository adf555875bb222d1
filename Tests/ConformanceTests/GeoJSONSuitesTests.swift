import GraticuleTestSupport
import XCTest
import Foundation
@testable import Conformance

/// The JSON and GeoJSON suites against graticule's reader and validator, with the
/// implementation-defined outcomes pinned to the documented policies.
final class GeoJSONSuitesTests: XCTestCase {
    func corpus(_ name: String) throws -> String {
        let p = TestPaths.shared("" + name)
        guard FileManager.default.fileExists(atPath: p) else { throw XCTSkip("\(name) not found") }
        return p
    }

    func run(_ suite: ConformanceSuite, _ impl: ConformanceImplementation) throws -> [VerdictRow] {
        let cases = try suite.loadCases(from: try corpus(suite.name))
        XCTAssertFalse(cases.isEmpty)
        return ConformanceRunner.run(suite: suite.name, cases: cases, implementation: impl)
    }

    /// RFC 8259: every y_ accepted, every n_ rejected; i_ outcomes follow the documented
    /// policies (overflow rejected, underflow and big integers accepted, invalid UTF-8 and
    /// lone surrogates rejected, BOM skipped, 500 levels of nesting accepted).
    func testJSONTestSuite() throws {
        let rows = try run(JSONTestSuite(), JSONTestSuite.graticule)
        XCTAssertEqual(rows.filter { $0.verdict == .fail }.map(\.caseID), [])
        let outcome = Dictionary(uniqueKeysWithValues: rows.map { ($0.caseID, $0.actual) })
        for id in ["i_number_double_huge_neg_exp", "i_number_real_underflow", "i_number_very_big_negative_int",
                   "i_structure_500_nested_arrays", "i_structure_UTF-8_BOM_empty_object"] where outcome[id] != nil {
            XCTAssertEqual(outcome[id], "accept", id)
        }
        for id in ["i_number_huge_exp", "i_number_real_neg_overflow", "i_string_UTF-8_invalid_sequence",
                   "i_string_lone_second_surrogate", "i_string_overlong_sequence_2_bytes", "i_string_iso_latin_1",
                   "i_string_UTF8_surrogate_U+D800", "i_string_utf16LE_no_BOM"] where outcome[id] != nil {
            XCTAssertEqual(outcome[id], "reject:invalid", id)
        }
        // Every n_ rejection carries a location (line/column/byte).
        for r in rows where r.caseID.hasPrefix("n_") {
            XCTAssertTrue(r.detail.contains("byte"), r.caseID)
        }
    }

    func testParseNumberFxx() throws {
        let rows = try run(ParseNumberFxxSuite(), ParseNumberFxxSuite.graticule)
        XCTAssertEqual(rows.filter { $0.verdict == .fail }.map(\.caseID), [])
        XCTAssertTrue(ParseNumberFxxSuite.isJSONNumber("-0.5e+3".dropFirst(0).utf8))
        XCTAssertFalse(ParseNumberFxxSuite.isJSONNumber(".5"[...].utf8))
        XCTAssertFalse(ParseNumberFxxSuite.isJSONNumber("1."[...].utf8))
    }

    func testGeoJSONSuites() throws {
        for (suite, impl) in [(GeoJSONHintSuite() as ConformanceSuite, GeoJSONVerdicts.implementation),
                              (GeoJSONSchemaSuite(), GeoJSONVerdicts.implementation),
                              (GeoJSONInvalidGeometrySuite(), GeoJSONVerdicts.implementation),
                              (GeoJSONRewindSuite(), GeoJSONRewindSuite.graticule),
                              (TurfSamplesSuite(), TurfSamplesSuite.graticule)] {
            let rows = try run(suite, impl)
            XCTAssertEqual(rows.filter { $0.verdict == .fail }.map(\.caseID), [], suite.name)
            // The suites must be able to fail: a rejection where acceptance is expected fails.
            let rejectAll = ConformanceImplementation(name: "reject-all") { _ in .rejected(errorClass: "x", detail: "") }
            let cases = try suite.loadCases(from: try corpus(suite.name))
            if cases.contains(where: { if case .accept = $0.expected { return true } else { return false } }) {
                XCTAssertTrue(ConformanceRunner.run(suite: suite.name, cases: cases, implementation: rejectAll)
                    .contains { $0.verdict == .fail }, suite.name)
            }
        }
    }
}

/// tile-cover fixtures: every tile tile-cover lists lies in graticule's closed cover; the
/// three inputs reaching longitude 180 are flagged as tile-cover listing non-tiles.
final class TileCoverSuiteTests: XCTestCase {
    func testTileCoverFixtures() throws {
        let p = TestPaths.shared("tile-cover")
        guard FileManager.default.fileExists(atPath: p) else { throw XCTSkip("tile-cover fixtures not found") }
        let cases = try TileCoverSuite().loadCases(from: p)
        XCTAssertGreaterThanOrEqual(cases.count, 18)
        let rows = ConformanceRunner.run(suite: "tile-cover", cases: cases, implementation: TileCoverSuite.graticule)
        XCTAssertEqual(rows.filter { $0.verdict == .fail }.map(\.caseID), [])
        XCTAssertEqual(Set(rows.filter { $0.rule == "TC-6.6" }.map(\.caseID)).isSuperset(of: ["russia"]), true)
        // An implementation that covers nothing must fail the consistent cases.
        let empty = ConformanceImplementation(name: "nothing") { _ in .rejected(errorClass: "tile-cover-extra", detail: "") }
        XCTAssertTrue(ConformanceRunner.run(suite: "tile-cover", cases: cases, implementation: empty).contains { $0.verdict == .fail })
    }
}
