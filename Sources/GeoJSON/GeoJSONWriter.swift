import GeoModel

/// Writes GeoModel values as GeoJSON text (RFC 7946) into a byte buffer.
///
/// - Numbers: the shortest text that reads back to the same double (Swift's
///   `description` digits), so `read(write(x)) == x` bit for bit. Coordinates that are
///   integers below 2^53 are written without a fraction (`10`); property doubles keep one
///   (`10.0`) so they read back as doubles, not integers. NaN and infinities, which JSON
///   cannot hold, are written as `null`.
/// - Strings: RFC 8259 §7 escapes (quote, backslash, control characters); everything else
///   as UTF-8.
/// - A 3-dimensional position whose altitude is NaN (absent) is written with two values.
/// - Member order: `type`, `id`, `bbox`, `geometry`, `properties` (features);
///   `type`, `coordinates` / `geometries` (geometries).
///
/// Allocates only when the buffer grows; `GeoJSONStreamWriter` flushes it to a sink for
/// collections of any size.
public struct GeoJSONWriter {
    /// The output buffer: raw memory with explicit count and capacity, so the hot paths
    /// reserve once and then store bytes through a pointer (Array's per-append uniqueness
    /// and capacity checks cost more than the formatting). Copy-on-write keeps value
    /// semantics.
    final class _Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int
        init(capacity: Int) {
            self.capacity = max(capacity, 256)
            base = .allocate(capacity: self.capacity)
        }
        deinit { base.deallocate() }
    }

    var storage: _Storage

    public init(capacity: Int = 0) { storage = _Storage(capacity: capacity) }

    /// The text written so far (a copy).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// Number of bytes written so far.
    public var count: Int { storage.count }

    /// Calls `body` with the text written so far, without copying it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        if !isKnownUniquelyReferenced(&storage) { storage = _Storage(capacity: storage.capacity) }
        storage.count = 0
    }

    // MARK: Building blocks

    /// Makes room for `n` more bytes and returns where they go.
    @inline(__always)
    mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(!isKnownUniquelyReferenced(&storage) || storage.count + n > storage.capacity) { grow(n) }
        return storage.base + storage.count
    }

    @inline(never)
    mutating func grow(_ n: Int) {
        let s = _Storage(capacity: max(storage.capacity * 2, storage.count + n))
        s.base.update(from: storage.base, count: storage.count)
        s.count = storage.count
        storage = s
    }

    @inline(__always)
    mutating func put(_ b: UInt8) {
        reserve(1).pointee = b
        storage.count += 1
    }

    @inline(__always)
    mutating func put(_ p: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n).update(from: p, count: n)
        storage.count += n
    }

    @inline(__always)
    mutating func raw(_ s: StaticString) {
        put(s.utf8Start, s.utf8CodeUnitCount)
    }

    /// A JSON number; `compactIntegers` writes integral values below 2^53 without `.0`.
    @inline(__always)
    public mutating func writeNumber(_ d: Double, compactIntegers: Bool = true) {
        let p = reserve(64)
        storage.count += _ShortestDecimal.renderNumber(d, compactIntegers: compactIntegers, into: p)
    }

    @inline(__always)
    public mutating func writeInteger(_ v: Int64) {
        let p = reserve(24)
        let first = _ShortestDecimal.renderInteger(v, endingAt: p + 24)
        let n = p + 24 - first
        p.update(from: first, count: n)
        storage.count += n
    }

    public mutating func writeUnsigned(_ v: UInt64) {
        if v <= UInt64(Int64.max) { return writeInteger(Int64(v)) }
        var text = String(v)
        text.withUTF8 { put($0.baseAddress!, $0.count) }
    }

    /// A JSON string literal with the escapes RFC 8259 §7 requires.
    public mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { u in
            // Fast path: nothing to escape (checked eight bytes at a time), one copy.
            var clean = true
            if let base = u.baseAddress {
                var i = 0
                while i &+ 8 <= u.count {
                    if _ByteMasks.needsEscape(NumberParser.load8(base + i)) != 0 { clean = false; break }
                    i &+= 8
                }
                while clean && i < u.count {
                    let b = base[i]
                    if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { clean = false }
                    i &+= 1
                }
            }
            if clean {
                let p = reserve(u.count + 2)
                p[0] = UInt8(ascii: "\"")
                if u.count > 0 { (p + 1).update(from: u.baseAddress!, count: u.count) }
                p[u.count + 1] = UInt8(ascii: "\"")
                storage.count += u.count + 2
                return
            }
            put(UInt8(ascii: "\""))
            var start = 0
            for i in 0..<u.count {
                let b = u[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                if i > start { put(u.baseAddress! + start, i - start) }
                switch b {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                default:
                    let hex: StaticString = "0123456789abcdef"
                    raw("\\u00")
                    put(hex.utf8Start[Int(b >> 4)])
                    put(hex.utf8Start[Int(b & 15)])
                }
                start = i + 1
            }
            if u.count > start { put(u.baseAddress! + start, u.count - start) }
            put(UInt8(ascii: "\""))
        }
    }

    public mutating func writeValue(_ v: PropertyValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .int(let i): writeInteger(i)
        case .uint(let u): writeUnsigned(u)
        case .double(let d): writeNumber(d, compactIntegers: false)
        case .string(let s): writeString(s)
        case .array(let a):
            put(UInt8(ascii: "["))
            for (i, x) in a.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                writeValue(x)
            }
            put(UInt8(ascii: "]"))
        case .object(let o): writeObject(o)
        }
    }

    public mutating func writeObject(_ o: PropertyList) {
        put(UInt8(ascii: "{"))
        for i in 0..<o.count {
            if i > 0 { put(UInt8(ascii: ",")) }
            writeString(o.keys[i])
            put(UInt8(ascii: ":"))
            writeValue(o.values[i])
        }
        put(UInt8(ascii: "}"))
    }

    // MARK: GeoJSON objects

    /// One position, rendered into a stack buffer and appended at once (one capacity check
    /// instead of one per byte).
    @inline(__always)
    mutating func writePosition(_ g: Geometry, _ i: Int, _ c: UnsafeBufferPointer<Double>) {
        let d = g.dimensions
        do {
            let b = reserve(220)
            var n = 0
            b[n] = UInt8(ascii: "["); n += 1
            n += _ShortestDecimal.renderNumber(c[i * d], compactIntegers: true, into: b + n)
            b[n] = UInt8(ascii: ","); n += 1
            n += _ShortestDecimal.renderNumber(c[i * d + 1], compactIntegers: true, into: b + n)
            if d == 3, !c[i * d + 2].isNaN {
                b[n] = UInt8(ascii: ","); n += 1
                n += _ShortestDecimal.renderNumber(c[i * d + 2], compactIntegers: true, into: b + n)
            }
            b[n] = UInt8(ascii: "]"); n += 1
            storage.count += n
        }
    }

    mutating func writePositions(_ g: Geometry, _ r: Range<Int>, _ c: UnsafeBufferPointer<Double>) {
        put(UInt8(ascii: "["))
        for i in r {
            if i > r.lowerBound { put(UInt8(ascii: ",")) }
            writePosition(g, i, c)
        }
        put(UInt8(ascii: "]"))
    }

    mutating func writePolygon(_ g: Geometry, _ parts: Range<Int>, _ c: UnsafeBufferPointer<Double>) {
        put(UInt8(ascii: "["))
        for p in parts {
            if p > parts.lowerBound { put(UInt8(ascii: ",")) }
            writePositions(g, g.partRange(p), c)
        }
        put(UInt8(ascii: "]"))
    }

    /// A geometry object (RFC 7946 §3.1).
    ///
    /// - Complexity: O(positions); allocates only when the buffer grows.
    public mutating func writeGeometry(_ g: Geometry) { writeGeometry(g, bbox: nil, crs: nil) }

    /// A geometry with optional top-level members written after its `type`.
    mutating func writeGeometry(_ g: Geometry, bbox: [Double]?, crs: PropertyValue?) {
        raw("{\"type\":\"")
        var name = g.kind.rawValue
        name.withUTF8 { put($0.baseAddress!, $0.count) }
        put(UInt8(ascii: "\""))
        if let bbox { writeBBoxMember(bbox) }
        if let crs { writeCRSMember(crs) }
        if g.kind == .geometryCollection {
            raw(",\"geometries\":[")
            for (i, m) in g.geometries.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                writeGeometry(m)
            }
            raw("]}")
            return
        }
        raw(",\"coordinates\":")
        g.coordinates.withUnsafeBufferPointer { c in
            switch g.kind {
            case .point:
                if g.positionCount == 0 { raw("[]") } else { writePosition(g, 0, c) }
            case .multiPoint:
                writePositions(g, 0..<g.positionCount, c)
            case .lineString:
                writePositions(g, g.partStarts.isEmpty ? 0..<g.positionCount : g.partRange(0), c)
            case .multiLineString:
                writePolygon(g, 0..<g.partStarts.count, c)
            case .polygon:
                writePolygon(g, g.polygonStarts.isEmpty ? 0..<0 : g.polygonRange(0), c)
            case .multiPolygon:
                put(UInt8(ascii: "["))
                for p in 0..<g.polygonStarts.count {
                    if p > 0 { put(UInt8(ascii: ",")) }
                    writePolygon(g, g.polygonRange(p), c)
                }
                put(UInt8(ascii: "]"))
            case .geometryCollection:
                break
            }
        }
        put(UInt8(ascii: "}"))
    }

    public mutating func writeFeatureID(_ id: FeatureID) {
        switch id {
        case .string(let s): writeString(s)
        case .int(let i): writeInteger(i)
        case .uint(let u): writeUnsigned(u)
        case .double(let d): writeNumber(d, compactIntegers: false)
        }
    }

    /// A Feature object (RFC 7946 §3.2).
    public mutating func writeFeature(_ f: GeoFeature) { writeFeature(f, bbox: nil, crs: nil) }

    /// A Feature with optional top-level members written after its `type`.
    mutating func writeFeature(_ f: GeoFeature, bbox: [Double]?, crs: PropertyValue?) {
        raw("{\"type\":\"Feature\"")
        if let box = bbox ?? f.bbox { writeBBoxMember(box) }
        if let crs { writeCRSMember(crs) }
        if let id = f.id {
            raw(",\"id\":")
            writeFeatureID(id)
        }
        raw(",\"geometry\":")
        if let g = f.geometry { writeGeometry(g) } else { raw("null") }
        raw(",\"properties\":")
        if let p = f.properties { writeObject(p) } else { raw("null") }
        if let foreign = f.foreignMembers {
            for i in 0..<foreign.count {
                put(UInt8(ascii: ","))
                writeString(foreign.keys[i])
                put(UInt8(ascii: ":"))
                writeValue(foreign.values[i])
            }
        }
        put(UInt8(ascii: "}"))
    }

    /// Any GeoJSON object, with an optional top-level `bbox` (RFC 7946 §5) and `crs` (the
    /// obsolete member is written back as read, so nothing read is lost; RFC 7946 §4).
    public mutating func write(_ object: GeoObject, bbox: [Double]? = nil, crs: PropertyValue? = nil) {
        switch object {
        case .geometry(let g):
            writeGeometry(g, bbox: bbox, crs: crs)
        case .feature(let f):
            writeFeature(f, bbox: bbox, crs: crs)
        case .featureCollection(let fs):
            raw("{\"type\":\"FeatureCollection\"")
            if let bbox { writeBBoxMember(bbox) }
            if let crs { writeCRSMember(crs) }
            raw(",\"features\":[")
            for (i, f) in fs.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                writeFeature(f)
            }
            raw("]}")
        }
    }

    mutating func writeBBoxMember(_ bbox: [Double]) {
        raw(",\"bbox\":[")
        for (i, v) in bbox.enumerated() {
            if i > 0 { put(UInt8(ascii: ",")) }
            writeNumber(v)
        }
        put(UInt8(ascii: "]"))
    }

    mutating func writeCRSMember(_ crs: PropertyValue) {
        raw(",\"crs\":")
        writeValue(crs)
    }

    /// The text of a document.
    public static func encode(_ document: GeoJSONDocument) -> [UInt8] {
        var w = GeoJSONWriter()
        w.write(document.object, bbox: document.bbox, crs: document.crs)
        return w.bytes
    }

    // MARK: String conveniences

    /// A JSON string literal (RFC 8259 §7).
    public static func string(_ s: String) -> String {
        var w = GeoJSONWriter()
        w.writeString(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A JSON number (shortest round-trip; integral values without a fraction), `null` for
    /// NaN and infinities.
    public static func number(_ d: Double) -> String {
        var w = GeoJSONWriter()
        w.writeNumber(d)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    public static func value(_ v: PropertyValue) -> String {
        var w = GeoJSONWriter()
        w.writeValue(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A geometry object as text.
    public static func geometry(_ g: Geometry) -> String {
        var w = GeoJSONWriter()
        w.writeGeometry(g)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A Feature object as text; a nil geometry is written as `null`.
    public static func feature(id: PropertyValue? = nil, geometry g: Geometry?,
                               properties: [(key: String, value: PropertyValue)]) -> String {
        var w = GeoJSONWriter()
        var fid: FeatureID?
        switch id {
        case .string(let s)?: fid = .string(s)
        case .int(let i)?: fid = .int(i)
        case .uint(let u)?: fid = .uint(u)
        case .double(let d)?: fid = .double(d)
        default: fid = nil
        }
        w.writeFeature(GeoFeature(id: fid, geometry: g, properties: PropertyList(properties)))
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// Writes a FeatureCollection of any size to a sink, one feature at a time, flushing the
/// buffer whenever it passes `flushThreshold` bytes, so memory stays bounded.
public struct GeoJSONStreamWriter {
    var writer = GeoJSONWriter(capacity: 1 << 16)
    let sink: ([UInt8]) throws -> Void
    let flushThreshold: Int
    var count = 0

    /// - Parameters:
    ///   - flushThreshold: how many bytes are gathered before `sink` is called.
    ///   - bbox: the collection's `bbox` member (RFC 7946 §5), written before its features.
    ///   - sink: receives the text in pieces, in order.
    public init(flushThreshold: Int = 1 << 16, bbox: [Double]? = nil, sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        self.flushThreshold = flushThreshold
        writer.raw("{\"type\":\"FeatureCollection\"")
        if let bbox { writer.writeBBoxMember(bbox) }
        writer.raw(",\"features\":[")
    }

    public mutating func write(_ feature: GeoFeature) throws {
        if count > 0 { writer.put(UInt8(ascii: ",")) }
        writer.writeFeature(feature)
        count += 1
        if writer.count >= flushThreshold { try flush() }
    }

    mutating func flush() throws {
        try sink(writer.bytes)
        writer.removeAll()
    }

    /// Closes the collection and flushes.
    public mutating func finish() throws {
        writer.raw("]}\n")
        try flush()
    }
}
