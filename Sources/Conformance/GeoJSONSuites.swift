import JSON
import Foundation
import GeoJSON
import GeoModel

/// Outcome classes shared by the GeoJSON suites: an implementation accepts a document with
/// output `clean` or `warning` (no error, some warnings), or rejects it.
public enum GeoJSONVerdicts {
    /// Graticule's validator (`GeoJSONValidator`).
    public static func graticule(_ c: ConformanceCase) -> Outcome {
        let report = GeoJSONValidator.validate(c.input)
        if let e = report.errors.first {
            return .rejected(errorClass: "invalid", detail: "\(e.rule): \(e.message) (\(e.location), \(e.pathString))")
        }
        return .accepted(output: report.warnings.isEmpty ? "clean" : "warning")
    }

    public static var implementation: ConformanceImplementation { ConformanceImplementation(name: "graticule", run: graticule) }

    static func files(_ dir: String, suffixes: [String]) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let f = e.nextObject() as? String {
            if suffixes.contains(where: { f.hasSuffix($0) }) { out.append(f) }
        }
        return out.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The RFC 7946 section a fixture name points at (type names, then topics).
    static func rule(forName name: String) -> String {
        let n = name.lowercased()
        let topics: [(String, String)] = [
            ("bbox", "RFC7946-5"), ("crs", "RFC7946-4"), ("winding", "RFC7946-3.1.6"), ("rhr", "RFC7946-3.1.6"),
            ("_cw", "RFC7946-3.1.6"), ("ccw", "RFC7946-3.1.6"), ("linearring", "RFC7946-3.1.6"),
            ("first-last", "RFC7946-3.1.6"), ("unclosed", "RFC7946-3.1.6"), ("unique_nodes", "RFC7946-3.1.6"),
            ("changed_semantics", "RFC7946-7.1"), ("duplicate-properties", "RFC8259-4"), ("json", "RFC8259-2"),
            ("featurecollection", "RFC7946-3.3"), ("geometrycollection", "RFC7946-3.1.8"), ("feature", "RFC7946-3.2"),
            ("multipolygon", "RFC7946-3.1.7"), ("polygon", "RFC7946-3.1.6"), ("multilinestring", "RFC7946-3.1.5"),
            ("linestring", "RFC7946-3.1.4"), ("multipoint", "RFC7946-3.1.3"), ("point", "RFC7946-3.1.2"),
            ("coord", "RFC7946-3.1.1"), ("position", "RFC7946-3.1.1"), ("type", "RFC7946-1.4"), ("root", "RFC7946-2"),
        ]
        for (k, r) in topics where n.contains(k) { return r }
        return "RFC7946-3"
    }
}

/// mapbox/geojsonhint fixtures (../shared/corpora/geojsonhint): `good/` must be clean of
/// errors; each `bad/<stem>.geojson` must draw what its `.result` lists: an error when any
/// entry has no `level`, only warnings when all are `"level": "message"`.
///
/// Documented differences: geojsonhint reports single-member and nested
/// GeometryCollections as errors, but RFC 7946 §3.1.8 words both as SHOULD-avoid for
/// producers, so this suite expects a warning (stems `geometrycollection_single`,
/// `geometrycollection_nested`).
public struct GeoJSONHintSuite: ConformanceSuite {
    public let name = "geojsonhint"
    public init() {}

    static let shouldNotMust: Set<String> = ["geometrycollection_single", "geometrycollection_nested"]

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for f in GeoJSONVerdicts.files(directory + "/good", suffixes: [".geojson"]) {
            guard let input = GeoJSONVerdicts.read(directory + "/good/" + f) else { continue }
            cases.append(ConformanceCase(id: "good/" + f, rule: GeoJSONVerdicts.rule(forName: f), input: input,
                                         expected: .accept(output: nil)))
        }
        for f in GeoJSONVerdicts.files(directory + "/bad", suffixes: [".geojson"]) {
            let stem = String(f.dropLast(".geojson".count))
            guard let input = GeoJSONVerdicts.read(directory + "/bad/" + f),
                  let resultBytes = GeoJSONVerdicts.read(directory + "/bad/" + stem + ".result"),
                  let result = try? JSONSerialization.jsonObject(with: Data(resultBytes)) as? [[String: Any]]
            else { continue }
            let expected: Expectation
            if Self.shouldNotMust.contains(stem) {
                expected = .accept(output: "warning")
            } else if result.contains(where: { $0["level"] == nil }) {
                expected = .reject(errorClass: nil)
            } else if !result.isEmpty {
                expected = .accept(output: "warning")
            } else {
                expected = .accept(output: nil)
            }
            cases.append(ConformanceCase(id: "bad/" + stem, rule: GeoJSONVerdicts.rule(forName: stem), input: input,
                                         expected: expected))
        }
        return cases
    }
}

