import JSON
import GeoModel

/// Reading a feature into `batch` instead of building a `GeoFeature`: the same grammar,
/// checks and error locations as `parseFeature` (it is the same parser, with the members
/// that build values taken over at the feature's depth: `geometry`, `properties`, `id`).
extension _GeoJSONParser {
    /// Reads one element of `features`, starting at absolute offset `start`, as the next
    /// row of `batch`; on an error the batch is left as it was before it.
    /// Features of a collection (`depth` 2) go first through the fast path
    /// (FeatureFastPath.swift), which reads the common shape and leaves anything else here.
    mutating func parseFeatureIntoBatch(depth: Int, start: Int) throws(GeoJSONError) {
        if depth == 2, fastPathApplies, try fastFeatureIntoBatch(start: start) { return }
        let mark = batch.mark
        let saved = columnarDepth
        columnarDepth = depth
        defer { columnarDepth = saved }
        do {
            var p = try parseObject(depth: depth, role: .feature)
            guard p.type == "Feature" else {
                // Anything else fails here, as it does for `parseFeature`.
                guard case .feature(let f) = try finish(&p, role: .feature) else { fatalError("unreachable") }
                batch.append(f, at: start, values: options.keepPropertyValues)
                return
            }
            // The rules `finish` applies to a Feature.
            if p.seen & _Member.geometry.rawValue == 0 {
                try violation("RFC 7946 §3.2", "a Feature must have a \"geometry\" member", at: p.start, path: [])
            }
            if p.seen & _Member.properties.rawValue == 0 {
                try violation("RFC 7946 §3.2", "a Feature must have a \"properties\" member", at: p.start, path: [])
            }
            try forbid([.coordinates, .geometries, .features], seen: p.seen, in: "a Feature", at: p.start)
            if let id = p.id.take() { batch.setPendingID(id) }
            batch.endFeature(at: start, hasProperties: p.properties != nil, bbox: p.bbox, foreignMembers: p.foreign.take())
        } catch {
            batch.rollback(to: mark)
            throw error
        }
    }

    /// Exchanges the positions scratch with the one the batch keeps between reads.
    mutating func exchangeScratchWithBatch() {
        swap(&scratch, &batch.coordinateScratch)
    }

    /// Reads elements of a collection's `features` into the batch (after its `[` when
    /// `first`, else after an element) while they start before the absolute offset
    /// `limit` (and the batch's property table is not too large); `index` counts them. True
    /// when the array's `]` was read. The same steps as
    /// `GeoJSONFeatureReader.step` and `readFeature` take for each element.
    mutating func readFeaturesIntoBatch(first: Bool, index: inout Int, until limit: Int) throws(GeoJSONError) -> Bool {
        var first = first
        while true {
            if first {
                guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
                if b == UInt8(ascii: "]") {
                    tokens.pos += 1
                    return true
                }
                first = false
            } else if try !tokens.afterArrayElement() {
                return true
            }
            _ = try tokens.peekNonWhitespace()
            let start = tokens.offset(tokens.pos)
            if findings != nil { findingPrefix = [.key("features"), .index(index)] }
            tokens.forgetRemembered()
            do {
                try parseFeatureIntoBatch(depth: 2, start: start)
            } catch {
                throw error.prefixed(.index(index)).prefixed(.key("features"))
            }
            index += 1
            if tokens.offset(tokens.pos) >= limit || batch.holdsManyCells { return false }
        }
    }

    /// A feature's geometry object, read (`p`), appended to the batch. A simple geometry's
    /// positions are taken from the scratch, checked as `build` checks them; anything else
    /// (collections, errors, positions copied out) goes through `finish`.
    mutating func appendFeatureGeometry(_ p: inout _ObjectParts) throws(GeoJSONError) {
        guard let type = p.type, let kind = _GeoJSONParser.geometryKind(type), kind != .geometryCollection,
              let pc = p.coordinates, pc.inScratch else {
            guard case .geometry(let g) = try finish(&p, role: .featureGeometry) else { fatalError("unreachable") }
            batch.appendGeometry(g)
            return
        }
        // The rules `finish` applies to a geometry with coordinates.
        try forbid([.geometry, .properties, .features], seen: p.seen, in: "a geometry", at: p.start)
        if p.seen & _Member.geometries.rawValue != 0 {
            try violation("RFC 7946 §7.1", "a \(type) must not have a \"geometries\" member", at: p.start, path: [.key("geometries")])
        }
        if try checkNesting(kind, positionLevel: pc.positionLevel, deepestLevel: pc.deepestLevel,
                            hasValues: !scratch.values.isEmpty, extraValues: pc.extraValues, at: pc.location) {
            batch.appendGeometry(.point, values: [], dims: 2, parts: [], polygons: [])
            return
        }
        let parts: [Int], polygons: [Int]
        switch kind {
        case .point, .multiPoint, .geometryCollection: parts = []; polygons = []
        case .lineString: parts = scratch.values.isEmpty ? [] : _GeoJSONParser.firstPartOnly; polygons = []
        case .multiLineString: parts = scratch.level1; polygons = []
        case .polygon: parts = scratch.level1; polygons = parts.isEmpty ? [] : _GeoJSONParser.firstPartOnly
        case .multiPolygon: parts = scratch.level2; polygons = scratch.level1Parts
        }
        if checksParts(kind) {
            try checkParts(_ShapeView(kind: kind, values: scratch.values, dims: scratch.dims, parts: parts, polygons: polygons),
                           at: pc.location)
        }
        batch.appendGeometry(kind, values: scratch.values, dims: scratch.dims, parts: parts, polygons: polygons)
    }

