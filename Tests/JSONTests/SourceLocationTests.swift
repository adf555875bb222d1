import JSON
import XCTest

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


/// The line counter (eight bytes at a time, byte by byte around CRs and at the ends) gives
/// the same line and column whether the text comes in one piece or two, on text with LF,
/// CR LF, lone CR and multi-byte characters; `SourceLocation` is computed with it too and
/// its hand-written cases are above.
final class LineCounterTests: XCTestCase {
    func testAgreesWithSourceLocation() {
        var rng = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D], Array("é".utf8), Array("😀".utf8), Array("abc".utf8), [0x20]]
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &rng) { bytes += pieces.randomElement(using: &rng)! }
            let split = Int.random(in: 0...bytes.count, using: &rng)
            var c = _LineCounter()
            bytes.withUnsafeBufferPointer { b in
                c.advance(b.baseAddress! , split)
                c.advance(b.baseAddress! + split, bytes.count - split)
            }
            let expected = bytes.withUnsafeBytes { SourceLocation(offset: bytes.count, in: $0) }
            // A CR at the very end followed by nothing: both count the line.
            XCTAssertEqual(c.line, expected.line, "\(bytes)")
            XCTAssertEqual(c.column, expected.column, "\(bytes)")
        }
    }
}

/// Locating offsets in any order gives the line and column a count from the start gives,
/// whether the locator goes forwards, back a little (the start of the feature after a
/// finding inside it) or far back (before a checkpoint).
final class LocatorTests: XCTestCase {
    func testAnyOrderMatchesACountFromTheStart() {
        var rng = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        let alphabet = Array("ab \n\r\r\n".utf8) + [0xC3, 0xA9]
        while bytes.count < 700_000 { bytes.append(alphabet.randomElement(using: &rng)!) }
        let source = ChunkedByteSource(bytes, chunkSize: 4096)
        let locator = _Locator()
        var targets = (0..<60).map { _ in Int.random(in: 0...bytes.count, using: &rng) }
        targets += targets.map { max(0, $0 - 37) }          // just behind a point located
        targets.shuffle(using: &rng)
        for t in targets {
            var c = _LineCounter()
            bytes.withUnsafeBufferPointer { c.advance($0.baseAddress!, t) }
            let found = locator.locate(t, in: source)
            XCTAssertEqual(found.line, c.line, "offset \(t)")
            XCTAssertEqual(found.column, c.column, "offset \(t)")
        }
    }
}
