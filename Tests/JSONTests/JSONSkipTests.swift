import JSON
import CJSONSkip
import GraticuleSupport
import GraticuleTestSupport
import XCTest

/// The fast path of skipped values (`gr_json_skip`, CJSONSkip) against the tokenizer's own
/// skipper (`skipValueScalar`): what the fast path accepts, the scalar skipper accepts and
/// ends at the same byte (RFC 8259 §2-§8); whatever it refuses, the reader's result and
/// error stay the scalar skipper's.
final class JSONSkipTests: XCTestCase {
    /// Where skipping the value at the start of `bytes` ends (absolute offset), or the error.
    func skip(_ bytes: [UInt8], maxDepth: Int = 512, fast: Bool, chunk: Int? = nil) -> Result<Int, JSONError> {
        func run(_ c: inout JSONTokenizer) -> Result<Int, JSONError> {
            do throws(JSONError) {
                if fast { try c.skipValue(depth: 0) } else { try c.skipValueScalar(depth: 0) }
                return .success(c.offset(c.pos))
            } catch {
                return .failure(error)
            }
        }
        if let chunk {
            var c = JSONTokenizer(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk, maxDepth: maxDepth)
            defer { c.deallocate() }
            return run(&c)
        }
        return bytes.withUnsafeBytes { raw in
            var c = JSONTokenizer(borrowing: raw, maxDepth: maxDepth)
            return run(&c)
        }
    }

    /// What the C kernel says of the whole buffer: the end of the value, or -1.
    func kernel(_ bytes: [UInt8], nesting: Int = 512) -> Int {
        bytes.withUnsafeBufferPointer { b in gr_json_skip(b.baseAddress!, 0, b.count, nesting) }
    }

    // MARK: Random values

    struct Generator {
        var rng: SplitMix64

        mutating func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

        mutating func whitespace() -> String {
            rng.chance(70) ? "" : pick([" ", "\n", "\t", "\r\n", "  "])
        }

        mutating func string() -> String {
            let pieces = ["a", "B", "z", "0", " ", "_", "é", "中", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9",
                          "\\uD83D\\uDE00", "\\u0000", "\\b", "\\t", "ab", "\u{7F}", "\u{10FFFF}"]
            var s = "\""
            // Lengths around 16 bytes exercise the block scan and its scalar tail.
            for _ in 0..<Int(rng.next() % 24) { s += pick(pieces) }
            return s + "\""
        }

        mutating func number() -> String {
            var s = rng.chance(30) ? "-" : ""
            s += rng.chance(20) ? "0" : String(rng.next() % 1_000_000 + 1)
            if rng.chance(50) { s += "." + String(rng.next() % 100_000) }
            if rng.chance(20) { s += pick(["e", "E"]) + pick(["", "+", "-"]) + String(rng.next() % 100) }
            return s
        }

        mutating func value(_ depth: Int) -> String {
            switch rng.next() % (depth < 6 ? 8 : 5) {
            case 0, 1: return string()
            case 2, 3: return number()
            case 4: return pick(["true", "false", "null"])
            case 5, 6: return object(depth + 1)
            default: return array(depth + 1)
            }
        }

        mutating func array(_ depth: Int) -> String {
            let n = Int(rng.next() % 5)
            if n == 0 { return "[" + whitespace() + "]" }
            return "[" + (0..<n).map { _ in whitespace() + value(depth) + whitespace() }.joined(separator: ",") + "]"
        }

        mutating func object(_ depth: Int) -> String {
            let n = Int(rng.next() % 6)
            if n == 0 { return "{" + whitespace() + "}" }
            return "{" + (0..<n).map { _ in
                whitespace() + string() + whitespace() + ":" + whitespace() + value(depth) + whitespace()
            }.joined(separator: ",") + "}"
        }

        /// The bytes of `text` with one to three random edits.
        mutating func mutate(_ text: [UInt8]) -> [UInt8] {
            var b = text
            let interesting: [UInt8] = Array("\"\\{}[],: 0e-.+uxtn".utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
            for _ in 0...Int(rng.next() % 3) where !b.isEmpty {
                let i = Int(rng.next() % UInt64(b.count))
                switch rng.next() % 4 {
                case 0: b[i] = pick(interesting)
                case 1: b.remove(at: i)
                case 2: b.insert(pick(interesting), at: i)
                default: b.removeSubrange(i...)
                }
            }
            return b
        }
    }

