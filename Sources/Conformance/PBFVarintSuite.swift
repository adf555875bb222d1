import Foundation
import PBF

/// Conformance of the protobuf varint and zigzag reader (mvt-pbf rules P1, P2, P3, P10,
/// P11) against fixtures written for this project.
///
/// Fixture format: `cases.tsv` in the suite directory, one case per line,
/// `id<TAB>rule<TAB>hex bytes<TAB>expected`, where `expected` is `accept:` followed by the
/// decoded values (space-separated; `u:` prefix for uint64, `u32:` for the uint32 reading,
/// `s32:` for sint32, `s64:` for sint64) or `reject:` followed by the error class
/// (`truncated`, `varintTooLong`). Lines starting with `#` are comments.
public struct PBFVarintSuite: ConformanceSuite {
    public let name = "pbf-varint"
    public init() {}

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)
        case badLine(Int, String)
        public var description: String {
            switch self {
            case .unreadable(let p): return "\(p): cannot read"
            case .badLine(let n, let s): return "cases.tsv line \(n): \(s)"
            }
        }
    }

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        let path = directory + "/cases.tsv"
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.unreadable(path) }
        let text = String(decoding: data, as: UTF8.self)
        var cases: [ConformanceCase] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { throw LoadError.badLine(n + 1, "expected 4 tab-separated fields") }
            guard let bytes = Self.hex(f[2]) else { throw LoadError.badLine(n + 1, "bad hex '\(f[2])'") }
            let expected: Expectation
            if f[3].hasPrefix("accept:") {
                expected = .accept(output: String(f[3].dropFirst(7)))
            } else if f[3].hasPrefix("reject:") {
                expected = .reject(errorClass: String(f[3].dropFirst(7)))
            } else {
                throw LoadError.badLine(n + 1, "expected must start with accept: or reject:")
            }
            cases.append(ConformanceCase(id: f[0], rule: f[1], input: bytes, expected: expected))
        }
        return cases
    }

    static func hex(_ s: String) -> [UInt8]? {
        let digits = s.filter { !$0.isWhitespace }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = digits.startIndex
        while i < digits.endIndex {
            let j = digits.index(i, offsetBy: 2)
            guard let b = UInt8(digits[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }

    /// The reading a case asks for, from the prefix of its first expected value.
    enum Reading: String { case u, u32, s32, s64 }

    /// Graticule's `PBFReader` as the implementation: reads varints until the end of the
    /// input in the reading the expected output names (uint64 by default).
    public static var graticule: ConformanceImplementation { ConformanceImplementation(name: "graticule") { c in
        var reading = Reading.u
        if case .accept(let out?) = c.expected, let first = out.split(separator: " ").first,
           let colon = first.firstIndex(of: ":"), let r = Reading(rawValue: String(first[..<colon])) {
            reading = r
        }
        do throws(PBFError) {
            let values: [String] = try PBFReader.read(c.input) { (reader) throws(PBFError) -> [String] in
                var out: [String] = []
                while !reader.isAtEnd {
                    switch reading {
                    case .u: out.append("u:\(try reader.readVarint())")
                    case .u32: out.append("u32:\(try reader.readUInt32())")
                    case .s32: out.append("s32:\(try reader.readSInt32())")
                    case .s64: out.append("s64:\(try reader.readSInt64())")
                    }
                }
                return out
            }
            return .accepted(output: values.joined(separator: " "))
        } catch {
            let cls: String
            switch error {
            case .truncated: cls = "truncated"
            case .varintTooLong: cls = "varintTooLong"
            default: cls = "other"
            }
            return .rejected(errorClass: cls, detail: "\(error) at byte \(error.offset)")
        }
    } }
}