    /// A feature's string id, its bytes written to the batch.
    mutating func readStringIDIntoBatch() throws(GeoJSONError) {
        let (s, e, escaped) = try tokens.scanString()
        if escaped {
            tokens.decodeEscapes(s, e)
            let decoded = tokens.scratch
            decoded.withUnsafeBufferPointer { batch.setPendingStringID($0) }
        } else {
            batch.setPendingStringID(UnsafeBufferPointer(start: tokens.base + s, count: e - s))
        }
    }

    /// A feature's `properties` object (its `{` at `pos`, at absolute offset `at`), one
    /// column per member name, in the row of the feature being read. Mirrors
    /// `JSONTokenizer.readObject`: the same tokens, checks and errors. Without
    /// `keepPropertyValues`, each value is skipped under the skip contract and its row is
    /// `.unread` (a repeated member is kept beside the columns as null).
    mutating func readPropertiesIntoBatch(depth: Int, at: Int) throws(GeoJSONError) {
        guard depth <= tokens.maxDepth else { throw tokens.error(.depthLimitExceeded(tokens.maxDepth), at: tokens.pos) }
        try tokens.expect(UInt8(ascii: "{"), "'{'")
        if try tokens.peekNonWhitespace() == UInt8(ascii: "}") {
            tokens.pos += 1
            return
        }
        let row = batch.count
        var repeated = false
        var k = 0
        while true {
            let q = try tokens.nextNonWhitespace(expected: "a member name")
            guard q == UInt8(ascii: "\"") else { throw tokens.error(.unexpectedByte(q, expected: "a member name"), at: tokens.pos - 1) }
            tokens.pos -= 1
            let (s, e, escaped) = try tokens.scanString()
            let c: Int
            if escaped {
                tokens.decodeEscapes(s, e)
                let decoded = tokens.scratch
                c = decoded.withUnsafeBufferPointer { batch.column(named: $0, member: k) }
            } else {
                c = batch.column(named: UnsafeBufferPointer(start: tokens.base + s, count: e - s), member: k)
            }
            k += 1
            try tokens.expect(UInt8(ascii: ":"), "':'")
            do {
                if !options.keepPropertyValues {
                    try tokens.skipValue(depth: depth)
                    if batch.isSet(c, row: row) {
                        repeated = true
                        batch.appendRepeated(name: batch.columns[c].name, value: .null)
                    } else {
                        batch.setUnread(c, row: row)
                    }
                } else if batch.isSet(c, row: row) {
                    repeated = true
                    let v = try tokens.readValue(depth: depth)
                    batch.appendRepeated(name: batch.columns[c].name, value: v)
                } else {
                    try readPropertyValue(column: c, row: row, depth: depth)
                }
            } catch {
                throw error.prefixed(.key(batch.columns[c].name))
            }
            let d = try tokens.nextNonWhitespace(expected: "',' or '}'")
            if d == UInt8(ascii: "}") { break }
            guard d == UInt8(ascii: ",") else { throw tokens.error(.unexpectedByte(d, expected: "',' or '}'"), at: tokens.pos - 1) }
        }
        if repeated && findings != nil {
            warn("RFC 8259 §4", "duplicate member names in \"properties\" (kept in order; I-JSON forbids them)", at: at, path: [.key("properties")])
        }
    }

    /// One property value into column `c`, row `row` (as `JSONTokenizer.readValue` reads it;
    /// arrays and objects are validated and kept as their text).
    @inline(__always)
    mutating func readPropertyValue(column c: Int, row: Int, depth: Int) throws(GeoJSONError) {
        guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let startAbs = tokens.offset(tokens.pos)
        switch b {
        case UInt8(ascii: "\""):
            let (s, e, escaped) = try tokens.scanString()
            let raw = UnsafeBufferPointer(start: tokens.base + s - 1, count: e - s + 2)
            if escaped {
                tokens.decodeEscapes(s, e)
                let decoded = tokens.scratch
                decoded.withUnsafeBufferPointer { batch.set(c, row: row, kind: .string, number: 0, decoded: $0, raw: raw) }
            } else {
                batch.set(c, row: row, kind: .string, number: 0, decoded: UnsafeBufferPointer(start: tokens.base + s, count: e - s),
                           raw: raw)
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let value: PropertyValue
            if let (v, e) = NumberParser.quick(tokens.base, start: tokens.pos, end: tokens.end) {
                tokens.pos = e
                value = v
            } else {
                value = try tokens.readNumber().propertyValue
            }
            let s = startAbs - tokens.baseOffset
            let raw = UnsafeBufferPointer(start: tokens.base + s, count: tokens.pos - s)
            switch value {
            case .int(let i): batch.set(c, row: row, kind: .int, number: UInt64(bitPattern: i), decoded: none, raw: raw)
            case .double(let d): batch.set(c, row: row, kind: .double, number: d.bitPattern, decoded: none, raw: raw)
            default: batch.setJSON(c, row: row, raw: raw)
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let v = try tokens.readLiteral()
            let s = startAbs - tokens.baseOffset
            let raw = UnsafeBufferPointer(start: tokens.base + s, count: tokens.pos - s)
            switch v {
            case .bool(let t): batch.set(c, row: row, kind: .bool, number: t ? 1 : 0, decoded: none, raw: raw)
            default: batch.set(c, row: row, kind: .null, number: 0, decoded: none, raw: raw)
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // The value's bytes stay in the window until they are copied.
            let savedMark = tokens.mark
            tokens.mark = min(savedMark ?? startAbs, startAbs)
            defer { tokens.mark = savedMark }
            try tokens.skipValue(depth: depth)
            let s = startAbs - tokens.baseOffset
            batch.setJSON(c, row: row, raw: UnsafeBufferPointer(start: tokens.base + s, count: tokens.pos - s))
        default:
            throw tokens.error(.unexpectedByte(b, expected: "a JSON value"), at: tokens.pos)
        }
    }
}