    func testKernelAcceptsEveryValidValueAtItsEnd() {
        var g = Generator(rng: SplitMix64(seed: 42))
        for _ in 0..<3_000 {
            let text = g.pick([true, false]) ? g.object(1) : g.array(1)
            let bytes = Array(text.utf8)
            // Exponents here are below 100 on numbers under 10^7: never out of range.
            XCTAssertEqual(kernel(bytes), bytes.count, text)
            XCTAssertEqual(kernel(bytes + Array(" ,x".utf8)), bytes.count, text)
            XCTAssertEqual(skip(bytes, fast: false), .success(bytes.count), text)
        }
    }

    func testEditedValuesSkipAsTheScalarSkipperDoes() {
        var g = Generator(rng: SplitMix64(seed: 7))
        var accepted = 0, refused = 0
        for _ in 0..<6_000 {
            let text = g.pick([true, false]) ? g.object(1) : g.array(1)
            let bytes = g.mutate(Array(text.utf8))
            guard !bytes.isEmpty else { continue }
            let reference = skip(bytes, fast: false)
            let e = kernel(bytes)
            if e >= 0 {
                accepted += 1
                XCTAssertEqual(reference, .success(e), String(decoding: bytes, as: UTF8.self))
            } else {
                refused += 1
            }
            XCTAssertEqual(skip(bytes, fast: true), reference, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(skip(bytes, fast: true, chunk: 1 + Int(g.rng.next() % 40)), reference)
        }
        // Both branches ran many times (an edit sometimes leaves the text valid).
        XCTAssertGreaterThan(accepted, 200)
        XCTAssertGreaterThan(refused, 2_000)
    }

    func testRefusedForTheScalarSkipperToDecide() {
        // Each is refused by the kernel; the reader's answer is the scalar skipper's.
        let cases: [String] = [
            "[1e400]", "[1e300]", "[0.5e300]", "[1e00001]", "[1E+9999]",      // may be out of range
            "[" + String(repeating: "9", count: 301) + "]",                 // over 300 integer digits
            "[\"\\uD800\"]", "[\"\\uDC00\"]", "[\"\\uD800\\u0041\"]",            // lone surrogates
            "[\"\\u12G4\"]", "[\"\\x\"]", "[\"a\u{01}\"]",                    // bad escape, control
            "[01]", "[-]", "[1.]", "[1e]", "[.5]", "[+1]", "[tru]", "[nul]", "[True]",
            "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{1:2}", "[", "{\"a\":", "[\"abc",
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            let reference = skip(bytes, fast: false)
            let e = kernel(bytes)
            if e >= 0 { XCTAssertEqual(reference, .success(e), text) }
            XCTAssertEqual(skip(bytes, fast: true), reference, text)
        }
        XCTAssertEqual(kernel(Array("[1e400]".utf8)), -1)
        XCTAssertEqual(skip(Array("[1e400]".utf8), fast: true).failureKind, .numberOutOfRange)
        XCTAssertEqual(kernel(Array("[1e299]".utf8)), 7)
        // Only arrays and objects: a scalar's end is the scanner's to find.
        XCTAssertEqual(kernel(Array("0 ".utf8)), -1)
        XCTAssertEqual(kernel(Array("\"a\" ".utf8)), -1)
        // Raw bytes that are not UTF-8: an overlong form, a surrogate, past U+10FFFF, a
        // lone continuation byte, a truncated sequence.
        for raw: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xF5, 0x80, 0x80, 0x80]] {
            let bytes = Array("[\"".utf8) + raw + Array("\"]".utf8)
            XCTAssertEqual(kernel(bytes), -1, "\(raw)")
            XCTAssertEqual(skip(bytes, fast: true).failureKind, .invalidUTF8, "\(raw)")
        }
        for raw: [UInt8] in [[0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            let bytes = Array("[\"".utf8) + raw + Array("\"]".utf8)
            XCTAssertEqual(kernel(bytes), bytes.count, "\(raw)")
        }
    }

    func testNestingLimitIsTheReaders() {
        let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        let bytes = Array(deep.utf8)
        XCTAssertEqual(kernel(bytes, nesting: 10), bytes.count)
        XCTAssertEqual(kernel(bytes, nesting: 9), -1)
        XCTAssertEqual(skip(bytes, maxDepth: 10, fast: true), .success(bytes.count))
        XCTAssertEqual(skip(bytes, maxDepth: 9, fast: true), skip(bytes, maxDepth: 9, fast: false))
        XCTAssertEqual(skip(bytes, maxDepth: 9, fast: true).failureKind, .depthLimitExceeded(9))
        // Deeper than the kernel's 64 levels: the scalar skipper takes it.
        let deeper = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        XCTAssertEqual(kernel(deeper), -1)
        XCTAssertEqual(skip(deeper, fast: true), .success(deeper.count))
    }
}

extension Result where Failure == JSONError {
    var failureKind: JSONError.Kind? {
        if case .failure(let e) = self { return e.kind }
        return nil
    }
}