/// geojson/schema fixtures: `valid/<type>/*.json` accepted, `invalid/<type>/*.json` rejected.
public struct GeoJSONSchemaSuite: ConformanceSuite {
    public let name = "geojson-schema"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for (folder, expected) in [("valid", Expectation.accept(output: nil)), ("invalid", .reject(errorClass: nil))] {
            for f in GeoJSONVerdicts.files(directory + "/" + folder, suffixes: [".json"]) {
                guard let input = GeoJSONVerdicts.read(directory + "/" + folder + "/" + f) else { continue }
                let type = f.split(separator: "/").first.map(String.init) ?? ""
                let stem = f.split(separator: "/").last.map(String.init) ?? f
                let rule = stem.contains("bbox") ? "RFC7946-5" : GeoJSONVerdicts.rule(forName: type)
                cases.append(ConformanceCase(id: folder + "/" + f, rule: rule, input: input, expected: expected))
            }
        }
        return cases
    }
}

/// chrieke/geojson-invalid-geometry: `valid/` and `problematic_*/` accepted,
/// `invalid_structure/` rejected, `invalid_geometries/` rejected except wrong winding,
/// which RFC 7946 §3.1.6 says parsers should not reject (expected: a warning).
public struct GeoJSONInvalidGeometrySuite: ConformanceSuite {
    public let name = "geojson-invalid-geometry"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for folder in ["valid", "problematic_geometries", "problematic_structure", "invalid_structure", "invalid_geometries"] {
            for f in GeoJSONVerdicts.files(directory + "/" + folder, suffixes: [".geojson", ".json"]) {
                guard let input = GeoJSONVerdicts.read(directory + "/" + folder + "/" + f) else { continue }
                let expected: Expectation
                switch folder {
                case "invalid_structure": expected = .reject(errorClass: nil)
                case "invalid_geometries":
                    expected = f.contains("not_cw") || f.contains("not_ccw") ? .accept(output: "warning") : .reject(errorClass: nil)
                default: expected = .accept(output: nil)
                }
                cases.append(ConformanceCase(id: folder + "/" + f, rule: GeoJSONVerdicts.rule(forName: f), input: input,
                                             expected: expected))
            }
        }
        return cases
    }
}

/// mapbox/geojson-rewind pairs: the input and the output both read; the output (wound per
/// the right-hand rule) draws no winding warning; and rewinding the input gives the
/// output's geometries exactly (RFC 7946 §3.1.6).
public struct GeoJSONRewindSuite: ConformanceSuite {
    public let name = "geojson-rewind"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for f in GeoJSONVerdicts.files(directory, suffixes: [".input.geojson"]) {
            let stem = String(f.dropLast(".input.geojson".count))
            guard let input = GeoJSONVerdicts.read(directory + "/" + f),
                  let output = GeoJSONVerdicts.read(directory + "/" + stem + ".output.geojson") else { continue }
            // Input and expected output travel together, separated by a NUL byte.
            cases.append(ConformanceCase(id: stem, rule: "RFC7946-3.1.6", input: input + [0] + output,
                                         expected: .accept(output: "rewound-equal")))
        }
        return cases
    }

    public static var graticule: ConformanceImplementation { ConformanceImplementation(name: "graticule") { c in
        guard let split = c.input.firstIndex(of: 0) else { return .rejected(errorClass: "fixture", detail: "no separator") }
        let input = Array(c.input[..<split]), output = Array(c.input[(split + 1)...])
        do {
            let a = try GeoJSONReader.read(input).object.rewound()
            let b = try GeoJSONReader.read(output).object
            let outputReport = GeoJSONValidator.validate(output)
            if outputReport.warnings.contains(where: { $0.rule == "RFC 7946 §3.1.6" }) {
                return .accepted(output: "output-has-winding-warning")
            }
            // Geometries are compared exactly; properties are not, since the expected files
            // were re-serialised by JavaScript, which writes 0.0 as 0.
            return .accepted(output: geometries(a) == geometries(b) ? "rewound-equal" : "rewound-differs")
        } catch {
            return .rejected(errorClass: "invalid", detail: "\(error)")
        }
    }}
}

func geometries(_ o: GeoObject) -> [Geometry?] {
    switch o {
    case .geometry(let g): return [g]
    case .feature(let f): return [f.geometry]
    case .featureCollection(let fs): return fs.map(\.geometry)
    }
}

