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

extension _GeoJSONParser {
    /// Whether the fast path may read features: no findings are collected (it records
    /// none), and the nesting limit is far from a feature's depth (the validating path
    /// reports a limit reached).
    @inline(__always)
    var fastPathApplies: Bool { findings == nil && tokens.maxDepth >= 16 && options._fastPath }

    /// Reads the feature whose first byte is at `tokens.pos` (absolute offset `start`) into
    /// the batch. False when it gave the feature up, with the batch and the read position
    /// as they were. Throws only a failed read of the source, which reading again could
    /// not reproduce.
    mutating func fastFeatureIntoBatch(start: Int) throws(GeoJSONError) -> Bool {
        let before = batch.mark
        let savedMark = tokens.mark
        tokens.mark = min(savedMark ?? start, start)
        defer { tokens.mark = savedMark }
        var read = false
        do throws(GeoJSONError) {
            read = try fastFeature()
        } catch {
            if case .readFailed = error.kind { throw error }
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

    /// The name of the next member (after `{` or `,`) and its colon; nil for an escaped
    /// name or anything unexpected.
    @inline(__always)
    mutating func fastMemberName() throws(GeoJSONError) -> _FastMember? {
        guard try tokens.peekNonWhitespace() == UInt8(ascii: "\"") else { return nil }
        let (s, e, escaped) = try tokens.scanString()
        guard !escaped else { return nil }
        let member = _FastMember(tokens.base + s, e - s)
        guard try tokens.peekNonWhitespace() == UInt8(ascii: ":") else { return nil }
        tokens.pos += 1
        return member
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

    /// A Feature's members, each into the batch as the validating path puts it there.
    mutating func fastFeature() throws(GeoJSONError) -> Bool {
        guard try tokens.peekNonWhitespace() == UInt8(ascii: "{") else { return false }
        tokens.pos += 1
        var seen: UInt8 = 0
        while true {
            guard let member = try fastMemberName() else { return false }
            let bit: UInt8
            switch member {
            case .type:
                bit = 1
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "\"") else { return false }
                let (s, e, escaped) = try tokens.scanString()
                // "Feature": "Feat" and "ture" (bytes 3 to 6)
                let raw = UnsafeRawPointer(tokens.base + s)
                guard !escaped, e - s == 7, raw.loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x7461_6546),
                      raw.loadUnaligned(fromByteOffset: 3, as: UInt32.self) == UInt32(littleEndian: 0x6572_7574) else { return false }
            case .id:
                bit = 2
                guard let b = try tokens.peekNonWhitespace() else { return false }
                if b == UInt8(ascii: "\"") {
                    let (s, e, escaped) = try tokens.scanString()
                    guard !escaped else { return false }
                    batch.setPendingStringID(UnsafeBufferPointer(start: tokens.base + s, count: e - s))
                } else if b == UInt8(ascii: "-") || NumberParser.isDigit(b) {
                    batch.setPendingID(try tokens.readNumber().featureID)
                } else {
                    return false
                }
            case .geometry:
                bit = 4
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "{"), try fastGeometry() else { return false }
            case .properties:
                bit = 8
                guard try tokens.peekNonWhitespace() == UInt8(ascii: "{") else { return false }
                if options.skipProperties {
                    try tokens.skipValue(depth: 2)
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
    /// the checks `appendFeatureGeometry` applies.
    mutating func fastGeometry() throws(GeoJSONError) -> Bool {
        tokens.pos += 1
        var kind: Geometry.Kind?
        var haveCoordinates = false
        while true {
            guard let member = try fastMemberName() else { return false }
            switch member {
            case .type:
                guard kind == nil, try tokens.peekNonWhitespace() == UInt8(ascii: "\"") else { return false }
                let (s, e, escaped) = try tokens.scanString()
                guard !escaped, let k = _GeoJSONParser.simpleKind(tokens.base + s, e - s) else { return false }
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
        if level > scratch.deepestLevel { scratch.deepestLevel = level }
        if level == 1 {
            scratch.level1.append(scratch.positionCount)
            scratch.level1Parts.append(scratch.level2.count)
        } else if level == 2 {
            scratch.level2.append(scratch.positionCount)
        }
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
    @inline(__always)
    mutating func fastNumber() throws(GeoJSONError) -> Double? {
        guard let b = try tokens.peekNonWhitespace(), b == UInt8(ascii: "-") || NumberParser.isDigit(b) else { return nil }
        if let (v, e) = NumberParser.quick(tokens.base, start: tokens.pos, end: tokens.end) {
            tokens.pos = e
            switch v {
            case .double(let d): return d
            case .int(let i): return Double(i)
            default: break
            }
        }
        return try tokens.readNumber().double
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
            guard try tokens.peekNonWhitespace() == UInt8(ascii: "\"") else { return false }
            let (s, e, escaped) = try tokens.scanString()
            guard !escaped else { return false }
            let c = batch.column(named: UnsafeBufferPointer(start: tokens.base + s, count: e - s), member: k)
            k += 1
            guard try tokens.peekNonWhitespace() == UInt8(ascii: ":"), !batch.isSet(c, row: row) else { return false }
            tokens.pos += 1
            if options.keepPropertyValues {
                try readPropertyValue(column: c, row: row, depth: 3)
            } else {
                try tokens.skipValue(depth: 3)
                batch.setUnread(c, row: row)
            }
            guard let more = try fastAfterMember() else { return false }
            if !more { return true }
        }
    }
}
