import XCTest
import GeoJSON

final class SourceLocationTests: XCTestCase {
    func location(_ text: String, _ offset: Int) -> SourceLocation {
        Array(text.utf8).withUnsafeBytes { SourceLocation(offset: offset, in: $0) }
    }

    func testLinesAndColumns() {
        XCTAssertEqual(location("{\"a\": 1}", 0), SourceLocation(offset: 0, line: 1, column: 1))
        XCTAssertEqual(location("{\"a\": 1}", 6), SourceLocation(offset: 6, line: 1, column: 7))
        XCTAssertEqual(location("{\n  \"a\": x\n}", 9), SourceLocation(offset: 9, line: 2, column: 8))
    }

    /// RFC 8259 §2: CR, LF and CR LF are all whitespace; each ends one line.
    func testLineEndings() {
        XCTAssertEqual(location("a\r\nb", 3), SourceLocation(offset: 3, line: 2, column: 1))
        XCTAssertEqual(location("a\rb", 2), SourceLocation(offset: 2, line: 2, column: 1))
        XCTAssertEqual(location("a\n\nb", 3), SourceLocation(offset: 3, line: 3, column: 1))
    }

    /// Columns count characters: "é" is two bytes but one column.
    func testMultibyteColumns() {
        XCTAssertEqual(location("\"é\"x", 4), SourceLocation(offset: 4, line: 1, column: 4))
        XCTAssertEqual(location("\"😀\"x", 6), SourceLocation(offset: 6, line: 1, column: 4))
    }

    func testOffsetIsClamped() {
        XCTAssertEqual(location("ab", 99), SourceLocation(offset: 2, line: 1, column: 3))
        XCTAssertEqual(location("ab", -4), SourceLocation(offset: 0, line: 1, column: 1))
        XCTAssertEqual(location("x\ny", 2).description, "line 2, column 1 (byte 2)")
    }
}
