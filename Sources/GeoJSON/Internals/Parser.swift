import JSON
import GeoModel

/// Positions being read from a `coordinates` member, before the object's `type` (which may
/// come later, RFC 7946 allows any member order) says how to cut them.
struct _CoordinateScratch {
    var values: [Double] = []
    var dims = 2
    /// Position count at the start of each array one level below the top.
    var level1: [Int] = []
    /// Number of level-2 arrays seen before each level-1 array.
    var level1Parts: [Int] = []
    /// Position count at the start of each array two levels below the top.
    var level2: [Int] = []
    /// The array depth at which positions sit (0: the member itself is a position); -1
    /// before the first position.
    var positionLevel = -1
    var deepestLevel = 0
    /// Bit per level at which an empty array was seen.
    var emptyLevels: UInt8 = 0
    var extraValues = false

    /// Empties the scratch, keeping its buffers. (An array already empty is left alone:
    /// `removeAll(keepingCapacity:)` costs a uniqueness check and a call even then.)
    @inline(__always)
    mutating func reset() {
        emptyLevels = 0
        if !values.isEmpty { values.removeAll(keepingCapacity: true) }
        if !level1.isEmpty { level1.removeAll(keepingCapacity: true) }
        if !level1Parts.isEmpty { level1Parts.removeAll(keepingCapacity: true) }
        if !level2.isEmpty { level2.removeAll(keepingCapacity: true) }
        dims = 2
        positionLevel = -1
        deepestLevel = 0
        extraValues = false
    }

    var positionCount: Int { values.count / dims }

    /// Records the start of an array at `level` of the member (0: the member itself): the
    /// part and polygon starts that cut the positions later.
    @inline(__always)
    mutating func beginArray(level: Int) {
        if level > deepestLevel { deepestLevel = level }
        if level == 1 {
            level1.append(positionCount)
            level1Parts.append(level2.count)
        } else if level == 2 {
            level2.append(positionCount)
        }
    }

    /// Adds an altitude slot (NaN: absent) to every position read so far.
    mutating func upgradeTo3D() {
        values = _widenedTo3D(values, room: 3)
        dims = 3
    }
}

/// 2D positions (x, y interleaved) as 3D ones with a NaN altitude (absent), with room for
/// `room` more values.
func _widenedTo3D(_ values: [Double], room: Int) -> [Double] {
    var out = [Double]()
    out.reserveCapacity(values.count / 2 * 3 + room)
    var i = 0
    while i < values.count {
        out.append(values[i]); out.append(values[i + 1]); out.append(.nan)
        i += 2
    }
    return out
}

/// A `coordinates` member copied out of the scratch, waiting for the object's `type`.
struct _PendingCoordinates {
    var values: [Double]
    var dims: Int
    var level1: [Int]
    var level1Parts: [Int]
    var level2: [Int]
    var positionLevel: Int
    var deepestLevel: Int
    var extraValues: Bool
    var location: Int          // absolute offset of the member's value
    /// True when the positions are still in the parser's scratch, not copied here (a
    /// feature's geometry read into a batch, which takes them from the scratch).
    var inScratch = false
}

/// Everything an object said that matters to GeoJSON, gathered before its type is known.
struct _ObjectParts {
    var start = 0              // absolute offset of '{'
    var type: String?
    var coordinates: _PendingCoordinates?
    var geometries: [Geometry]?
    /// Nil when absent or `null` (`seen` tells which).
    var geometry: Geometry?
    /// Nil when absent or `null` (`seen` tells which).
    var properties: PropertyList?
    var features: [GeoFeature]?
    var id: FeatureID?
    var bbox: [Double]?
    var crs: PropertyValue?
    /// Foreign members of a feature (RFC 7946 §6.1), kept in order.
    var foreign: PropertyList?
    var seen: UInt16 = 0       // bit per GeoJSON member, for the duplicate check
}

enum _Member: UInt16 {
    case type = 1, coordinates = 2, geometries = 4, geometry = 8, properties = 16, features = 32,
         id = 64, bbox = 128, crs = 256, other = 0

    var name: String {
        switch self {
        case .type: return "type"
        case .coordinates: return "coordinates"
        case .geometries: return "geometries"
        case .geometry: return "geometry"
        case .properties: return "properties"
        case .features: return "features"
        case .id: return "id"
        case .bbox: return "bbox"
        case .crs: return "crs"
        case .other: return ""
        }
    }
}

extension _Member {
    /// GeoJSON's members in bit order (the order findings about them are reported in).
    static let geoJSONMembers: [_Member] = [.type, .coordinates, .geometries, .geometry, .properties, .features, .id, .bbox, .crs]
}

/// A set of GeoJSON members as a bit mask, written as an array literal.
struct _MemberSet: ExpressibleByArrayLiteral {
    let rawValue: UInt16
    @inline(__always) init(arrayLiteral members: _Member...) {
        var m: UInt16 = 0
        for x in members { m |= x.rawValue }
        rawValue = m
    }
}

/// Where an object sits, which decides which types it may have.
enum _Role { case root, featureGeometry, collectionMember, feature }

