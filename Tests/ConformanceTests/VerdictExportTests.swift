import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import Conformance

/// JUnit XML and Markdown of verdict rows.
final class VerdictExportTests: XCTestCase {
    let rows = [
        VerdictRow(suite: "s", implementation: "a", caseID: "ok & fine", rule: "R1", expected: "accept", actual: "accept",
                   verdict: .pass, detail: ""),
        VerdictRow(suite: "s", implementation: "a", caseID: "bad <1>", rule: "R2", expected: "reject", actual: "accept",
                   verdict: .fail, detail: "accepted \"x\"\u{1}"),
        VerdictRow(suite: "s", implementation: "b", caseID: "c", rule: "R1", expected: "accept", actual: "crash",
                   verdict: .fail, detail: "ended"),
    ]

    final class Counter: NSObject, XMLParserDelegate {
        var suites = 0, cases = 0, failures: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "testsuite" { suites += 1 }
            if name == "testcase" { cases += 1 }
            if name == "failure" { failures.append(attributes["type"] ?? "") }
        }
    }

    func testJUnitParsesWithOneSuitePerSuiteAndImplementation() throws {
        let xml = VerdictExports.junit(rows)
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = Counter()
        parser.delegate = counter
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        XCTAssertEqual(counter.suites, 2)
        XCTAssertEqual(counter.cases, 3)
        XCTAssertEqual(counter.failures, ["R2", "R1"])
        XCTAssertTrue(xml.contains("name=\"bad &lt;1&gt;\""))
        XCTAssertFalse(xml.contains("\u{1}"))
    }

    func testMarkdownListsTheTableAndTheFailures() {
        let md = VerdictExports.markdown(rows)
        XCTAssertTrue(md.contains("| s | a | 1/2 | 1 | 0 |"), md)
        XCTAssertTrue(md.contains("| s | b | 0/1 | 1 | 1 |"), md)
        XCTAssertTrue(md.contains("2 failing cases"), md)
        XCTAssertTrue(VerdictExports.markdown([rows[0]]).contains("Every case passed."))
    }
}
