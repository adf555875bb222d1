import JSON
import GraticuleSupport
import XCTest
@testable import GeoJSON
import GeoModel

/// The shortcuts of the skipping and string paths (eight bytes at a time, numbers checked
/// without converting them) against the byte-by-byte definitions they replace, and
/// skipped properties failing exactly as read ones do.
final class SkipPathTests: XCTestCase {

    /// The first byte of eight that ends a run of plain string bytes, one byte at a time.
    func firstStop(_ bytes: [UInt8]) -> Int {
        bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 } ?? 8
    }

    func testStringStopMaskFindsTheFirstByteThatNeedsALook() {
        var rng = SplitMix64(seed: 7)
        // Bytes near each boundary the mask tests, and plain ones.
        let pool: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA0, 0xC3, 0xFF,
                             0x41, 0x61, 0x30, 0x2C]
        for _ in 0..<200_000 {
            var bytes = [UInt8](repeating: 0x61, count: 8)
            for k in 0..<8 where Int.random(in: 0..<4, using: &rng) == 0 {
                bytes[k] = pool.randomElement(using: &rng)!
            }
            if Int.random(in: 0..<8, using: &rng) == 0 { bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) } }
            let word = bytes.withUnsafeBufferPointer { NumberParser.load8($0.baseAddress!) }
            let m = _ByteMasks.stringStop(word)
            let found = m == 0 ? 8 : m.trailingZeroBitCount >> 3
            XCTAssertEqual(found, firstStop(bytes), "bytes \(bytes)")
            let escape = _ByteMasks.needsEscape(word)
            let firstEscape = bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } ?? 8
            XCTAssertEqual(escape == 0 ? 8 : escape.trailingZeroBitCount >> 3, firstEscape, "bytes \(bytes)")
            if found != firstStop(bytes) { return }
        }
    }

    /// What `scan` says of a number text: its end, or why it has none.
    func scanned(_ text: [UInt8], atEnd: Bool) -> String {
        text.withUnsafeBufferPointer { p in
            switch NumberParser.scan(p.baseAddress!, start: 0, end: p.count, atEnd: atEnd) {
            case .number(_, let end): return "end \(end)"
            case .incomplete: return "incomplete"
            case .invalid(let at, _): return "invalid at \(at)"
            case .outOfRange: return "out of range"
            }
        }
    }

    func testSkimAcceptsOnlyWhatScanAcceptsAndEndsWhereItEnds() {
        var rng = SplitMix64(seed: 11)
        let pieces = ["-", "0", "00", "1", "9", "12345678", "123456789012345678901234567890", ".", "5", "0000",
                      "e", "E", "+", "-", "400", "308", "x", ",", "}", " ", "]"]
        var accepted = 0
        for _ in 0..<100_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &rng) { text += pieces.randomElement(using: &rng)! }
            if Int.random(in: 0..<50, using: &rng) == 0 { text = String(repeating: "9", count: Int.random(in: 290...320, using: &rng)) + ".5," }
            let bytes = Array(text.utf8)
            guard let first = bytes.first, first == UInt8(ascii: "-") || NumberParser.isDigit(first) else { continue }
            let skim = bytes.withUnsafeBufferPointer { NumberParser.skim($0.baseAddress!, start: 0, end: $0.count) }
            guard let end = skim else { continue }
            accepted += 1
            // Whatever follows in a longer input, scan must agree on a number ending here.
            XCTAssertEqual(scanned(bytes, atEnd: false), "end \(end)", text)
            XCTAssertEqual(scanned(bytes, atEnd: true), "end \(end)", text)
        }
        XCTAssertGreaterThan(accepted, 10_000, "the generator should reach the fast path often")
    }

    /// The bit pattern of a property value, so that -0.0 and 0.0 differ.
    func bits(_ v: PropertyValue) -> String {
        if case .double(let d) = v { return "double \(d.bitPattern)" }
        return "\(v)"
    }

    func testQuickValuesAreScansValuesBitForBit() {
        var rng = SplitMix64(seed: 13)
        let pieces = ["-", "0", "1", "9", "5", "12345678", "0000", ".", "3", "7", "e", "x", ",", "}", " ", "]"]
        var answered = 0
        for _ in 0..<200_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...7, using: &rng) { text += pieces.randomElement(using: &rng)! }
            let bytes = Array(text.utf8)
            guard let first = bytes.first, first == UInt8(ascii: "-") || NumberParser.isDigit(first) else { continue }
            let quick = bytes.withUnsafeBufferPointer { NumberParser.quick($0.baseAddress!, start: 0, end: $0.count) }
            guard let (value, end) = quick else { continue }
            answered += 1
            let scan = bytes.withUnsafeBufferPointer { NumberParser.scan($0.baseAddress!, start: 0, end: $0.count, atEnd: false) }
            guard case .number(let n, let scanEnd) = scan else { return XCTFail("\(text): scan does not accept it") }
            XCTAssertEqual(end, scanEnd, text)
            XCTAssertEqual(bits(value), bits(n.propertyValue), text)
        }
        XCTAssertGreaterThan(answered, 20_000, "the generator should reach the fast path often")
        // Random digit strings of up to 15 digits with a point anywhere: correctly rounded.
        for _ in 0..<100_000 {
            let n = Int.random(in: 1...15, using: &rng)
            func digit() -> String { String(Int.random(in: 0...9, using: &rng)) }
            // An integer part without a leading zero (or just "0"), then maybe a fraction.
            let integerDigits = Int.random(in: 1...n, using: &rng)
            var text = Bool.random(using: &rng) && integerDigits == 1 ? "0"
                : String(Int.random(in: 1...9, using: &rng)) + (1..<integerDigits).map { _ in digit() }.joined()
            if integerDigits < n { text += "." + (integerDigits..<n).map { _ in digit() }.joined() }
            if Bool.random(using: &rng) { text = "-" + text }
            text += ","
            let bytes = Array(text.utf8)
            let quick = bytes.withUnsafeBufferPointer { NumberParser.quick($0.baseAddress!, start: 0, end: $0.count) }
            let expected = Double(text.dropLast())!     // the standard library's correctly rounded parse
            guard let (value, _) = quick else { return XCTFail("\(text) should be quick") }
            switch value {
            case .double(let d): XCTAssertEqual(d.bitPattern, expected.bitPattern, text)
            case .int(let i): XCTAssertEqual(Double(i), expected, text); XCTAssertFalse(text.contains("."))
            default: XCTFail("\(text): \(value)")
            }
        }
    }

    func testSkimLeavesTheHardCasesToScan() {
        func skim(_ s: String) -> Int? {
            Array(s.utf8).withUnsafeBufferPointer { NumberParser.skim($0.baseAddress!, start: 0, end: $0.count) }
        }
        XCTAssertEqual(skim("-12.5,"), 5)
        XCTAssertEqual(skim("0}"), 1)
        XCTAssertNil(skim("1e400,"), "an exponent may be out of range")
        XCTAssertNil(skim("01,"), "a leading zero is scan's error")
        XCTAssertNil(skim("1.,"), "a bare decimal point is scan's error")
        XCTAssertNil(skim("-,"), "a lone minus is scan's error")
        XCTAssertNil(skim("12"), "a number touching the end may go on")
        XCTAssertNil(skim(String(repeating: "9", count: 301) + ","), "301 integer digits may exceed a double")
        XCTAssertEqual(skim(String(repeating: "9", count: 300) + ","), 300)
    }

    func outcome(_ bytes: [UInt8], skip: Bool, chunk: Int? = nil) -> String {
        let options = GeoJSONReadOptions(skipProperties: skip)
        do {
            if let chunk {
                _ = try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk, options: options)
                return "ok"
            }
            _ = try GeoJSONReader.read(bytes, options: options)
            return "ok"
        } catch {
            return "error \(error)"
        }
    }

    func testSkippedPropertiesFailWhereReadOnesFail() {
        let bad: [(value: String, kind: String)] = [
            ("1e400", "number out of the range"), ("-1E+999", "number out of the range"), ("01", "leading zeros"),
            ("1.", "decimal point"), ("-", "expected a digit"), ("nul", "JSON value"), ("tru", "JSON value"),
            ("fals", "JSON value"), ("falsy", "JSON value"), ("\"a\u{01}b\"", "control character"), ("\"a\\qb\"", "escape"),
            ("\"\\uD800 then text\"", "escape"), ("\"abcdefghij\u{01}\"", "control character"), ("[1, 2, 01]", "leading zeros"),
            ("{\"k\": 1e999}", "number out of the range"), ("\"ab", "unexpected end"), ("12345678901234567890x", "unexpected 'x'"),
        ]
        for (value, kind) in bad {
            let text = #"{"type":"Feature","geometry":null,"properties":{"name":"x","bad":"# + value + "}}"
            let bytes = Array(text.utf8)
            let read = outcome(bytes, skip: false)
            XCTAssertTrue(read.hasPrefix("error") && read.contains(kind), "\(value): \(read)")
            // The path names the member, or for a byte after the value, the object.
            XCTAssertTrue(read.contains(value.hasSuffix("x") ? "in properties" : "in properties.bad"), "\(value): \(read)")
            XCTAssertEqual(outcome(bytes, skip: true), read, value)
            for chunk in [1, 3, 8] { XCTAssertEqual(outcome(bytes, skip: true, chunk: chunk), read, "\(value), chunks of \(chunk)") }
        }
        // Invalid UTF-8 inside a long, otherwise plain string value.
        var bytes = Array(#"{"type":"Feature","geometry":null,"properties":{"bad":"abcdefghijklmnop"#.utf8)
        bytes += [0xC3, 0x28] + Array(#"q"}}"#.utf8)
        let read = outcome(bytes, skip: false)
        XCTAssertTrue(read.contains("invalid UTF-8"), read)
        XCTAssertEqual(outcome(bytes, skip: true), read)
    }

    func testSkippedPropertiesOfEveryShapeRead() {
        let text = #"{"type":"Feature","geometry":null,"properties":{"a":"plain ascii text over eight bytes","b":"é ü 漢字 🙂","#
            + #""c":"esc \" \\ \/ \n \u00e9 \ud83d\ude42","d":-0.0,"e":12345678901234567890123,"f":1.5e300,"g":true,"h":false,"#
            + #""i":null,"j":[1,[2,{"k":"v"}],[]],"l":{},"m":0}}"#
        let bytes = Array(text.utf8)
        XCTAssertEqual(outcome(bytes, skip: false), "ok")
        for chunk in [nil, 1, 2, 5, 9] { XCTAssertEqual(outcome(bytes, skip: true, chunk: chunk), "ok") }
    }
}