/// Recursive-descent GeoJSON parser over a `JSONTokenizer`, building GeoModel values directly
/// (no intermediate JSON tree).
struct _GeoJSONParser {
    /// The token reader over the input (bytes in memory, or a source read in chunks).
    var tokens: JSONTokenizer
    var options: GeoJSONReadOptions
    var scratch = _CoordinateScratch()
    /// Non-nil when collecting validation findings (warnings and, in lenient reading, the
    /// errors that reading tolerates).
    var findings: [GeoJSONFinding]?
    /// MUSTs of RFC 7946 read past because `options.strict` is off (`violation`).
    var toleratedViolations = 0
    /// Path prefix for findings (streaming readers set `features[i]`).
    var findingPrefix: [JSONPathComponent] = []
    /// The batch a columnar reader fills (`GeoJSONBatchReader`, which swaps its batch in
    /// and sets `fillsBatch`); no buffers otherwise.
    var batch = GeoJSONFeatureBatch(unallocated: ())
    var fillsBatch = false
    /// The depth of the feature being read into `batch`; -1 when none is.
    var columnarDepth = -1
    /// Features the fast path read (FeatureFastPath.swift), for the tests.
    var fastPathReads = 0
    /// Whether the last coordinate the fast path read was too long for the quick parse
    /// (`fastNumber`).
    var longCoordinates = false

    init(cursor: JSONTokenizer, options: GeoJSONReadOptions) {
        self.tokens = cursor
        self.tokens.structuralSkip = options.skipContract == .structural
        self.options = options
        if options.collectFindings { findings = [] }
    }

    func fail(_ rule: String, _ message: String, at absolute: Int) -> GeoJSONError {
        GeoJSONError(kind: .invalidGeoJSON(rule: rule, message: message), location: locationOfAbsolute(absolute))
    }

    func locationOfAbsolute(_ absolute: Int) -> SourceLocation {
        tokens.location(of: absolute - tokens.baseOffset)
    }

    mutating func warn(_ rule: String, _ message: String, at absolute: Int, path: [JSONPathComponent]) {
        guard findings != nil else { return }
        findings!.append(GeoJSONFinding(severity: .warning, rule: rule, message: message,
                                        location: locationOfAbsolute(absolute), path: findingPrefix + path))
    }

    /// A MUST of RFC 7946 that lenient reading tolerates: an error in strict reading, an
    /// error finding when validating, ignored otherwise.
    mutating func violation(_ rule: String, _ message: String, at absolute: Int, path: [JSONPathComponent]) throws(GeoJSONError) {
        if options.strict {
            var e = fail(rule, message, at: absolute)
            e.path = path
            throw e
        }
        toleratedViolations += 1
        guard findings != nil else { return }
        findings!.append(GeoJSONFinding(severity: .error, rule: rule, message: message,
                                        location: locationOfAbsolute(absolute), path: findingPrefix + path))
    }

    /// RFC 7946 §7.1: each of `members` that the object has is a violation (`what` names
    /// the object). One mask test when it has none, which is nearly always.
    @inline(__always)
    mutating func forbid(_ members: _MemberSet, seen: UInt16, in what: String, at start: Int) throws(GeoJSONError) {
        let present = members.rawValue & seen
        if present != 0 { try forbidSlow(present, in: what, at: start) }
    }

    @inline(never)
    mutating func forbidSlow(_ present: UInt16, in what: String, at start: Int) throws(GeoJSONError) {
        for m in _Member.geoJSONMembers where present & m.rawValue != 0 {
            try violation("RFC 7946 §7.1", "\(what) must not have a \"\(m.name)\" member", at: start, path: [.key(m.name)])
        }
    }

    // MARK: Member names

