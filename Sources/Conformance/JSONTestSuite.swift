import JSON
import Foundation
import GeoJSON

/// The JSON parsing conformance suite (../shared/corpora/json-test-suite, `test_parsing/`):
/// `y_*` files must be accepted, `n_*` rejected, `i_*` are implementation-defined (either
/// outcome passes; the outcome is recorded). Each case cites the RFC 8259 section its
/// file name points at.
///
/// Implementations: `foundation.jsonserialization` (Foundation, top-level scalars allowed
/// as RFC 8259 §2 permits). Graticule's own tokenizer joins when the GeoJSON module has one.
public struct JSONTestSuite: ConformanceSuite {
    public let name = "json-test-suite"
    public init() {}

    public enum LoadError: Error, CustomStringConvertible {
        case noCases(String)
        public var description: String {
            switch self { case .noCases(let p): return "\(p): no y_/n_/i_ files under test_parsing/" }
        }
    }

    /// RFC 8259 section cited by a case, from its file name.
    static func rule(for file: String) -> String {
        let body = file.dropFirst(2)
        if body.hasPrefix("number") { return "RFC8259-6" }
        if body.hasPrefix("string") { return "RFC8259-7" }
        if body.hasPrefix("array") { return "RFC8259-5" }
        if body.hasPrefix("object") { return "RFC8259-4" }
        if body.hasPrefix("incomplete") || body.hasPrefix("multidigit") { return "RFC8259-3" }
        if body.contains("utf") || body.contains("UTF") { return "RFC8259-8.1" }
        return "RFC8259-2"
    }

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        let dir = directory + "/test_parsing"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".json") && ($0.hasPrefix("y_") || $0.hasPrefix("n_") || $0.hasPrefix("i_")) }
            .sorted()
        guard !files.isEmpty else { throw LoadError.noCases(directory) }
        return files.compactMap { f in
            guard let data = FileManager.default.contents(atPath: dir + "/" + f) else { return nil }
            let expected: Expectation = f.hasPrefix("y_") ? .accept(output: nil)
                : f.hasPrefix("n_") ? .reject(errorClass: nil) : .either
            return ConformanceCase(id: String(f.dropLast(5)), rule: Self.rule(for: f), input: [UInt8](data),
                                   expected: expected)
        }
    }

    /// Graticule's JSON layer (`JSONValueReader`, the tokenizer under the GeoJSON reader).
    /// Its outcomes on the `i_` cases follow its documented policies: numbers that round to
    /// infinity are rejected, underflow gives 0, lone surrogate escapes are rejected,
    /// invalid UTF-8 is rejected, a leading BOM is skipped, nesting beyond 512 is rejected.
    public static var graticule: ConformanceImplementation {
        ConformanceImplementation(name: "graticule") { c in
            do {
                _ = try JSONValueReader.read(c.input)
                return .accepted(output: nil)
            } catch {
                return .rejected(errorClass: "invalid", detail: "\(error)")
            }
        }
    }

    /// Foundation's `JSONSerialization`.
    public static var foundation: ConformanceImplementation {
        ConformanceImplementation(name: "foundation.jsonserialization") { c in
            do {
                _ = try JSONSerialization.jsonObject(with: Data(c.input), options: [.fragmentsAllowed])
                return .accepted(output: nil)
            } catch {
                return .rejected(errorClass: "invalid", detail: "\(error)".prefix(160).description)
            }
        }
    }

    /// Foundation's `JSONDecoder`, decoding any JSON text into a generic value.
    public static var foundationDecoder: ConformanceImplementation {
        ConformanceImplementation(name: "foundation.jsondecoder") { c in
            do {
                _ = try JSONDecoder().decode(AnyJSON.self, from: Data(c.input))
                return .accepted(output: nil)
            } catch {
                return .rejected(errorClass: "invalid", detail: "\(error)".prefix(160).description)
            }
        }
    }
}

/// Any JSON value, as a `Decodable` (what a `JSONDecoder` user writes to read arbitrary JSON).
enum AnyJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: Decoder) throws {
        if var a = try? decoder.unkeyedContainer() {
            var items: [AnyJSON] = []
            while !a.isAtEnd { items.append(try a.decode(AnyJSON.self)) }
            self = .array(items)
            return
        }
        if let o = try? decoder.container(keyedBy: Key.self) {
            var d: [String: AnyJSON] = [:]
            for k in o.allKeys { d[k.stringValue] = try o.decode(AnyJSON.self, forKey: k) }
            self = .object(d)
            return
        }
        let v = try decoder.singleValueContainer()
        if v.decodeNil() { self = .null }
        else if let b = try? v.decode(Bool.self) { self = .bool(b) }
        else if let n = try? v.decode(Double.self) { self = .number(n) }
        else { self = .string(try v.decode(String.self)) }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
