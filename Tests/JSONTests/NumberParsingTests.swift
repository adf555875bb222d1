import JSON
import GraticuleSupport
import GraticuleTestSupport
import XCTest
import Foundation
import GeoModel

/// RFC 8259 §6 numbers, correctly rounded (0 ULP), against public test vectors whose bit
/// patterns were computed by independent exact converters (../shared/corpora/parse-number-fxx).
final class NumberParsingTests: XCTestCase {
    static var corpus: String {
        TestPaths.shared("parse-number-fxx")
    }

    func parse(_ s: String) -> NumberScanResult {
        let bytes = Array(s.utf8)
        return bytes.withUnsafeBufferPointer { NumberParser.scan($0.baseAddress!, start: 0, end: bytes.count, atEnd: true) }
    }

    func value(_ s: String) -> Double? {
        if case .number(let n, let end) = parse(s), end == s.utf8.count { return n.double }
        return nil
    }

    /// The JSON number grammar (RFC 8259 §6): what is accepted and what is not.
    func testGrammar() {
        for ok in ["0", "-0", "1", "-1", "0.5", "1e5", "1E+5", "1e-5", "123.456e-7", "-0.0e0"] {
            XCTAssertNotNil(value(ok), ok)
        }
        for bad in ["01", "-", "1.", ".5", "+1", "1e", "1e+", "-a", "0x10"] {
            if case .number(_, let end) = parse(bad), end == bad.utf8.count {
                XCTFail("\(bad) accepted")
            }
        }
    }

    /// -0 keeps its sign; overflow is an error; underflow is zero (documented policies).
    func testPolicies() {
        XCTAssertEqual(value("-0")?.sign, .minus)
        XCTAssertEqual(value("-0.0")?.sign, .minus)
        guard case .outOfRange = parse("1e400") else { return XCTFail("1e400 must be out of range") }
        guard case .outOfRange = parse("-1e309") else { return XCTFail("-1e309 must be out of range") }
        XCTAssertEqual(value("1e-400"), 0)
        XCTAssertEqual(value("-1e-400")?.sign, .minus)
        XCTAssertEqual(value("1.7976931348623157e308"), .greatestFiniteMagnitude)
        XCTAssertEqual(value("4.9406564584124654e-324"), .leastNonzeroMagnitude)
        XCTAssertEqual(value("2.2250738585072014e-308"), .leastNormalMagnitude)
    }

