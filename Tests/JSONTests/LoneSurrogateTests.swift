import JSON
import XCTest

/// A lone high surrogate escape followed by something other than `\u` is an invalid escape
/// at the escape's byte (RFC 8259 §7), wherever the input's chunks end; only a string the
/// input truly cuts short is an unexpected end.
final class LoneSurrogateTests: XCTestCase {
    func testALoneHighSurrogateIsAnInvalidEscapeAtItsByte() {
        let cases: [(String, Int)] = [(#"{"a":"\ud800"}}"#, 6), (#"{"a":"\ud800x"}"#, 6), (#"{"a":"\ud800\n"}"#, 6),
                                      (#"{"a":"\ud800\u00"#, -1)]
        for (text, at) in cases {
            let bytes = Array(text.utf8)
            for chunk in [1, 3, 7, 64] {
                XCTAssertThrowsError(try JSONValueReader.read(from: ChunkedByteSource(bytes, chunkSize: chunk))) { error in
                    let e = error as! JSONError
                    if at >= 0 {
                        XCTAssertTrue("\(e)".contains("invalid escape"), "\(text) chunk \(chunk): \(e)")
                        XCTAssertEqual(e.location.offset, at, "\(text) chunk \(chunk)")
                    } else {
                        XCTAssertTrue("\(e)".contains("unexpected end"), "\(text) chunk \(chunk): \(e)")
                    }
                }
            }
        }
        XCTAssertEqual(try JSONValueReader.read(Array(#""\ud83d\ude00""#.utf8)), .string("😀"))
    }
}
