import JSON
import XCTest
import GeoJSON

/// Validating a GeoJSON text sequence: broken elements are findings at their place, the
/// rest is read on, findings come in byte order.
final class SequenceValidationTests: XCTestCase {
    func testBrokenElementsAreFindingsInByteOrder() throws {
        let lines = [#"{"type":"Point","coordinates":[1,2]}"#,
                     #"{"type":"Point","coordinates":[1,"#,
                     #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#,
                     #"{"type":"Pointy","coordinates":[3,4]}"#,
                     #"{"type":"Point","coordinates":[3,4]}"#]
        let text = lines.joined(separator: "\n") + "\n"
        var calls: [Int] = []
        let report = try GeoJSONValidator.validateSequence(source: ChunkedByteSource(Array(text.utf8), chunkSize: 16)) { _, n in
            calls.append(n)
        }
        XCTAssertEqual(report.featureCount, 3, "three elements read, two broken")
        XCTAssertEqual(calls, [1, 2, 3])
        XCTAssertEqual(report.errors.count, 2)
        XCTAssertEqual(report.findings.map(\.location.offset), report.findings.map(\.location.offset).sorted())
        // The unknown type is found on its own line; the cut-off element is found where the
        // JSON stops making sense (a newline is whitespace, so on the line after it).
        let starts = lines.indices.map { i in lines[..<i].map { $0.utf8.count + 1 }.reduce(0, +) }
        let errorLines = report.errors.map { e in starts.lastIndex { $0 <= e.location.offset }! }
        XCTAssertEqual(errorLines.last, 3)
        XCTAssertTrue((1...2).contains(errorLines[0]), "\(errorLines)")
        XCTAssertFalse(report.isValid)
        // A valid sequence has no errors (the polygon's winding may warn).
        let ok = try GeoJSONValidator.validateSequence(source: ChunkedByteSource(Array((lines[0] + "\n" + lines[4] + "\n").utf8), chunkSize: 7))
        XCTAssertEqual(ok.featureCount, 2)
        XCTAssertTrue(ok.errors.isEmpty)
    }
}
