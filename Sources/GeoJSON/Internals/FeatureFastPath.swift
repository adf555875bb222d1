import GeoModel
import JSON

// The fast path of a feature read into a column batch.
//
// It reads the shape nearly every feature of a collection has: the members `type`, `id`,
// `geometry` and `properties` in any order; a geometry of one of the six simple types with
// only `type` and `coordinates`; positions of two or three numbers; property names that
// need no escape. Member names are matched by their length and a word compare, property
// names against the previous feature's member order (`GeoJSONFeatureBatch.column(named:member:)`),
// and it builds no error context: no `_ObjectParts`, no member strings, no remembered
// locations.
//
// On anything else, and on any error, it gives the feature up: the batch is rolled back to
// where it was, the read position goes back to the feature's first byte (the mark keeps
// those bytes in the window), and the validating path (`parseFeatureIntoBatch`) reads the
// feature. So results, errors, findings and their locations are the validating path's,
// byte for byte. It never runs while findings are collected.

/// The members of a Feature and of its geometry that the fast path reads; `geoJSON` is
/// another of RFC 7946's members (`bbox`, `crs`, `geometries`, `features`), which it leaves
/// to the validating path.
enum _FastMember {
    case type, id, geometry, properties, coordinates, geoJSON, other

    /// The member whose name is the `n` unescaped bytes at `p`, by length and word compare.
    @inline(__always)
    init(_ p: UnsafePointer<UInt8>, _ n: Int) {
        let raw = UnsafeRawPointer(p)
        // Safe: every load reads bytes inside the name's n bytes.
        switch n {
        case 2: self = raw.loadUnaligned(as: UInt16.self) == UInt16(littleEndian: 0x6469) ? .id : .other      // "id"
        case 3: self = memcmpEqual(p, ("crs" as StaticString).utf8Start, 3) ? .geoJSON : .other
        case 4:
            let w = raw.loadUnaligned(as: UInt32.self)
            self = w == UInt32(littleEndian: 0x6570_7974) ? .type                                          // "type"
                : w == UInt32(littleEndian: 0x786F_6262) ? .geoJSON : .other                               // "bbox"
        case 8:
            let w = raw.loadUnaligned(as: UInt64.self)
            self = w == UInt64(littleEndian: 0x7972_7465_6D6F_6567) ? .geometry                           // "geometry"
                : w == UInt64(littleEndian: 0x7365_7275_7461_6566) ? .geoJSON : .other                     // "features"
        case 10:
            // "properti" and "es"
            if raw.loadUnaligned(as: UInt64.self) == UInt64(littleEndian: 0x6974_7265_706F_7270)
                && raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self) == UInt16(littleEndian: 0x7365) {
                self = .properties
            } else {
                self = memcmpEqual(p, ("geometries" as StaticString).utf8Start, 10) ? .geoJSON : .other
            }
        case 11:
            // "coordina" and "ates" (bytes 7 to 10)
            self = raw.loadUnaligned(as: UInt64.self) == UInt64(littleEndian: 0x616E_6964_726F_6F63)
                && raw.loadUnaligned(fromByteOffset: 7, as: UInt32.self) == UInt32(littleEndian: 0x7365_7461) ? .coordinates : .other
        default: self = .other
        }
    }
}

/// What the fast path read of a feature for the model sink.
struct _FastModelFeature {
    var id: FeatureID?
    var geometry: Geometry?
    var properties: PropertyList?
}

extension _GeoJSONParser {
    /// Whether the fast path may read features: no findings are collected (it records
    /// none), and the nesting limit is far from a feature's depth (the validating path
    /// reports a limit reached).
    @inline(__always)
    var fastPathApplies: Bool { findings == nil && tokens.maxDepth >= 16 && options._fastPath }