/// Turf.js fixtures (../shared/corpora/turf): every file is GeoJSON that must be read
/// without error (except `turf-boolean-valid/false/`, whose outcome is only recorded); `turf-boolean-clockwise/{true,false}/` rings must be classified as
/// clockwise or not.
public struct TurfSamplesSuite: ConformanceSuite {
    public let name = "turf"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for f in GeoJSONVerdicts.files(directory, suffixes: [".geojson", ".json"]) {
            guard let input = GeoJSONVerdicts.read(directory + "/" + f) else { continue }
            if f.hasPrefix("turf-boolean-valid/false/") {
                // OGC validity is stricter than RFC 7946; some of these are RFC-invalid too
                // (unclosed rings, 1-D positions, untyped collection members). The outcome is
                // recorded, not judged.
                cases.append(ConformanceCase(id: f, rule: "RFC7946-3", input: input, expected: .either))
            } else if f.hasPrefix("turf-boolean-clockwise/") {
                let clockwise = f.contains("/true/")
                cases.append(ConformanceCase(id: f, rule: "RFC7946-3.1.6", input: input,
                                             expected: .accept(output: clockwise ? "clockwise" : "counterclockwise")))
            } else {
                cases.append(ConformanceCase(id: f, rule: "RFC7946-3", input: input, expected: .accept(output: nil)))
            }
        }
        return cases
    }

    public static var graticule: ConformanceImplementation { ConformanceImplementation(name: "graticule") { c in
        do {
            let doc = try GeoJSONReader.read(c.input)
            if c.id.hasPrefix("turf-boolean-clockwise/") {
                var g: Geometry?
                switch doc.object {
                case .geometry(let x): g = x
                case .feature(let f): g = f.geometry
                case .featureCollection(let fs): g = fs.first?.geometry
                }
                guard let g, g.positionCount >= 3 else { return .accepted(output: "no-ring") }
                return .accepted(output: g.signedArea(part: 0) < 0 ? "clockwise" : "counterclockwise")
            }
            return .accepted(output: nil)
        } catch {
            return .rejected(errorClass: "invalid", detail: "\(error)")
        }
    }}
}

/// nigeltao/parse-number-fxx test data: one case per file; the implementation converts
/// every line's decimal string and counts results whose f64 bits differ from the
/// expected ones. Lines outside the JSON number grammar must be rejected instead.
public struct ParseNumberFxxSuite: ConformanceSuite {
    public let name = "parse-number-fxx"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for sub in ["data", "f64-only"] {
            for f in GeoJSONVerdicts.files(directory + "/" + sub, suffixes: [".txt"]) {
                guard let input = GeoJSONVerdicts.read(directory + "/" + sub + "/" + f) else { continue }
                cases.append(ConformanceCase(id: sub + "/" + f, rule: "RFC8259-6", input: input,
                                             expected: .accept(output: "0 mismatches")))
            }
        }
        return cases
    }

    public static var graticule: ConformanceImplementation { ConformanceImplementation(name: "graticule") { c in
        let text = String(decoding: c.input, as: UTF8.self)
        let f64Column = c.id.hasPrefix("data/") ? 2 : 0
        var mismatches = 0, checked = 0, rejectedNonJSON = 0
        var first: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > f64Column, let bits = UInt64(fields[f64Column], radix: 16), let s = fields.last else { continue }
            let isJSON = isJSONNumber(s.utf8)
            let outcome = try? JSONValueReader.read(Array(s.utf8))
            if !isJSON {
                if outcome == nil { rejectedNonJSON += 1 } else { mismatches += 1; first.append("accepted \(s)") }
                continue
            }
            checked += 1
            let got: Double?
            switch outcome {
            case .double(let d)?: got = d
            case .int(let i)?: got = Double(i)
            case .uint(let u)?: got = Double(u)
            default: got = nil
            }
            let expected = Double(bitPattern: bits)
            if let got {
                if got.bitPattern != bits { mismatches += 1; if first.count < 3 { first.append("\(s)") } }
            } else if !expected.isInfinite {
                // Infinity is the documented out-of-range rejection; anything else is a miss.
                mismatches += 1
                if first.count < 3 { first.append("rejected \(s)") }
            }
        }
        _ = checked
        return .accepted(output: "\(mismatches) mismatches")
    }}

    /// RFC 8259 §6 grammar, checked independently of the tokenizer.
    static func isJSONNumber(_ s: Substring.UTF8View) -> Bool {
        var i = s.startIndex
        func digit(_ i: Substring.UTF8View.Index) -> Bool { i < s.endIndex && s[i] >= 0x30 && s[i] <= 0x39 }
        if i < s.endIndex && s[i] == UInt8(ascii: "-") { i = s.index(after: i) }
        guard digit(i) else { return false }
        if s[i] == UInt8(ascii: "0") { i = s.index(after: i) } else { while digit(i) { i = s.index(after: i) } }
        if i < s.endIndex && s[i] == UInt8(ascii: ".") {
            i = s.index(after: i)
            guard digit(i) else { return false }
            while digit(i) { i = s.index(after: i) }
        }
        if i < s.endIndex && (s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E")) {
            i = s.index(after: i)
            if i < s.endIndex && (s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-")) { i = s.index(after: i) }
            guard digit(i) else { return false }
            while digit(i) { i = s.index(after: i) }
        }
        return i == s.endIndex
    }
}
