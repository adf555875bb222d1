import JSON
import SourceDiff
import GeoJSON
import GeoModel

/// The JSON form of a diff, as MapLibre GL's `GeoJSONSource.updateData` takes it:
///
/// ```json
/// {"removeAll": true, "remove": [1, "a"], "add": [{"type": "Feature", ...}],
///  "update": [{"id": 1, "newGeometry": {...}, "removeAllProperties": true,
///              "removeProperties": ["k"], "addOrUpdateProperties": [{"key": "k", "value": 1}]}]}
/// ```
///
/// Members that say nothing (false, empty) are left out when writing and optional when
/// reading. A diff of snapshots paired by position or content adds `"match": "index"` (or
/// `"geometry+properties"`), which MapLibre ignores and `graticule diff apply` checks.
extension GeoJSONSourceDiff {
    /// The diff as JSON text (UTF-8).
    public func jsonBytes() -> [UInt8] {
        var parts: [String] = []
        if removeAll { parts.append("\"removeAll\":true") }
        if !remove.isEmpty {
            parts.append("\"remove\":[" + remove.map { GeoJSONWriter.value($0.propertyValue) }.joined(separator: ",") + "]")
        }
        if !add.isEmpty {
            // Each feature whole: its bbox and foreign members too, so nothing is lost.
            parts.append("\"add\":[" + add.map { f in
                String(decoding: GeoJSONWriter.encode(GeoJSONDocument(object: .feature(f))), as: UTF8.self)
            }.joined(separator: ",") + "]")
        }
        if !update.isEmpty {
            parts.append("\"update\":[" + update.map { u in
                var m = ["\"id\":" + GeoJSONWriter.value(u.id.propertyValue)]
                if let g = u.newGeometry { m.append("\"newGeometry\":" + GeoJSONWriter.geometry(g)) }
                if u.removeAllProperties { m.append("\"removeAllProperties\":true") }
                if !u.removeProperties.isEmpty {
                    m.append("\"removeProperties\":[" + u.removeProperties.map(GeoJSONWriter.string).joined(separator: ",") + "]")
                }
                if !u.addOrUpdateProperties.isEmpty {
                    m.append("\"addOrUpdateProperties\":[" + u.addOrUpdateProperties.map { k, v in
                        "{\"key\":" + GeoJSONWriter.string(k) + ",\"value\":" + GeoJSONWriter.value(v) + "}"
                    }.joined(separator: ",") + "]")
                }
                return "{" + m.joined(separator: ",") + "}"
            }.joined(separator: ",") + "]")
        }
        if matching != .id { parts.append("\"match\":" + GeoJSONWriter.string(matching.rawValue)) }
        return Array(("{" + parts.joined(separator: ",") + "}").utf8)
    }

    /// Reads a diff from its JSON form.
    ///
    /// - Throws: `SourceDiffError.invalidDiff` naming the member path (`update[3].id`) of
    ///   the first problem, or carrying the JSON reader's error with its line and column.
    public init(json bytes: [UInt8]) throws(SourceDiffError) {
        let root: PropertyValue
        do { root = try JSONValueReader.read(bytes) } catch { throw .invalidDiff("\(error)") }
        guard case .object(let o) = root else { throw .invalidDiff("the diff is not a JSON object") }
        self.init()
        try Self.checkMembers(o, allowed: ["removeAll", "remove", "add", "update", "match"], path: "", what: "a diff")
        for (k, v) in o {
            switch k {
            case "removeAll": removeAll = try Self.bool(v, "removeAll")
            case "remove": remove = try Self.array(v, "remove").enumerated().map { (i, x) throws(SourceDiffError) in try Self.key(x, "remove[\(i)]") }
            case "add":
                add = try Self.array(v, "add").enumerated().map { (i, x) throws(SourceDiffError) in
                    guard case .feature(let f) = try Self.geoJSON(x, "add[\(i)]") else { throw .invalidDiff("add[\(i)] is not a Feature") }
                    return f
                }
            case "update":
                update = try Self.array(v, "update").enumerated().map { (i, x) throws(SourceDiffError) in try Self.update(x, "update[\(i)]") }
            case "match":
                guard case .string(let m) = v, let policy = FeatureMatching(rawValue: m) else {
                    throw .invalidDiff("match must be \"id\", \"index\" or \"geometry+properties\"")
                }
                matching = policy
            default:
                break   // refused by checkMembers
            }
        }
    }