    /// Reads the feature whose first byte is at `tokens.pos` (absolute offset `start`) into
    /// the batch. False when it gave the feature up, with the batch and the read position
    /// as they were. Throws nothing of its own: every error is the validating path's to
    /// find again and report.
    mutating func fastFeatureIntoBatch(start: Int) throws(GeoJSONError) -> Bool {
        let before = batch.mark
        let savedMark = tokens.mark
        tokens.mark = min(savedMark ?? start, start)
        defer { tokens.mark = savedMark }
        var read = false
        do throws(GeoJSONError) {
            read = try fastFeature()
        } catch {
            // Any error, a failed read of the source too: the validating path reads the
            // feature again and reports it (a read that failed consumed nothing, so the
            // source is asked again for the same bytes).
        }
        if read {
            batch.endFeature(at: start, hasProperties: true, bbox: nil, foreignMembers: nil)
            fastPathReads &+= 1
            return true
        }
        batch.rollback(to: before)
        tokens.pos = start - tokens.baseOffset
        return false
    }

    /// Reads the feature whose first byte is at `tokens.pos` (absolute offset `start`) as a
    /// model feature, as `parseFeature` builds it; nil when it gave the feature up, with the
    /// read position where it was. Throws nothing of its own (as `fastFeatureIntoBatch`).
    mutating func fastModelFeature(start: Int) throws(GeoJSONError) -> GeoFeature? {
        let savedMark = tokens.mark
        tokens.mark = min(savedMark ?? start, start)
        defer { tokens.mark = savedMark }
        var parts = _FastModelFeature()
        var read = false
        do throws(GeoJSONError) {
            read = try withUnsafeMutablePointer(to: &parts) { p throws(GeoJSONError) in try fastFeature(model: p) }
        } catch {
            // As in `fastFeatureIntoBatch`: the validating path reads the feature again.
        }
        guard read else {
            tokens.pos = start - tokens.baseOffset
            return nil
        }
        fastPathReads &+= 1
        return GeoFeature(id: parts.id, geometry: parts.geometry, properties: parts.properties, bbox: nil, foreignMembers: nil)
    }

    /// The name of the next member (after `{` or `,`) and its colon; nil for an escaped
    /// name or anything unexpected.
    @inline(__always)
    mutating func fastMemberName() throws(GeoJSONError) -> _FastMember? {
        guard try tokens.peekNonWhitespace() == UInt8(ascii: "\""), let (s, e) = try fastString() else { return nil }
        let member = _FastMember(tokens.base + s, e - s)
        return try fastColon() ? member : nil
    }

    /// Consumes the `:` after a member name; false when something else is there.
    @inline(__always)
    mutating func fastColon() throws(GeoJSONError) -> Bool {
        if tokens.pos < tokens.end && tokens.base[tokens.pos] == UInt8(ascii: ":") {
            tokens.pos &+= 1
            return true
        }
        guard try tokens.peekNonWhitespace() == UInt8(ascii: ":") else { return false }
        tokens.pos &+= 1
        return true
    }

    /// The string whose opening quote is at `pos`, consumed: the window range of its
    /// contents, or nil when it holds escapes. Short plain strings are found by
    /// `quickString`; anything else is scanned by the tokenizer (which validates UTF-8 and
    /// escapes, and reports errors).
    @inline(__always)
    mutating func fastString() throws(GeoJSONError) -> (start: Int, end: Int)? {
        if let r = quickString() { return r }
        let (start, end, escaped) = try tokens.scanString()
        return escaped ? nil : (start, end)
    }

    /// The string whose opening quote is at `pos` when it is printable ASCII ending within
    /// the next 16 bytes (two word tests), consumed; nil otherwise, with nothing consumed.
    @inline(__always)
    mutating func quickString() -> (start: Int, end: Int)? {
        let s = tokens.pos &+ 1
        guard s &+ 16 <= tokens.end else { return nil }
        // Safe: the 16 bytes from `s` lie in the window.
        let p = tokens.base + s
        var m = _ByteMasks.stringStop(NumberParser.load8(p))
        var i = s
        if m == 0 {
            m = _ByteMasks.stringStop(NumberParser.load8(p + 8))
            i &+= 8
        }
        guard m != 0 else { return nil }
        i &+= m.trailingZeroBitCount >> 3
        guard tokens.base[i] == UInt8(ascii: "\"") else { return nil }
        tokens.pos = i &+ 1
        return (s, i)
    }

