import JSON
import Foundation
import GeoJSON
import GeoModel

/// Shard files read as input: a file another machine wrote, or anyone edited, is checked
/// against the schema and against itself before its figures are merged.
extension DatasetProfile.Shard {
    /// The members each object of a shard file has (nil: a map whose keys are data).
    static let members: [String: Set<String>] = [
        "": ["schema", "dataset", "index", "count", "zoom", "keep", "format", "metadata", "seconds", "peakResident",
             "features", "byType", "vertices", "properties", "keyNames", "keyTotals", "otherKeys", "coverage",
             "coverageSkipped", "tiles", "tileSizes", "rawBytes", "layers", "tileContents", "errors", "warnings", "shown", "sequence"],
        "dataset": ["name", "bytes", "fingerprint"],
        "layers[]": ["name", "features", "tiles"],
        "sequence": ["firstStart", "stoppedAt", "elements", "problemCount", "problems"],
        "sequence.problems[]": ["index", "error"],
    ]

    enum Kind { case int, uint, number, string }

    /// The type of every scalar of a shard file, by its place in the schema (`.*` a map's
    /// values, `[]` an array's items).
    static let kinds: [String: Kind] = {
        var k: [String: Kind] = [:]
        for name in ["index", "count", "zoom", "keep", "peakResident", "features", "otherKeys", "coverageSkipped", "tiles",
                     "errors", "warnings", "dataset.bytes", "layers[].features", "layers[].tiles", "sequence.firstStart",
                     "sequence.stoppedAt", "sequence.elements", "sequence.problemCount", "sequence.problems[].index",
                     "vertices[]", "properties[]", "keyTotals[]", "byType.*", "rawBytes.*", "tileContents.*"] { k[name] = .int }
        for name in ["coverage[][]", "tileSizes.*[][]"] { k[name] = .uint }
        k["seconds"] = .number
        for name in ["schema", "format", "dataset.name", "dataset.fingerprint", "layers[].name", "sequence.problems[].error",
                     "keyNames[]", "shown[]", "metadata[][]"] { k[name] = .string }
        return k
    }()