    /// Refuses a member given twice and a member the form does not have: a misspelt
    /// `removes` would otherwise be a diff that silently does nothing.
    static func checkMembers(_ o: PropertyList, allowed: [String], path: String, what: String) throws(SourceDiffError) {
        var seen = Set<String>()
        for k in o.keys {
            let name = path.isEmpty ? k : "\(path).\(k)"
            guard seen.insert(k).inserted else { throw .invalidDiff("\(name) is given twice") }
            guard allowed.contains(k) else {
                throw .invalidDiff("unknown member \(name): \(what) has \(allowed.joined(separator: ", "))")
            }
        }
    }

    static func bool(_ v: PropertyValue, _ path: String) throws(SourceDiffError) -> Bool {
        guard case .bool(let b) = v else { throw .invalidDiff("\(path) must be true or false") }
        return b
    }

    static func array(_ v: PropertyValue, _ path: String) throws(SourceDiffError) -> [PropertyValue] {
        guard case .array(let a) = v else { throw .invalidDiff("\(path) must be an array") }
        return a
    }

    static func key(_ v: PropertyValue, _ path: String) throws(SourceDiffError) -> FeatureKey {
        guard let k = FeatureKey(v) else { throw .invalidDiff("\(path) must be a string or a number") }
        return k
    }

    /// A GeoJSON object inside the diff, read by the GeoJSON reader (so every RFC 7946
    /// rule applies) from its re-encoded text.
    static func geoJSON(_ v: PropertyValue, _ path: String) throws(SourceDiffError) -> GeoObject {
        do { return try GeoJSONReader.read(Array(GeoJSONWriter.value(v).utf8)).object } catch {
            throw .invalidDiff("\(path): \(error.reason)")
        }
    }

    static func update(_ v: PropertyValue, _ path: String) throws(SourceDiffError) -> FeatureUpdate {
        guard case .object(let o) = v else { throw .invalidDiff("\(path) must be an object") }
        try checkMembers(o, allowed: ["id", "newGeometry", "removeAllProperties", "removeProperties", "addOrUpdateProperties"],
                         path: path, what: "an update")
        guard let idValue = o["id"] else { throw .invalidDiff("\(path).id is missing") }
        var u = FeatureUpdate(id: try key(idValue, "\(path).id"))
        for (k, x) in o {
            switch k {
            case "newGeometry":
                guard case .geometry(let g) = try geoJSON(x, "\(path).newGeometry") else {
                    throw .invalidDiff("\(path).newGeometry is not a geometry")
                }
                u.newGeometry = g
            case "removeAllProperties": u.removeAllProperties = try bool(x, "\(path).removeAllProperties")
            case "removeProperties":
                u.removeProperties = try array(x, "\(path).removeProperties").enumerated().map { (i, s) throws(SourceDiffError) in
                    guard case .string(let name) = s else { throw .invalidDiff("\(path).removeProperties[\(i)] must be a string") }
                    return name
                }
            case "addOrUpdateProperties":
                for (i, p) in try array(x, "\(path).addOrUpdateProperties").enumerated() {
                    guard case .object(let kv) = p, case .string(let name)? = kv["key"], let value = kv["value"] else {
                        throw .invalidDiff("\(path).addOrUpdateProperties[\(i)] must be {\"key\": string, \"value\": any}")
                    }
                    u.addOrUpdateProperties.set(name, value)
                }
            default:
                break   // refused by checkMembers
            }
        }
        return u
    }
}