    /// Classifies the member name at `pos` (its opening quote) and consumes it. Unknown
    /// names come back as `.other` with the decoded name.
    @inline(__always)
    mutating func readMemberName() throws(GeoJSONError) -> (_Member, String?) {
        let (s, e, escaped) = try tokens.scanString()
        if !escaped {
            let n = e - s
            let p = tokens.base + s
            @inline(__always) func eq(_ lit: StaticString) -> Bool {
                lit.utf8CodeUnitCount == n && memcmpEqual(p, lit.utf8Start, n)
            }
            switch n {
            case 4: if eq("type") { return (.type, nil) }; if eq("bbox") { return (.bbox, nil) }
            case 11: if eq("coordinates") { return (.coordinates, nil) }
            case 10: if eq("geometries") { return (.geometries, nil) }; if eq("properties") { return (.properties, nil) }
            case 8: if eq("geometry") { return (.geometry, nil) }; if eq("features") { return (.features, nil) }
            case 2: if eq("id") { return (.id, nil) }
            case 3: if eq("crs") { return (.crs, nil) }
            default: break
            }
            return (.other, String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
        }
        tokens.decodeEscapes(s, e)
        let name = String(decoding: tokens.scratch, as: UTF8.self)
        switch name {
        case "type": return (.type, nil)
        case "bbox": return (.bbox, nil)
        case "coordinates": return (.coordinates, nil)
        case "geometries": return (.geometries, nil)
        case "properties": return (.properties, nil)
        case "geometry": return (.geometry, nil)
        case "features": return (.features, nil)
        case "id": return (.id, nil)
        case "crs": return (.crs, nil)
        default: return (.other, name)
        }
    }

    /// The value of a `type` member: the nine names are recognised from their bytes (no
    /// String is built for them); anything else is decoded for the error message.
    @inline(__always)
    mutating func readTypeName() throws(GeoJSONError) -> String {
        let (s, e, escaped) = try tokens.scanString()
        if !escaped {
            let n = e - s
            let p = tokens.base + s
            @inline(__always) func eq(_ lit: StaticString) -> Bool {
                lit.utf8CodeUnitCount == n && memcmpEqual(p, lit.utf8Start, n)
            }
            // String literals are immortal: returning one allocates and validates nothing.
            switch n {
            case 5: if eq("Point") { return "Point" }
            case 7: if eq("Feature") { return "Feature" }; if eq("Polygon") { return "Polygon" }
            case 10: if eq("MultiPoint") { return "MultiPoint" }; if eq("LineString") { return "LineString" }
            case 17: if eq("FeatureCollection") { return "FeatureCollection" }
            case 15: if eq("MultiLineString") { return "MultiLineString" }
            case 12: if eq("MultiPolygon") { return "MultiPolygon" }
            case 18: if eq("GeometryCollection") { return "GeometryCollection" }
            default: break
            }
            return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        }
        tokens.decodeEscapes(s, e)
        return String(decoding: tokens.scratch, as: UTF8.self)
    }

    /// Reads `"name":` of the next member and applies the duplicate rule for GeoJSON
    /// members (recorded in `parts.seen`).
    mutating func readMemberHeader(into parts: inout _ObjectParts) throws(GeoJSONError) -> (_Member, String?) {
        let q = try tokens.nextNonWhitespace(expected: "a member name")
        guard q == UInt8(ascii: "\"") else { throw tokens.error(.unexpectedByte(q, expected: "a member name"), at: tokens.pos - 1) }
        tokens.pos -= 1
        let (member, otherName) = try readMemberName()
        try tokens.expect(UInt8(ascii: ":"), "':'")
        if member != .other {
            if parts.seen & member.rawValue != 0 {
                throw tokens.error(.duplicateMember(member.name), at: tokens.pos).prefixed(.key(member.name))
            }
            parts.seen |= member.rawValue
        }
        return (member, otherName)
    }

    // MARK: Objects

    /// Parses a GeoJSON object at `pos` whose role decides what it may be.
    mutating func parseObject(depth: Int, role: _Role) throws(GeoJSONError) -> _ObjectParts {
        guard depth <= tokens.maxDepth else { throw tokens.error(.depthLimitExceeded(tokens.maxDepth), at: tokens.pos) }
        guard let open = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        guard open == UInt8(ascii: "{") else {
            let expected = role == .feature ? "a Feature object" : "a GeoJSON object"
            throw tokens.error(.unexpectedByte(open, expected: expected), at: tokens.pos)
        }
        var parts = _ObjectParts()
        parts.start = tokens.offset(tokens.pos)
        tokens.remember(tokens.pos, root: role == .root)
        tokens.pos += 1
        if try tokens.peekNonWhitespace() == UInt8(ascii: "}") {
            tokens.pos += 1
            return parts
        }
        while true {
            let (member, otherName) = try readMemberHeader(into: &parts)
            do {
                if member == .other, role == .feature || role == .root, !options.skipProperties {
                    try keepForeignMember(otherName ?? "", into: &parts, depth: depth)
                } else {
                    try parseMember(member, into: &parts, depth: depth)
                }
            } catch {
                throw error.prefixed(.key(otherName ?? member.name))
            }
            let d = try tokens.nextNonWhitespace(expected: "',' or '}'")
            if d == UInt8(ascii: "}") { return parts }
            guard d == UInt8(ascii: ",") else { throw tokens.error(.unexpectedByte(d, expected: "',' or '}'"), at: tokens.pos - 1) }
        }
    }

    mutating func parseMember(_ member: _Member, into parts: inout _ObjectParts, depth: Int) throws(GeoJSONError) {
        if depth == columnarDepth + 1, parts.coordinates?.inScratch == true,
           member == .geometries || member == .geometry || member == .features {
            // Objects read in this member would overwrite positions left in the scratch.
            parts.coordinates = copyScratch(at: parts.coordinates!.location)
        }
        switch member {
        case .type:
            guard try tokens.peekNonWhitespace() == UInt8(ascii: "\"") else {
                throw fail("RFC 7946 §1.4", "\"type\" must be a string", at: tokens.offset(tokens.pos))
            }
            parts.type = try readTypeName()
        case .coordinates:
            guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
            guard b == UInt8(ascii: "[") else {
                throw fail("RFC 7946 §3.1", "\"coordinates\" must be an array", at: tokens.offset(tokens.pos))
            }
            let at = tokens.offset(tokens.pos)
            tokens.remember(tokens.pos)
            scratch.reset()
            try parseCoordinateArray(level: 0, depth: depth)
            if depth == columnarDepth + 1 {
                // A feature's geometry read into a batch: the positions stay in the
                // scratch until the geometry's end takes them (`appendFeatureGeometry`).
                parts.coordinates = _PendingCoordinates(
                    values: [], dims: scratch.dims, level1: [], level1Parts: [], level2: [],
                    positionLevel: scratch.positionLevel, deepestLevel: scratch.deepestLevel,
                    extraValues: scratch.extraValues, location: at, inScratch: true)
                return
            }
            parts.coordinates = copyScratch(at: at)
        case .geometries:
            var list: [Geometry] = []
            if try openArray("RFC 7946 §3.1.8", "\"geometries\" must be an array") {
                repeat {
                    do {
                        var p = try parseObject(depth: depth + 1, role: .collectionMember)
                        guard case .geometry(let g) = try finish(&p, role: .collectionMember) else { fatalError("unreachable") }
                        list.append(g)
                    } catch {
                        throw error.prefixed(.index(list.count))
                    }
                } while try tokens.afterArrayElement()
            }
            parts.geometries = list
        case .geometry:
            guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
            if b == UInt8(ascii: "n") {
                let v = try tokens.readLiteral()
                guard v == .null else { throw fail("RFC 7946 §3.2", "\"geometry\" must be an object or null", at: tokens.offset(tokens.pos)) }
                parts.geometry = nil
            } else if b == UInt8(ascii: "{") {
                var p = try parseObject(depth: depth + 1, role: .featureGeometry)
                if depth == columnarDepth {
                    try appendFeatureGeometry(&p)
                    return
                }
                guard case .geometry(let g) = try finish(&p, role: .featureGeometry) else { fatalError("unreachable") }
                parts.geometry = g
            } else {
                throw fail("RFC 7946 §3.2", "\"geometry\" must be an object or null", at: tokens.offset(tokens.pos))
            }
        case .properties:
            guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
            if b == UInt8(ascii: "n") {
                let v = try tokens.readLiteral()
                guard v == .null else { throw fail("RFC 7946 §3.2", "\"properties\" must be an object or null", at: tokens.offset(tokens.pos)) }
                parts.properties = nil
            } else if b == UInt8(ascii: "{") {
                if options.skipProperties {
                    try tokens.skipValue(depth: depth)
                    parts.properties = PropertyList()
                } else if depth == columnarDepth {
                    let at = tokens.offset(tokens.pos)
                    tokens.remember(tokens.pos)
                    try readPropertiesIntoBatch(depth: depth + 1, at: at)
                    parts.properties = PropertyList()      // empty: the values are in the batch
                } else {
                    let at = tokens.offset(tokens.pos)
                    tokens.remember(tokens.pos)
                    let list = try tokens.readObject(depth: depth + 1)
                    if findings != nil, Set(list.keys).count != list.keys.count {
                        warn("RFC 8259 §4", "duplicate member names in \"properties\" (kept in order; I-JSON forbids them)", at: at, path: [.key("properties")])
                    }
                    parts.properties = list
                }
            } else {
                throw fail("RFC 7946 §3.2", "\"properties\" must be an object or null", at: tokens.offset(tokens.pos))
            }
        case .features:
            var list: [GeoFeature] = []
            if try openArray("RFC 7946 §3.3", "\"features\" must be an array") {
                repeat {
                    do {
                        list.append(try parseFeature(depth: depth + 1))
                        tokens.forgetRemembered()
                    } catch {
                        throw error.prefixed(.index(list.count))
                    }
                } while try tokens.afterArrayElement()
            }
            parts.features = list
        case .id:
            guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
            if b == UInt8(ascii: "\"") {
                if depth == columnarDepth {
                    try readStringIDIntoBatch()
                    return
                }
                parts.id = .string(try tokens.readString())
            } else if b == UInt8(ascii: "-") || NumberParser.isDigit(b) {
                parts.id = try tokens.readNumber().featureID
            } else {
                throw fail("RFC 7946 §3.2", "\"id\" must be a string or a number", at: tokens.offset(tokens.pos))
            }
        case .bbox:
            let at = tokens.offset(tokens.pos)
            tokens.remember(tokens.pos)
            guard case .array(let items) = try tokens.readValue(depth: depth) else {
                throw fail("RFC 7946 §5", "\"bbox\" must be an array of numbers", at: at)
            }
            var box: [Double] = []
            for v in items {
                switch v {
                case .double(let d): box.append(d)
                case .int(let i): box.append(Double(i))
                case .uint(let u): box.append(Double(u))
                default: throw fail("RFC 7946 §5", "\"bbox\" must be an array of numbers", at: at)
                }
            }
            guard box.count >= 4 && box.count % 2 == 0 else {
                throw fail("RFC 7946 §5", "\"bbox\" must have 2×n values (n ≥ 2 dimensions)", at: at)
            }
            parts.bbox = box
        case .crs:
            let at = tokens.offset(tokens.pos)
            tokens.remember(tokens.pos)
            parts.crs = try tokens.readValue(depth: depth)
            warn("RFC 7946 §4", "the \"crs\" member was removed from GeoJSON (coordinates are WGS 84 longitude/latitude)", at: at, path: [.key("crs")])
        case .other:
            // Foreign member (RFC 7946 §6.1): validated as JSON and ignored; GeoJSON
            // semantics do not apply inside it.
            try tokens.skipValue(depth: depth)
        }
    }

    /// The positions just read into the scratch, copied out for an object whose `type`
    /// may come later; `at` is where the `coordinates` value starts.
    ///
    /// Exact-size copies: the scratch keeps its capacity (and stays uniquely referenced,
    /// so the next reset allocates nothing), and each geometry holds only its own
    /// positions. The starts of arrays are copied only at the depths `build` reads for
    /// positions at this depth (part starts two levels up, polygon starts three);
    /// elsewhere they hold one entry per position, which a LineString or a MultiPoint never
    /// reads (and any other type fails the nesting check first). With no positions at all,
    /// the shape checks read them.
    func copyScratch(at: Int) -> _PendingCoordinates {
        let level = scratch.positionLevel
        let parts2 = level == 2 || level == -1, parts3 = level == 3 || level == -1
        return _PendingCoordinates(
            values: _exactCopy(scratch.values), dims: scratch.dims,
            level1: parts2 ? _exactCopy(scratch.level1) : [],
            level1Parts: parts3 ? _exactCopy(scratch.level1Parts) : [],
            level2: parts3 ? _exactCopy(scratch.level2) : [],
            positionLevel: level, deepestLevel: scratch.deepestLevel,
            extraValues: scratch.extraValues, location: at)
    }

    /// A foreign member of a feature (RFC 7946 §6.1), read as JSON and kept, so a round
    /// trip or a diff of the feature loses nothing. (Those of other objects are skipped.)
    mutating func keepForeignMember(_ name: String, into parts: inout _ObjectParts, depth: Int) throws(GeoJSONError) {
        tokens.remember(tokens.pos)
        let value = try tokens.readValue(depth: depth)
        if parts.foreign == nil { parts.foreign = PropertyList() }
        parts.foreign!.keys.append(name)
        parts.foreign!.values.append(value)
    }

    /// Consumes the `[` of an array member (anything else fails `rule`); false when the
    /// array is empty (its `]` consumed too).
    mutating func openArray(_ rule: String, _ notAnArray: String) throws(GeoJSONError) -> Bool {
        guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        guard b == UInt8(ascii: "[") else { throw fail(rule, notAnArray, at: tokens.offset(tokens.pos)) }
        tokens.pos += 1
        if try tokens.peekNonWhitespace() == UInt8(ascii: "]") {
            tokens.pos += 1
            return false
        }
        return true
    }

    /// Parses one element of a `features` array.
    /// Features of a collection (`depth` 2) go first through the fast path
    /// (FeatureFastPath.swift), which reads the common shape and leaves anything else here.
    mutating func parseFeature(depth: Int) throws(GeoJSONError) -> GeoFeature {
        if depth == 2, fastPathApplies, try tokens.peekNonWhitespace() == UInt8(ascii: "{"),
           let f = try fastModelFeature(start: tokens.offset(tokens.pos)) {
            return f
        }
        var p = try parseObject(depth: depth, role: .feature)
        guard case .feature(let f) = try finish(&p, role: .feature) else { fatalError("unreachable") }
        return f
    }

    // MARK: Coordinates

    mutating func parseCoordinateArray(level: Int, depth: Int) throws(GeoJSONError) {
        guard depth + level < tokens.maxDepth else { throw tokens.error(.depthLimitExceeded(tokens.maxDepth), at: tokens.pos) }
        tokens.pos += 1                                           // '['
        scratch.beginArray(level: level)
        guard let b = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        if b == UInt8(ascii: "]") {
            tokens.pos += 1
            scratch.emptyLevels |= 1 << UInt8(level)
            if scratch.positionLevel == level {
                throw fail("RFC 7946 §3.1.1", "a position needs at least two numbers", at: tokens.offset(tokens.pos - 2))
            }
            return
        }
        if b == UInt8(ascii: "[") {
            guard level < 3 else {
                throw fail("RFC 7946 §3.1", "coordinates nest deeper than any geometry type allows", at: tokens.offset(tokens.pos))
            }
            var index = 0
            repeat {
                do throws(GeoJSONError) {
                    guard let o = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
                    guard o == UInt8(ascii: "[") else {
                        throw fail("RFC 7946 §3.1", "expected an array of positions here", at: tokens.offset(tokens.pos))
                    }
                    try parseCoordinateArray(level: level + 1, depth: depth)
                } catch {
                    throw error.prefixed(.index(index))
                }
                index += 1
            } while try tokens.afterArrayElement()
            return
        }
        // A position (RFC 7946 §3.1.1).
        if scratch.positionLevel != level {
            if scratch.positionLevel == -1 {
                if scratch.emptyLevels >> UInt8(level) != 0 {
                    throw fail("RFC 7946 §3.1.1", "an empty array where a position belongs", at: tokens.offset(tokens.pos))
                }
                scratch.positionLevel = level
            } else {
                throw fail("RFC 7946 §3.1", "positions at different nesting depths", at: tokens.offset(tokens.pos))
            }
        }
        var n = 0
        while true {
            guard let v = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
            guard v == UInt8(ascii: "-") || NumberParser.isDigit(v) else {
                throw fail("RFC 7946 §3.1.1", "a position holds numbers only", at: tokens.offset(tokens.pos)).prefixed(.index(n))
            }
            let x: Double
            do { x = try tokens.readNumber().double } catch { throw error.prefixed(.index(n)) }
            if n < 2 {
                scratch.values.append(x)
            } else if n == 2 {
                if scratch.dims == 2 { scratch.upgradeTo3D() ; scratch.values[scratch.values.count - 1] = x }
                else { scratch.values.append(x) }
            } else {
                scratch.extraValues = true
            }
            n += 1
            if try !tokens.afterArrayElement() { break }
        }
        if n < 2 {
            throw fail("RFC 7946 §3.1.1", "a position needs at least two numbers", at: tokens.offset(tokens.pos - 1))
        }
        if n == 2 && scratch.dims == 3 { scratch.values.append(.nan) }
    }

    // MARK: Building the model

    /// `[0]`, shared by every LineString's part starts and every Polygon's polygon starts
    /// (copy-on-write: an array literal here was one allocation per geometry).
    static let firstPartOnly: [Int] = [0]

    /// `coordinates`, the path of findings about a geometry's positions (shared, like
    /// `firstPartOnly`).
    static let coordinatesPath: [JSONPathComponent] = [.key("coordinates")]

    enum Built { case geometry(Geometry), feature(GeoFeature), featureCollection([GeoFeature]) }

    @inline(__always)
    static func geometryKind(_ type: String) -> Geometry.Kind? {
        switch type {
        case "Point": return .point
        case "LineString": return .lineString
        case "Polygon": return .polygon
        case "MultiPoint": return .multiPoint
        case "MultiLineString": return .multiLineString
        case "MultiPolygon": return .multiPolygon
        case "GeometryCollection": return .geometryCollection
        default: return nil
        }
    }

    ///
    /// The model's parts are moved out of `p` (left nil), not copied: a copy was a retain
    /// and a release of every array of every feature.
    mutating func finish(_ p: inout _ObjectParts, role: _Role) throws(GeoJSONError) -> Built {
        guard let type = p.type else {
            throw fail("RFC 7946 §1.4", "a GeoJSON object needs a \"type\" member", at: p.start)
        }
        switch type {
        case "Feature":
            guard role == .root || role == .feature else {
                throw fail("RFC 7946 §3.1", "expected a geometry object, found a Feature", at: p.start)
            }
            if p.seen & _Member.geometry.rawValue == 0 {
                try violation("RFC 7946 §3.2", "a Feature must have a \"geometry\" member", at: p.start, path: [])
            }
            if p.seen & _Member.properties.rawValue == 0 {
                try violation("RFC 7946 §3.2", "a Feature must have a \"properties\" member", at: p.start, path: [])
            }
            try forbid([.coordinates, .geometries, .features], seen: p.seen, in: "a Feature", at: p.start)
            // (A root Feature's bbox is also the document's, `GeoJSONDocument.bbox`.)
            return .feature(GeoFeature(id: p.id.take(), geometry: p.geometry.take(), properties: p.properties.take(),
                                       bbox: p.bbox, foreignMembers: p.foreign.take()))
        case "FeatureCollection":
            guard role == .root else {
                throw fail("RFC 7946 §3.3", "a FeatureCollection can only be a top-level object", at: p.start)
            }
            guard let features = p.features.take() else {
                throw fail("RFC 7946 §3.3", "a FeatureCollection must have a \"features\" array", at: p.start)
            }
            try forbid([.coordinates, .geometries, .geometry, .properties], seen: p.seen, in: "a FeatureCollection", at: p.start)
            return .featureCollection(features)
        default:
            guard let kind = _GeoJSONParser.geometryKind(type) else {
                throw fail("RFC 7946 §1.4", "unknown GeoJSON type \"\(type)\" (types are case-sensitive)", at: p.start)
                    .prefixed(.key("type"))
            }
            guard role != .feature else {
                throw fail("RFC 7946 §3.3", "a FeatureCollection's \"features\" must hold Feature objects, found \(type)", at: p.start)
            }
            try forbid([.geometry, .properties, .features], seen: p.seen, in: "a geometry", at: p.start)
            if kind != .geometryCollection && p.seen & _Member.geometries.rawValue != 0 {
                try violation("RFC 7946 §7.1", "a \(type) must not have a \"geometries\" member", at: p.start, path: [.key("geometries")])
            }
            if kind == .geometryCollection && p.seen & _Member.coordinates.rawValue != 0 {
                try violation("RFC 7946 §7.1", "a GeometryCollection must not have a \"coordinates\" member", at: p.start, path: [.key("coordinates")])
            }
            if kind == .geometryCollection {
                guard let members = p.geometries.take() else {
                    throw fail("RFC 7946 §3.1.8", "a GeometryCollection must have a \"geometries\" array", at: p.start)
                }
                if members.count == 1 {
                    warn("RFC 7946 §3.1.8", "a GeometryCollection with a single member (producers should avoid them)", at: p.start, path: [.key("geometries")])
                }
                if members.contains(where: { $0.kind == .geometryCollection }) {
                    warn("RFC 7946 §3.1.8", "nested GeometryCollection (producers should avoid them)", at: p.start, path: ["geometries"].map { .key($0) })
                }
                return .geometry(.collection(members))
            }
            guard var coords = p.coordinates.take() else {
                throw fail("RFC 7946 §3.1", "a \(type) must have a \"coordinates\" member", at: p.start)
            }
            if coords.inScratch { coords = copyScratch(at: coords.location) }
            return .geometry(try build(kind, &coords))
        }
    }

    /// Cuts pending positions into a geometry of `kind`, checking the §3.1 shape rules.
    /// Takes the arrays of `pc` (left empty) into the geometry.
    mutating func build(_ kind: Geometry.Kind, _ pc: inout _PendingCoordinates) throws(GeoJSONError) -> Geometry {
        if try checkNesting(kind, positionLevel: pc.positionLevel, deepestLevel: pc.deepestLevel,
                            hasValues: !pc.values.isEmpty, extraValues: pc.extraValues, at: pc.location) {
            return Geometry(kind: .point)
        }
        var g = Geometry(kind: kind, coordinates: _take(&pc.values), dimensions: pc.dims)
        switch kind {
        case .point, .multiPoint, .geometryCollection: break
        case .lineString:
            g.partStarts = g.coordinates.isEmpty ? [] : _GeoJSONParser.firstPartOnly
        case .multiLineString:
            g.partStarts = _take(&pc.level1)
        case .polygon:
            g.partStarts = _take(&pc.level1)
            g.polygonStarts = g.partStarts.isEmpty ? [] : _GeoJSONParser.firstPartOnly
        case .multiPolygon:
            g.partStarts = _take(&pc.level2)
            g.polygonStarts = _take(&pc.level1Parts)
        }
        if checksParts(kind) {
            try checkParts(_ShapeView(kind: kind, values: g.coordinates, dims: g.dimensions,
                                      parts: g.partStarts, polygons: g.polygonStarts), at: pc.location)
        }
        return g
    }

    /// The §3.1 nesting rules of `coordinates` for a geometry of `kind`, from what the
    /// positions' reading saw. True for an empty Point (`[]`), which has no positions.
    mutating func checkNesting(_ kind: Geometry.Kind, positionLevel: Int, deepestLevel: Int, hasValues: Bool,
                               extraValues: Bool, at location: Int) throws(GeoJSONError) -> Bool {
        let expectedLevel: Int
        let shape: String
        switch kind {
        case .point: expectedLevel = 0; shape = "a Point's coordinates must be one position (RFC 7946 §3.1.2)"
        case .multiPoint: expectedLevel = 1; shape = "a MultiPoint's coordinates must be an array of positions"
        case .lineString: expectedLevel = 1; shape = "a LineString's coordinates must be an array of positions"
        case .multiLineString: expectedLevel = 2; shape = "a MultiLineString's coordinates must be an array of LineString coordinate arrays"
        case .polygon: expectedLevel = 2; shape = "a Polygon's coordinates must be an array of linear rings"
        case .multiPolygon: expectedLevel = 3; shape = "a MultiPolygon's coordinates must be an array of Polygon coordinate arrays"
        case .geometryCollection: fatalError("unreachable")
        }
        if positionLevel == -1 {
            // No positions at all: `[]` is an empty geometry (§3.1); deeper empty arrays
            // must still fit the type's nesting.
            if deepestLevel > max(expectedLevel - 1, 0) || (kind == .point && deepestLevel > 0) {
                throw fail(_GeoJSONParser.rule(of: kind), shape, at: location).prefixed(.key("coordinates"))
            }
            if kind == .point && !hasValues {
                warn("RFC 7946 §3.1", "empty Point coordinates", at: location, path: _GeoJSONParser.coordinatesPath)
                return true
            }
        } else if positionLevel != expectedLevel {
            throw fail(_GeoJSONParser.rule(of: kind), shape, at: location).prefixed(.key("coordinates"))
        }
        if extraValues {
            warn("RFC 7946 §3.1.1", "positions with more than three values (extra values dropped)", at: location,
                 path: _GeoJSONParser.coordinatesPath)
        }
        return false
    }

    /// The section of RFC 7946 that defines `kind`.
    static func rule(of kind: Geometry.Kind) -> String {
        switch kind {
        case .point: return "RFC 7946 §3.1.2"
        case .multiPoint: return "RFC 7946 §3.1.3"
        case .lineString: return "RFC 7946 §3.1.4"
        case .multiLineString: return "RFC 7946 §3.1.5"
        case .polygon: return "RFC 7946 §3.1.6"
        case .multiPolygon: return "RFC 7946 §3.1.7"
        case .geometryCollection: return ""
        }
    }

    /// Whether `checkParts` has anything to do for a geometry of `kind`: points have no
    /// parts, only warnings, when findings are collected.
    @inline(__always)
    func checksParts(_ kind: Geometry.Kind) -> Bool {
        (kind != .point && kind != .multiPoint) || findings != nil
    }

    /// The §3.1 rules on a geometry's parts (lines of two positions or more, closed rings
    /// of four or more, polygons with an exterior ring), then, when collecting findings,
    /// its warnings.
    mutating func checkParts(_ g: _ShapeView, at location: Int) throws(GeoJSONError) {
        let rule = _GeoJSONParser.rule(of: g.kind)
        switch g.kind {
        case .point, .multiPoint, .geometryCollection: break
        case .lineString:
            if g.values.isEmpty {
                warn("RFC 7946 §3.1", "empty LineString coordinates", at: location, path: _GeoJSONParser.coordinatesPath)
            } else if g.positionCount < 2 {
                throw fail(rule, "a LineString needs two or more positions", at: location).prefixed(.key("coordinates"))
            }
        case .multiLineString:
            for i in 0..<g.parts.count where g.partRange(i).count < 2 {
                throw fail(rule, "each line of a MultiLineString needs two or more positions", at: location)
                    .prefixed(.index(i)).prefixed(.key("coordinates"))
            }
        case .polygon:
            try checkRings(g, 0..<g.parts.count, rule: rule, at: location, polygon: nil)
        case .multiPolygon:
            for poly in 0..<g.polygons.count {
                let parts = g.polygonRange(poly)
                if parts.isEmpty {
                    throw fail(rule, "each polygon of a MultiPolygon needs an exterior ring", at: location)
                        .prefixed(.index(poly)).prefixed(.key("coordinates"))
                }
                try checkRings(g, parts, rule: rule, at: location, polygon: poly)
            }
        }
        if findings != nil { lint(g, at: location) }
    }

    /// §3.1.6: a linear ring has four or more positions and ends where it starts.
    /// `polygon` is the polygon's index in a MultiPolygon, for the path. The path is built
    /// only for an error (built for every ring, it was an allocation per ring).
    func checkRings(_ g: _ShapeView, _ parts: Range<Int>, rule: String, at: Int, polygon: Int?) throws(GeoJSONError) {
        let d = g.dims
        for (n, part) in parts.enumerated() {
            let r = g.partRange(part)
            var problem: String?
            if r.count < 4 {
                problem = "a linear ring needs four or more positions"
            } else {
                for k in 0..<d {
                    let a = g.values[r.lowerBound * d + k], b = g.values[(r.upperBound - 1) * d + k]
                    if a != b && !(a.isNaN && b.isNaN) {
                        problem = "a linear ring's first and last positions must be identical"
                        break
                    }
                }
            }
            if let problem {
                var e = fail(rule, problem, at: at)
                e.path = [.key("coordinates")]
                if let polygon { e.path.append(.index(polygon)) }
                e.path.append(.index(n))
                throw e
            }
        }
    }

    /// Warnings a parser must not reject on (RFC 7946 §3.1.6 winding, §3.1.9 antimeridian).
    mutating func lint(_ g: _ShapeView, at: Int) {
        for i in 0..<g.positionCount where abs(g.x(i)) > 180 || abs(g.y(i)) > 90 {
            warn("RFC 7946 §4", "a position outside longitude ±180 / latitude ±90", at: at, path: [.key("coordinates")])
            break
        }
        if g.kind == .polygon || g.kind == .multiPolygon {
            for poly in 0..<g.polygons.count {
                for (n, part) in g.polygonRange(poly).enumerated() {
                    let r = g.partRange(part)
                    var twiceArea = 0.0
                    for i in r.lowerBound..<(r.upperBound - 1) {
                        twiceArea += g.x(i) * g.y(i + 1) - g.x(i + 1) * g.y(i)
                    }
                    let ccw = twiceArea > 0
                    if (n == 0) != ccw && twiceArea != 0 {
                        var path: [JSONPathComponent] = [.key("coordinates")]
                        if g.kind == .multiPolygon { path.append(.index(poly)) }
                        path.append(.index(n))
                        warn("RFC 7946 §3.1.6", n == 0 ? "exterior ring is clockwise (right-hand rule: counterclockwise)"
                                                       : "hole is counterclockwise (right-hand rule: clockwise)", at: at, path: path)
                    }
                }
            }
        }
        if g.kind != .point && g.kind != .multiPoint {
            for part in 0..<g.parts.count {
                let r = g.partRange(part)
                guard r.count >= 2 else { continue }
                for i in r.lowerBound..<(r.upperBound - 1) where abs(g.x(i + 1) - g.x(i)) > 180 {
                    warn("RFC 7946 §3.1.9", "a segment spans more than 180° of longitude (antimeridian crossing not cut)",
                         at: at, path: [.key("coordinates")])
                    return
                }
            }
        }
    }
}

/// A geometry's positions and parts as the shape checks read them, whether they sit in a
/// `Geometry` or still in the reader's scratch (positions and part starts counted from 0).
struct _ShapeView {
    let kind: Geometry.Kind
    let values: [Double]
    let dims: Int
    /// Position index where each part starts.
    let parts: [Int]
    /// Part index where each polygon starts.
    let polygons: [Int]

    var positionCount: Int { values.count / dims }
    @inline(__always) func x(_ i: Int) -> Double { values[i * dims] }
    @inline(__always) func y(_ i: Int) -> Double { values[i * dims + 1] }
    func partRange(_ i: Int) -> Range<Int> { parts[i]..<(i + 1 < parts.count ? parts[i + 1] : positionCount) }
    func polygonRange(_ i: Int) -> Range<Int> { polygons[i]..<(i + 1 < polygons.count ? polygons[i + 1] : parts.count) }
}

/// The array in `a`, moved out (`a` is left empty): no retain and release, as a copy
/// followed by an assignment would cost.
@inline(__always)
func _take<T>(_ a: inout [T]) -> [T] {
    var out: [T] = []
    swap(&out, &a)
    return out
}

/// A new array with exactly the elements of `a` (not sharing its buffer).
@inline(__always)
func _exactCopy<T>(_ a: [T]) -> [T] {
    if a.isEmpty { return [] }
    return a.withUnsafeBufferPointer { Array($0) }
}

/// Byte equality of two short ranges (member names).
@inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
