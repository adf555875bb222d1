import JSON
import GeoModel

/// An archive's JSON metadata (PMTiles v3 §5; the `json` row of an MBTiles `metadata`
/// table), read and checked: a JSON object in UTF-8 (PM18), with `vector_layers` as
/// TileJSON 3.0 §3.3 defines it when the tiles are vector tiles (PM19), and `name`,
/// `description`, `attribution`, `type`, `version` of the forms the specification gives
/// (PM20).
public struct ArchiveMetadata: Equatable, Sendable {
    /// A layer of `vector_layers`: its id and the names of its fields.
    public struct VectorLayer: Equatable, Sendable {
        public var id: String
        public var fields: [String]
    }

    /// A broken rule: its id (`PM18`) and what is wrong, located in the metadata text.
    public struct Problem: Equatable, Sendable {
        public var rule: String
        public var message: String
        /// Byte offset in the metadata text (after decompression), when one applies.
        public var offset: Int?
    }

    public var name: String?
    public var description: String?
    public var attribution: String?
    public var type: String?
    public var version: String?
    /// `vector_layers`, nil when absent or not an array.
    public var vectorLayers: [VectorLayer]?
    /// Every member name of the object, in order.
    public var keys: [String] = []
    public var problems: [Problem] = []

    /// Reads `text` (already decompressed). `vector` says whether the tiles are vector
    /// tiles (MVT), for which `vector_layers` is required.
    ///
    /// - Complexity: O(n); builds the JSON tree.
    public init(text: [UInt8], vector: Bool) {
        func problem(_ rule: String, _ m: String, _ o: Int? = nil) { problems.append(Problem(rule: rule, message: m, offset: o)) }
        guard !text.isEmpty else {
            problem("PM18", "the metadata is empty (it must be a JSON object)")
            return
        }
        let value: PropertyValue
        do { value = try JSONValueReader.read(text) } catch {
            problem("PM18", "the metadata is not JSON: \(error.reason) at line \(error.location.line), column \(error.location.column)"
                    + ", in \(error.pathString)", error.location.offset)
            return
        }
        guard case .object(let object) = value else {
            problem("PM18", "the metadata is JSON but not an object (it is \(Self.kind(value)))")
            return
        }
        keys = object.keys
        func string(_ key: String) -> String? {
            guard let v = object[key] else { return nil }
            guard case .string(let s) = v else {
                problem("PM20", "`\(key)` is \(Self.kind(v)), not a string")
                return nil
            }
            return s
        }
        name = string("name")
        description = string("description")
        attribution = string("attribution")
        type = string("type")
        version = string("version")
        if let type, type != "overlay" && type != "baselayer" {
            problem("PM20", "`type` is \"\(type)\", neither \"overlay\" nor \"baselayer\"")
        }
        if let version, !Self.isSemanticVersion(version) {
            problem("PM20", "`version` \"\(version)\" is not a Semantic Versioning 2.0.0 version")
        }
        if let layers = object["vector_layers"] {
            vectorLayers = readLayers(layers, problem: { problem("PM19", $0) })
        } else if vector {
            problem("PM19", "the tiles are vector tiles, but the metadata has no `vector_layers`")
        }
    }

    private func readLayers(_ v: PropertyValue, problem: (String) -> Void) -> [VectorLayer]? {
        guard case .array(let items) = v else {
            problem("`vector_layers` is \(Self.kind(v)), not an array")
            return nil
        }
        var out: [VectorLayer] = []
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item else {
                problem("`vector_layers[\(i)]` is \(Self.kind(item)), not an object")
                continue
            }
            guard case .string(let id)? = o["id"] else {
                problem("`vector_layers[\(i)]` has no string `id`")
                continue
            }
            var fields: [String] = []
            switch o["fields"] {
            case .object(let f)?:
                fields = f.keys
            case let other?:
                problem("`vector_layers[\(i)].fields` (layer \"\(id)\") is \(Self.kind(other)), not an object")
            case nil:
                problem("`vector_layers[\(i)]` (layer \"\(id)\") has no `fields` object")
            }
            out.append(VectorLayer(id: id, fields: fields))
        }
        return out
    }

    static func kind(_ v: PropertyValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH without leading zeros, then an optional
    /// `-prerelease` and `+build` of dot-separated identifiers `[0-9A-Za-z-]+` (numeric
    /// prerelease identifiers without leading zeros).
    public static func isSemanticVersion(_ s: String) -> Bool {
        var rest = Substring(s)
        var build: Substring?
        if let plus = rest.firstIndex(of: "+") { build = rest[rest.index(after: plus)...]; rest = rest[..<plus] }
        var pre: Substring?
        if let dash = rest.firstIndex(of: "-") { pre = rest[rest.index(after: dash)...]; rest = rest[..<dash] }
        func numeric(_ p: Substring) -> Bool {
            !p.isEmpty && p.allSatisfy { $0.isASCII && $0.isNumber } && (p == "0" || p.first != "0")
        }
        func identifiers(_ p: Substring, numericRule: Bool) -> Bool {
            p.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { id in
                guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return false }
                return !numericRule || !id.allSatisfy(\.isNumber) || numeric(id)
            }
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3, core.allSatisfy(numeric) else { return false }
        if let pre, !identifiers(pre, numericRule: true) { return false }
        if let build, !identifiers(build, numericRule: false) { return false }
        return true
    }
}