    /// Integers keep 64-bit exactness where the API exposes integers.
    func testExactIntegers() {
        func pv(_ s: String) -> PropertyValue? {
            if case .number(let n, _) = parse(s) { return n.propertyValue }
            return nil
        }
        XCTAssertEqual(pv("9007199254740993"), .int(9_007_199_254_740_993))
        XCTAssertEqual(pv("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(pv("18446744073709551615"), .uint(UInt64.max))
        XCTAssertEqual(pv("18446744073709551616"), .double(18446744073709551616.0))
        XCTAssertEqual(pv("-0"), .double(-0.0))
        XCTAssertEqual(pv("1.0"), .double(1))
    }

    /// The eight-byte digit run: every byte value (0–255) at every position after a run of
    /// digits, against a byte-by-byte count; the run's value against the digits' own.
    func testDigitRunsOfEightBytes() {
        var rng = SplitMix64(seed: 7)
        for position in 0..<8 {
            for stop in 0...255 where !(0x30...0x39).contains(stop) {
                var bytes = (0..<8).map { _ in UInt8(0x30 + Int.random(in: 0...9, using: &rng)) }
                bytes[position] = UInt8(stop)
                // Bytes after the stop may be anything, high bytes included.
                for k in (position + 1)..<8 { bytes[k] = UInt8.random(in: 0...255, using: &rng) }
                let w = bytes.withUnsafeBufferPointer { NumberParser.load8($0.baseAddress!) }
                XCTAssertEqual(NumberParser.leadingDigitCount(w), position, "\(bytes)")
                if position > 0 {
                    let want = bytes[0..<position].reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
                    XCTAssertEqual(NumberParser.digitsValue(w, count: position), want, "\(bytes)")
                }
            }
        }
        let eight = Array("90817263".utf8).withUnsafeBufferPointer { NumberParser.load8($0.baseAddress!) }
        XCTAssertEqual(NumberParser.leadingDigitCount(eight), 8)
    }

    /// Integer and fraction parts of 1 to 24 digits, with and without an exponent, ended
    /// by each kind of byte and with the window ending right after the number or a few
    /// bytes on: `scan`, `quick` and `quickDouble` give the correctly rounded value (the
    /// C library's `strtod`), and the quick readers answer every plain number of at most
    /// 15 digits.
    func testNumbersOfEveryDigitCountAndAlignment() {
        var rng = SplitMix64(seed: 11)
        func digits(_ n: Int, leadingNonzero: Bool) -> String {
            String((0..<n).map { k in Character(String(k == 0 && leadingNonzero ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng))) })
        }
        for intDigits in 1...24 {
            for fracDigits in 0...24 {
                for trial in 0..<3 {
                    var text = (trial == 1 ? "-" : "") + (intDigits == 1 && trial == 2 ? "0" : digits(intDigits, leadingNonzero: true))
                    if fracDigits > 0 { text += "." + (trial == 2 ? String(repeating: "0", count: fracDigits / 2) + digits(fracDigits - fracDigits / 2, leadingNonzero: false) : digits(fracDigits, leadingNonzero: false)) }
                    let withExponent = trial == 0 && fracDigits % 5 == 1
                    if withExponent { text += "e-" + String(Int.random(in: 0...30, using: &rng)) }
                    let want = strtod(text, nil)
                    for (tail, pad) in [("", 0), (",", 0), ("]", 12), (" ", 3), ("}abcdefghij", 0)] {
                        let bytes = Array((text + tail).utf8) + Array(repeating: UInt8(ascii: "x"), count: pad)
                        let n = text.utf8.count
                        bytes.withUnsafeBufferPointer { b in
                            let p = b.baseAddress!
                            guard case .number(let got, let e) = NumberParser.scan(p, start: 0, end: b.count, atEnd: true) else {
                                return XCTFail("\(text)\(tail): not scanned")
                            }
                            XCTAssertEqual(e, n, text)
                            XCTAssertEqual(got.double.bitPattern, want.bitPattern, "\(text)\(tail): \(got.double) against \(want)")
                            let plain = !withExponent && intDigits + fracDigits <= 15 && b.count > n
                            let quick = NumberParser.quickDouble(p, start: 0, end: b.count)
                            if plain { XCTAssertNotNil(quick, "\(text)\(tail)") }
                            if let quick {
                                XCTAssertEqual(quick.end, n, text)
                                XCTAssertEqual(quick.value.bitPattern, want.bitPattern, "\(text)\(tail): quickDouble")
                            }
                            if let (v, e2) = NumberParser.quick(p, start: 0, end: b.count) {
                                XCTAssertEqual(e2, n, text)
                                switch v {
                                case .int(let i): XCTAssertEqual(Double(i), want, text)
                                case .double(let d): XCTAssertEqual(d.bitPattern, want.bitPattern, "\(text)\(tail): quick")
                                default: XCTFail("\(text): \(v)")
                                }
                            } else if plain {
                                XCTFail("\(text)\(tail): quick gave nothing")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Hard cases for the fast tiers: halfway points, long significands, the slow path.
    func testKnownHardCases() {
        let cases: [(String, UInt64)] = [
            ("9007199254740993", 0x4340000000000000),            // halfway, rounds to even
            ("9007199254740995", 0x4340000000000002),
            ("2.2250738585072011e-308", 0x000FFFFFFFFFFFFF),     // largest subnormal region
            ("0.1", 0x3FB999999999999A),
            ("1.00000000000000011102230246251565404236316680908203125", 0x3FF0000000000000),
            ("1.00000000000000011102230246251565404236316680908203126", 0x3FF0000000000001),
            ("7.2057594037927933e16", 0x4370000000000000),
        ]
        for (s, bits) in cases {
            XCTAssertEqual(value(s)?.bitPattern, bits, s)
        }
    }

    /// Every line of the public parse-number-fxx files: the f64 bit pattern must match.
    /// Lines outside the JSON grammar must be rejected by the tokenizer instead.
    func testParseNumberFxxCorpus() throws {
        let dir = Self.corpus
        guard FileManager.default.fileExists(atPath: dir) else { throw XCTSkip("parse-number-fxx not found") }
        var checked = 0, nonJSON = 0, mismatches: [String] = []
        for sub in ["data", "f64-only"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub).filter { $0.hasSuffix(".txt") }
            for f in files {
                let text = try String(contentsOfFile: dir + "/" + sub + "/" + f, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    let hex = sub == "data" ? fields[2] : fields[0]
                    let s = String(fields.last!)
                    guard let bits = UInt64(hex, radix: 16) else { continue }
                    let expected = Double(bitPattern: bits)
                    let isJSON = s.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
                    let r = parse(s)
                    if !isJSON {
                        nonJSON += 1
                        if case .number(_, let end) = r, end == s.utf8.count { mismatches.append("accepted non-JSON \(s)") }
                        continue
                    }
                    checked += 1
                    switch r {
                    case .number(let n, let end):
                        if end != s.utf8.count || n.double.bitPattern != bits { mismatches.append("\(s): got \(n.double) want \(expected)") }
                    case .outOfRange:
                        if !expected.isInfinite { mismatches.append("\(s): out of range, want \(expected)") }
                    default:
                        mismatches.append("\(s): rejected")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 30_000)
        XCTAssertEqual(mismatches.count, 0, mismatches.prefix(10).joined(separator: "\n"))
        print("parse-number-fxx: \(checked) JSON-grammar lines bit-exact, \(nonJSON) non-JSON lines rejected")
    }
}