    /// Reads a shard file: JSON (errors located by byte, line and column), no member given
    /// twice anywhere, no member the schema does not have, each member of its type, and the
    /// figures consistent (`validate()`).
    ///
    /// - Throws: `DatasetProfile.Failure` naming the file and the field at fault.
    public static func read(_ bytes: [UInt8], file: String) throws(DatasetProfile.Failure) -> Self {
        func fail(_ why: String) -> DatasetProfile.Failure { DatasetProfile.Failure(description: "\(file): \(why)") }
        let tree: PropertyValue
        do { tree = try JSONValueReader.read(bytes, maxDepth: 16) } catch { throw fail("not valid JSON: \(error)") }
        guard case .object = tree else { throw fail("not a profile shard file (a JSON object is expected)") }
        try checkMembers(tree, at: "", schemaPath: "", fail)
        let shard: Self
        do {
            shard = try JSONDecoder().decode(Self.self, from: Data(bytes))
        } catch let DecodingError.typeMismatch(type, context) {
            throw fail("field '\(fieldName(context.codingPath))' must be \(typeName(type))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw fail("field '\(fieldName(context.codingPath))' must be \(typeName(type)), not null")
        } catch let DecodingError.keyNotFound(key, context) {
            throw fail("field '\(fieldName(context.codingPath + [key]))' is missing")
        } catch let DecodingError.dataCorrupted(context) {
            throw fail("field '\(fieldName(context.codingPath))': \(context.debugDescription)")
        } catch {
            throw fail("not a profile shard file (\(error))")
        }
        guard shard.schema == currentSchema else {
            throw fail("schema \(shard.schema), expected \(currentSchema)")
        }
        do { try shard.validate() } catch { throw fail(error.description) }
        return shard
    }

    static func fieldName(_ path: [any CodingKey]) -> String {
        var out = ""
        for k in path {
            if let i = k.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + k.stringValue }
        }
        return out.isEmpty ? "(top level)" : out
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "an integer"
        case is UInt64.Type: return "a non-negative integer"
        case is Double.Type: return "a number"
        case is String.Type: return "a string"
        default: return "\(type)"
        }
    }

    /// Refuses a member given twice in any object, and a member the schema does not have.
    static func checkMembers(_ v: PropertyValue, at path: String, schemaPath: String,
                             _ fail: (String) -> DatasetProfile.Failure) throws(DatasetProfile.Failure) {
        switch v {
        case .object(let list):
            var seen = Set<String>()
            let allowed = members[schemaPath]
            for (k, child) in list {
                let name = path.isEmpty ? k : path + "." + k
                guard seen.insert(k).inserted else { throw fail("field '\(name)' is given twice") }
                // Objects named in `members` have a fixed set of members; the others
                // (byType, tileSizes, rawBytes, tileContents) are maps from data keys.
                if let allowed, !allowed.contains(k) { throw fail("unknown field '\(name)'") }
                let childSchema = allowed == nil ? schemaPath + ".*" : (schemaPath.isEmpty ? k : schemaPath + "." + k)
                try checkMembers(child, at: name, schemaPath: childSchema, fail)
            }
        case .array(let items):
            for (i, child) in items.enumerated() {
                try checkMembers(child, at: "\(path)[\(i)]", schemaPath: schemaPath + "[]", fail)
            }
        default:
            guard let kind = kinds[schemaPath] else { return }
            let ok: Bool
            switch (kind, v) {
            case (.int, .int), (.uint, .uint), (.number, .int), (.number, .uint), (.number, .double), (.string, .string): ok = true
            case (.uint, .int(let i)): ok = i >= 0
            default: ok = false
            }
            guard ok else {
                let what = ["an integer", "a non-negative integer", "a number", "a string"][[Kind.int, .uint, .number, .string].firstIndex(of: kind)!]
                throw fail("field '\(path)' must be \(what)\(kind == .int ? " (within ±2^63)" : ""), not \(describe(v))")
            }
        }
    }

    static func describe(_ v: PropertyValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .int(let i): return "\(i)"
        case .uint(let u): return "\(u) (beyond 2^63)"
        case .double(let d): return "\(d)"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The most shards a dataset is cut into (as `profile --shard` accepts).
    public static let maxCount = 1_000_000

    /// Checks the figures against each other: counts are not negative, per-type counts sum
    /// to the features, histograms hold as many values as they should, zooms are 0–30 (the
    /// coverage grid's 0–16) and written as plain numbers, coverage cells lie in the grid,
    /// the shard's index and count fit the dataset, and a sequence shard's positions lie in
    /// the file.
    ///
    /// - Throws: `DatasetProfile.Failure` naming the field.
    public func validate() throws(DatasetProfile.Failure) {
        func fail(_ field: String, _ why: String) -> DatasetProfile.Failure {
            DatasetProfile.Failure(description: "field '\(field)' \(why)")
        }
        func nonNegative(_ v: Int, _ field: String) throws(DatasetProfile.Failure) {
            guard v >= 0 else { throw fail(field, "is \(v); it counts something, so it cannot be negative") }
        }
        guard count >= 1, count <= Self.maxCount, count <= max(1, dataset.bytes) else {
            throw fail("count", "is \(count); a dataset of \(dataset.bytes) bytes is cut into 1 to \(min(Self.maxCount, max(1, dataset.bytes))) shards")
        }
        guard (0..<count).contains(index) else { throw fail("index", "is \(index), not within 0..<\(count)") }
        try nonNegative(dataset.bytes, "dataset.bytes")
        guard (0...16).contains(zoom) else { throw fail("zoom", "is \(zoom), not within 0-16 (the coverage grid's zooms)") }
        try nonNegative(keep, "keep")
        guard seconds.isFinite, seconds >= 0 else { throw fail("seconds", "is \(seconds), not a duration") }
        try nonNegative(peakResident, "peakResident")
        for (name, v) in [("features", features), ("otherKeys", otherKeys), ("coverageSkipped", coverageSkipped),
                          ("tiles", tiles), ("errors", errors), ("warnings", warnings)] {
            try nonNegative(v, name)
        }
        var typed = 0
        for (type, n) in byType.sorted(by: { $0.key < $1.key }) {
            try nonNegative(n, "byType.\(type)")
            typed = typed.saturatingAdd(n)
        }
        guard typed == features else { throw fail("byType", "sums to \(typed), but features is \(features)") }
        for (name, h, expected) in [("vertices", vertices, features - (byType["null"] ?? 0)), ("properties", properties, features)] {
            guard h.count == 68, h.allSatisfy({ $0 >= 0 }) else {
                throw fail(name, "must be 65 non-negative bucket counts, then count, total and max")
            }
            guard h[65] == expected else { throw fail(name, "counts \(h[65]) values, but \(expected) features have them") }
        }
        guard keyNames.count == keyTotals.count else { throw fail("keyTotals", "has \(keyTotals.count) totals for \(keyNames.count) keyNames") }
        guard Set(keyNames).count == keyNames.count else { throw fail("keyNames", "names a key twice") }
        guard keyNames.count <= DatasetProfile.maxKeys else { throw fail("keyNames", "holds more than \(DatasetProfile.maxKeys) keys") }
        for (i, t) in keyTotals.enumerated() { try nonNegative(t, "keyTotals[\(i)]") }
        let side = UInt64(1) << UInt64(zoom)
        for (i, cell) in coverage.enumerated() {
            guard cell.count == 2 else { throw fail("coverage[\(i)]", "must be [cell, features]") }
            guard cell[0] >> 32 < side, cell[0] & 0xFFFF_FFFF < side else {
                throw fail("coverage[\(i)]", "names a cell outside the z\(zoom) grid")
            }
            guard cell[1] <= UInt64(Int.max) else { throw fail("coverage[\(i)]", "counts more features than an integer holds") }
        }
        var sized = 0
        for (z, pairs) in tileSizes.sorted(by: { $0.key < $1.key }) {
            try Self.checkZoom(z, "tileSizes")
            guard let sizes = SizeCounts(pairs: pairs) else {
                throw fail("tileSizes.\(z)", "must be [size, tiles] pairs with sizes below 2^32, each once, and positive counts")
            }
            sized = sized.saturatingAdd(sizes.count)
        }
        guard sized <= tiles else { throw fail("tileSizes", "counts \(sized) tiles, but tiles is \(tiles)") }
        for (z, n) in rawBytes.sorted(by: { $0.key < $1.key }) {
            try Self.checkZoom(z, "rawBytes")
            try nonNegative(n, "rawBytes.\(z)")
        }
        var contents = 0
        for (k, n) in (tileContents ?? [:]).sorted(by: { $0.key < $1.key }) {
            try nonNegative(n, "tileContents.\(k)")
            contents = contents.saturatingAdd(n)
        }
        guard contents <= tiles else { throw fail("tileContents", "counts \(contents) tiles, but tiles is \(tiles)") }
        guard layers.count <= DatasetProfile.maxLayers else { throw fail("layers", "holds more than \(DatasetProfile.maxLayers) layers") }
        var layerNames = Set<String>()
        for (i, l) in layers.enumerated() {
            guard layerNames.insert(l.name).inserted else { throw fail("layers[\(i)].name", "repeats layer \(l.name)") }
            try nonNegative(l.features, "layers[\(i)].features")
            try nonNegative(l.tiles, "layers[\(i)].tiles")
            guard l.tiles <= tiles else { throw fail("layers[\(i)].tiles", "is \(l.tiles), more than the \(tiles) tiles") }
            guard l.features <= features else { throw fail("layers[\(i)].features", "is \(l.features), more than the \(features) features") }
        }
        for (i, pair) in metadata.enumerated() where pair.count != 2 { throw fail("metadata[\(i)]", "must be [name, value]") }
        guard shown.count <= keep else { throw fail("shown", "holds \(shown.count) findings, more than keep (\(keep))") }
        guard shown.count <= errors.saturatingAdd(warnings) else {
            throw fail("shown", "holds \(shown.count) findings, more than errors and warnings count")
        }
        if let q = sequence {
            guard q.firstStart >= 0, q.firstStart <= q.stoppedAt, q.stoppedAt <= dataset.bytes else {
                throw fail("sequence", "positions \(q.firstStart)–\(q.stoppedAt) do not lie within the \(dataset.bytes)-byte file in order")
            }
            try nonNegative(q.elements, "sequence.elements")
            guard q.problemCount >= q.problems.count, q.problemCount == errors, warnings == 0 else {
                throw fail("sequence.problemCount", "is \(q.problemCount), which must equal errors (\(errors)) and cover the \(q.problems.count) problems listed")
            }
            for (i, p) in q.problems.enumerated() where p.index < 0 || p.index >= max(q.elements, 1) {
                throw fail("sequence.problems[\(i)].index", "is \(p.index), not one of the shard's \(q.elements) elements")
            }
        }
    }

    /// A zoom written as a map key: a plain decimal number 0–30 ("07", "-1", "99" are not).
    static func checkZoom(_ z: String, _ field: String) throws(DatasetProfile.Failure) {
        guard let v = Int(z), (0...30).contains(v), String(v) == z else {
            throw DatasetProfile.Failure(description: "field '\(field)' has zoom \"\(z)\", not a zoom 0-30")
        }
    }
}