    /// After a member's value: true for `,` (another member follows), false for `}`, nil
    /// for anything else.
    @inline(__always)
    mutating func fastAfterMember() throws(GeoJSONError) -> Bool? {
        let b = try tokens.peekNonWhitespace()
        tokens.pos += 1
        if b == UInt8(ascii: ",") { return true }
        if b == UInt8(ascii: "}") { return false }
        return nil
    }

    /// A Feature's members, each into its sink as the validating path puts it there: into
    /// the batch, or (`model` non-nil) into the model feature's parts.
    mutating func fastFeature(model: UnsafeMutablePointer<_FastModelFeature>? = nil) throws(GeoJSONError) -> Bool {
        guard try tokens.peekNonWhitespace() == UInt8(ascii: "{") else { return false }
        tokens.pos += 1
        var seen: UInt8 = 0
        while true {
            guard let member = try fastMemberName() else { return false }
            let bit: UInt8
            switch member {
            case .type:
                bit = 1
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "\""), let (s, e) = try fastString() else { return false }
                // "Feature": "Feat" and "ture" (bytes 3 to 6)
                let raw = UnsafeRawPointer(tokens.base + s)
                guard e - s == 7, raw.loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x7461_6546),
                      raw.loadUnaligned(fromByteOffset: 3, as: UInt32.self) == UInt32(littleEndian: 0x6572_7574) else { return false }
            case .id:
                bit = 2
                guard let b = try tokens.peekNonWhitespace() else { return false }
                if b == UInt8(ascii: "\"") {
                    guard let (s, e) = try fastString() else { return false }
                    let utf8 = UnsafeBufferPointer(start: tokens.base + s, count: e - s)
                    if let model {
                        model.pointee.id = .string(String(decoding: utf8, as: UTF8.self))
                    } else {
                        batch.setPendingStringID(utf8)
                    }
                } else if b == UInt8(ascii: "-") || NumberParser.isDigit(b) {
                    let id: FeatureID
                    if let (v, e) = NumberParser.quick(tokens.base, start: tokens.pos, end: tokens.end) {
                        tokens.pos = e
                        switch v {
                        case .int(let i): id = .int(i)
                        case .double(let d): id = .double(d)
                        default: return false
                        }
                    } else {
                        id = try tokens.readNumber().featureID
                    }
                    if let model { model.pointee.id = id } else { batch.setPendingID(id) }
                } else {
                    return false
                }
            case .geometry:
                bit = 4
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "{"), try fastGeometry(model: model) else { return false }
            case .properties:
                bit = 8
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "{") else { return false }
                if options.skipProperties {
                    try tokens.skipValue(depth: 2)
                    model?.pointee.properties = PropertyList()
                } else if let model {
                    model.pointee.properties = try tokens.readObject(depth: 3)
                } else if try !fastProperties() {
                    return false
                }
            case .coordinates, .geoJSON, .other:
                // A foreign member: skipped when properties are (as the validating path
                // does); otherwise kept, which the validating path does.
                guard member == .other, options.skipProperties else { return false }
                bit = 0
                try tokens.skipValue(depth: 2)
            }
            guard seen & bit == 0 else { return false }
            seen |= bit
            guard let more = try fastAfterMember() else { return false }
            if !more { break }
        }
        // `type`, `geometry` and `properties` present (a missing one is the validating
        // path's to report or tolerate).
        return seen & 13 == 13
    }

    /// A geometry object of a simple type (its `{` at `pos`), appended to the batch with
    /// the checks `appendFeatureGeometry` applies, or built (`model`) as `build` builds it.
    mutating func fastGeometry(model: UnsafeMutablePointer<_FastModelFeature>?) throws(GeoJSONError) -> Bool {
        tokens.pos += 1
        var kind: Geometry.Kind?
        var haveCoordinates = false
        while true {
            guard let member = try fastMemberName() else { return false }
            switch member {
            case .type:
                guard kind == nil, try tokens.peekNonWhitespace() == UInt8(ascii: "\""), let (s, e) = try fastString(),
                      let k = _GeoJSONParser.simpleKind(tokens.base + s, e - s) else { return false }
                kind = k
            case .coordinates:
                guard !haveCoordinates, try tokens.peekNonWhitespace() == UInt8(ascii: "[") else { return false }
                scratch.reset()
                guard try fastCoordinateArray(level: 0) else { return false }
                haveCoordinates = true
            default:
                return false
            }
            guard let more = try fastAfterMember() else { return false }
            if !more { break }
        }
        guard let kind, haveCoordinates, scratch.positionLevel == _GeoJSONParser.positionLevel(of: kind),
              !scratch.extraValues else { return false }
        if let model {
            // Its errors make the validating path read the feature again and report them.
            var pending = copyScratch(at: 0)
            model.pointee.geometry = try build(kind, &pending)
            return true
        }
        let parts: [Int], polygons: [Int]
        switch kind {
        case .point, .multiPoint, .geometryCollection: parts = []; polygons = []
        case .lineString: parts = _GeoJSONParser.firstPartOnly; polygons = []
        case .multiLineString: parts = scratch.level1; polygons = []
        case .polygon: parts = scratch.level1; polygons = _GeoJSONParser.firstPartOnly
        case .multiPolygon: parts = scratch.level2; polygons = scratch.level1Parts
        }
        if checksParts(kind) {
            // Its errors make the validating path read the feature again and report them.
            try checkParts(_ShapeView(kind: kind, values: scratch.values, dims: scratch.dims, parts: parts, polygons: polygons),
                           at: 0)
        }
        batch.appendGeometry(kind, values: scratch.values, dims: scratch.dims, parts: parts, polygons: polygons)
        return true
    }

    /// The geometry kind of a `type` value's bytes: the six types with coordinates.
    @inline(__always)
    static func simpleKind(_ p: UnsafePointer<UInt8>, _ n: Int) -> Geometry.Kind? {
        @inline(__always) func eq(_ lit: StaticString) -> Bool { memcmpEqual(p, lit.utf8Start, n) }
        switch n {
        case 5: return eq("Point") ? .point : nil
        case 7: return eq("Polygon") ? .polygon : nil
        case 10: return eq("LineString") ? .lineString : eq("MultiPoint") ? .multiPoint : nil
        case 12: return eq("MultiPolygon") ? .multiPolygon : nil
        case 15: return eq("MultiLineString") ? .multiLineString : nil
        default: return nil
        }
    }

    /// The array depth at which a geometry of `kind` holds its positions.
    @inline(__always)
    static func positionLevel(of kind: Geometry.Kind) -> Int {
        switch kind {
        case .point: return 0
        case .multiPoint, .lineString: return 1
        case .multiLineString, .polygon: return 2
        case .multiPolygon, .geometryCollection: return 3
        }
    }

    /// A `coordinates` array (its `[` at `pos`) at `level` into the scratch, as
    /// `parseCoordinateArray` reads it; false at an empty array, a position that is not two
    /// or three numbers, positions at two depths, or nesting deeper than a MultiPolygon's.
    mutating func fastCoordinateArray(level: Int) throws(GeoJSONError) -> Bool {
        tokens.pos += 1
        scratch.beginArray(level: level)
        guard let b = try tokens.peekNonWhitespace() else { return false }
        if b == UInt8(ascii: "[") {
            guard level < 3 else { return false }
            repeat {
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "["), try fastCoordinateArray(level: level + 1) else { return false }
            } while try tokens.afterArrayElement()
            return true
        }
        if scratch.positionLevel != level {
            guard scratch.positionLevel == -1 else { return false }
            scratch.positionLevel = level
        }
        guard let x = try fastNumber() else { return false }
        guard try tokens.peekNonWhitespace() == UInt8(ascii: ",") else { return false }
        tokens.pos += 1
        guard let y = try fastNumber() else { return false }
        scratch.values.append(x)
        scratch.values.append(y)
        let c = try tokens.peekNonWhitespace()
        tokens.pos += 1
        if c == UInt8(ascii: "]") {
            if scratch.dims == 3 { scratch.values.append(.nan) }
            return true
        }
        guard c == UInt8(ascii: ","), let z = try fastNumber(),
              try tokens.peekNonWhitespace() == UInt8(ascii: "]") else { return false }
        tokens.pos += 1
        if scratch.dims == 2 {
            scratch.upgradeTo3D()
            scratch.values[scratch.values.count - 1] = z
        } else {
            scratch.values.append(z)
        }
        return true
    }

    /// The number at the next token as a double; nil when the next token is not a number.
    ///
    /// Short numbers (15 digits or fewer, no exponent) take `NumberParser.quickDouble`,
    /// others the tokenizer's full scan. Which one a number tries first follows the last
    /// number's length (`longCoordinates`): coordinates of one file are mostly written
    /// alike, and the quick parse of a long number fails only after reading its digits.
    @inline(__always)
    mutating func fastNumber() throws(GeoJSONError) -> Double? {
        guard let b = try tokens.peekNonWhitespace(), b == UInt8(ascii: "-") || NumberParser.isDigit(b) else { return nil }
        if !longCoordinates, let (v, e) = NumberParser.quickDouble(tokens.base, start: tokens.pos, end: tokens.end) {
            tokens.pos = e
            return v
        }
        let start = tokens.pos
        let v = try tokens.readNumber().double
        longCoordinates = tokens.pos &- start > 15
        return v
    }

    /// A feature's `properties` object (its `{` at `pos`), one column per name, as
    /// `readPropertiesIntoBatch` fills them; false at an escaped name or a name the
    /// feature already used.
    mutating func fastProperties() throws(GeoJSONError) -> Bool {
        tokens.pos += 1
        if try tokens.peekNonWhitespace() == UInt8(ascii: "}") {
            tokens.pos += 1
            return true
        }
        let row = batch.count
        var k = 0
        while true {
            guard try tokens.peekNonWhitespace() == UInt8(ascii: "\""), let (s, e) = try fastString() else { return false }
            let c = batch.column(named: UnsafeBufferPointer(start: tokens.base + s, count: e - s), member: k)
            k += 1
            guard try fastColon(), !batch.isSet(c, row: row) else { return false }
            if options.keepPropertyValues {
                try fastPropertyValue(column: c, row: row)
            } else {
                try tokens.skipValue(depth: 3)
                batch.setUnread(c, row: row)
            }
            guard let more = try fastAfterMember() else { return false }
            if !more { return true }
        }
    }

    /// One property value into column `c`, row `row`: short plain strings and short
    /// numbers here, anything else as `readPropertyValue` reads it (the same values).
    @inline(__always)
    mutating func fastPropertyValue(column c: Int, row: Int) throws(GeoJSONError) {
        guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if b == UInt8(ascii: "\""), let (s, e) = quickString() {
            batch.set(c, row: row, kind: .string, number: 0, decoded: UnsafeBufferPointer(start: tokens.base + s, count: e - s),
                      raw: UnsafeBufferPointer(start: tokens.base + s - 1, count: e - s + 2))
            return
        }
        if b == UInt8(ascii: "-") || NumberParser.isDigit(b),
           let (v, e) = NumberParser.quick(tokens.base, start: tokens.pos, end: tokens.end) {
            let raw = UnsafeBufferPointer(start: tokens.base + tokens.pos, count: e - tokens.pos)
            tokens.pos = e
            switch v {
            case .int(let i): batch.set(c, row: row, kind: .int, number: UInt64(bitPattern: i), decoded: none, raw: raw)
            case .double(let d): batch.set(c, row: row, kind: .double, number: d.bitPattern, decoded: none, raw: raw)
            default: batch.setJSON(c, row: row, raw: raw)
            }
            return
        }
        try readPropertyValue(column: c, row: row, depth: 3)
    }
}
