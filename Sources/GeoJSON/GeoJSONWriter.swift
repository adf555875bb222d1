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
    public internal(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    // MARK: Building blocks

    @inline(__always)
    mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// A JSON number; `compactIntegers` writes integral values below 2^53 without `.0`.
    @inline(__always)
    public mutating func writeNumber(_ d: Double, compactIntegers: Bool = true) {
        guard d.isFinite else { return raw("null") }
        if compactIntegers, d == d.rounded(.towardZero), abs(d) < 9_007_199_254_740_992, !(d == 0 && d.sign == .minus) {
            writeInteger(Int64(d))
            return
        }
        // The standard library's shortest round-trip digits (`description`).
        var text = d.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    public mutating func writeInteger(_ v: Int64) {
        if v >= 0 && v < 10 {
            bytes.append(UInt8(truncatingIfNeeded: v) + 0x30)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buf in
            var m = v.magnitude
            var i = 24
            repeat {
                i -= 1
                buf[i] = UInt8(truncatingIfNeeded: m % 10) + 0x30
                m /= 10
            } while m > 0
            if v < 0 {
                i -= 1
                buf[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i..<24]))
        }
    }

    public mutating func writeUnsigned(_ v: UInt64) {
        if v <= UInt64(Int64.max) { return writeInteger(Int64(v)) }
        bytes.append(contentsOf: String(v).utf8)
    }

    /// A JSON string literal with the escapes RFC 8259 §7 requires.
    public mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { u in
            var start = 0
            for i in 0..<u.count {
                let b = u[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<i]))
                switch b {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    raw("\\u00")
                    bytes.append(hex[Int(b >> 4)])
                    bytes.append(hex[Int(b & 15)])
                }
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: u[start..<u.count]))
        }
        bytes.append(UInt8(ascii: "\""))
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
            bytes.append(UInt8(ascii: "["))
            for (i, x) in a.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeValue(x)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o): writeObject(o)
        }
    }

    public mutating func writeObject(_ o: PropertyList) {
        bytes.append(UInt8(ascii: "{"))
        for i in 0..<o.count {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(o.keys[i])
            bytes.append(UInt8(ascii: ":"))
            writeValue(o.values[i])
        }
        bytes.append(UInt8(ascii: "}"))
    }

    // MARK: GeoJSON objects

    @inline(__always)
    mutating func writePosition(_ g: Geometry, _ i: Int, _ c: UnsafeBufferPointer<Double>) {
        let d = g.dimensions
        bytes.append(UInt8(ascii: "["))
        writeNumber(c[i * d])
        bytes.append(UInt8(ascii: ","))
        writeNumber(c[i * d + 1])
        if d == 3, !c[i * d + 2].isNaN {
            bytes.append(UInt8(ascii: ","))
            writeNumber(c[i * d + 2])
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func writePositions(_ g: Geometry, _ r: Range<Int>, _ c: UnsafeBufferPointer<Double>) {
        bytes.append(UInt8(ascii: "["))
        for i in r {
            if i > r.lowerBound { bytes.append(UInt8(ascii: ",")) }
            writePosition(g, i, c)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func writePolygon(_ g: Geometry, _ parts: Range<Int>, _ c: UnsafeBufferPointer<Double>) {
        bytes.append(UInt8(ascii: "["))
        for p in parts {
            if p > parts.lowerBound { bytes.append(UInt8(ascii: ",")) }
            writePositions(g, g.partRange(p), c)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A geometry object (RFC 7946 §3.1).
    ///
    /// - Complexity: O(positions); allocates only when the buffer grows.
    public mutating func writeGeometry(_ g: Geometry) {
        raw("{\"type\":\"")
        bytes.append(contentsOf: g.kind.rawValue.utf8)
        if g.kind == .geometryCollection {
            raw("\",\"geometries\":[")
            for (i, m) in g.geometries.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeGeometry(m)
            }
            raw("]}")
            return
        }
        raw("\",\"coordinates\":")
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
                bytes.append(UInt8(ascii: "["))
                for p in 0..<g.polygonStarts.count {
                    if p > 0 { bytes.append(UInt8(ascii: ",")) }
                    writePolygon(g, g.polygonRange(p), c)
                }
                bytes.append(UInt8(ascii: "]"))
            case .geometryCollection:
                break
            }
        }
        bytes.append(UInt8(ascii: "}"))
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
    public mutating func writeFeature(_ f: GeoFeature) {
        raw("{\"type\":\"Feature\"")
        if let id = f.id {
            raw(",\"id\":")
            writeFeatureID(id)
        }
        raw(",\"geometry\":")
        if let g = f.geometry { writeGeometry(g) } else { raw("null") }
        raw(",\"properties\":")
        if let p = f.properties { writeObject(p) } else { raw("null") }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Any GeoJSON object, with an optional top-level `bbox` (RFC 7946 §5) and `crs` (the
    /// obsolete member is written back as read, so nothing read is lost; RFC 7946 §4).
    public mutating func write(_ object: GeoObject, bbox: [Double]? = nil, crs: PropertyValue? = nil) {
        switch object {
        case .geometry(let g):
            if bbox != nil || crs != nil { writeWithMembers(bbox, crs) { $0.writeGeometry(g) } } else { writeGeometry(g) }
        case .feature(let f):
            if bbox != nil || crs != nil { writeWithMembers(bbox, crs) { $0.writeFeature(f) } } else { writeFeature(f) }
        case .featureCollection(let fs):
            raw("{\"type\":\"FeatureCollection\"")
            if let bbox { writeBBoxMember(bbox) }
            if let crs { writeCRSMember(crs) }
            raw(",\"features\":[")
            for (i, f) in fs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                writeFeature(f)
            }
            raw("]}")
        }
    }

    mutating func writeBBoxMember(_ bbox: [Double]) {
        raw(",\"bbox\":[")
        for (i, v) in bbox.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            writeNumber(v)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func writeCRSMember(_ crs: PropertyValue) {
        raw(",\"crs\":")
        writeValue(crs)
    }

    /// Writes an object then splices `"bbox"` and `"crs"` in after its `type` member.
    mutating func writeWithMembers(_ bbox: [Double]?, _ crs: PropertyValue?, _ body: (inout GeoJSONWriter) -> Void) {
        var inner = GeoJSONWriter()
        body(&inner)
        // Every object written here starts with {"type":"NAME" — find the end of NAME.
        var quotes = 0, cut = 0
        for (i, b) in inner.bytes.enumerated() where b == UInt8(ascii: "\"") {
            quotes += 1
            if quotes == 4 { cut = i + 1; break }
        }
        bytes.append(contentsOf: inner.bytes[..<cut])
        if let bbox { writeBBoxMember(bbox) }
        if let crs { writeCRSMember(crs) }
        bytes.append(contentsOf: inner.bytes[cut...])
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

    /// - Parameter sink: receives the text in pieces, in order.
    public init(flushThreshold: Int = 1 << 16, bbox: [Double]? = nil, sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        self.flushThreshold = flushThreshold
        writer.raw("{\"type\":\"FeatureCollection\"")
        if let bbox { writer.writeBBoxMember(bbox) }
        writer.raw(",\"features\":[")
    }

    public mutating func write(_ feature: GeoFeature) throws {
        if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        writer.writeFeature(feature)
        count += 1
        if writer.bytes.count >= flushThreshold { try flush() }
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
