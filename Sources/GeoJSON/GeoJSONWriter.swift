import GeoModel
import JSON

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
public typealias GeoJSONWriter = JSONWriter

extension JSONWriter {
    /// A feature id: a string or a number.
    public mutating func writeFeatureID(_ id: FeatureID) { makeUnique(); appendFeatureID(id) }

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
    public mutating func writeGeometry(_ g: Geometry) {
        makeUnique()
        writeGeometry(g, bbox: nil, crs: nil)
    }

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
                writeGeometry(m, bbox: nil, crs: nil)
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

    mutating func appendFeatureID(_ id: FeatureID) {
        switch id {
        case .string(let s): appendString(s)
        case .int(let i): appendInteger(i)
        case .uint(let u): appendUnsigned(u)
        case .double(let d): appendNumber(d, compactIntegers: false)
        }
    }

    /// A Feature object (RFC 7946 §3.2).
    public mutating func writeFeature(_ f: GeoFeature) {
        makeUnique()
        writeFeature(f, bbox: nil, crs: nil)
    }

    /// A Feature with optional top-level members written after its `type`.
    mutating func writeFeature(_ f: GeoFeature, bbox: [Double]?, crs: PropertyValue?) {
        raw("{\"type\":\"Feature\"")
        if let box = bbox ?? f.bbox { writeBBoxMember(box) }
        if let crs { writeCRSMember(crs) }
        if let id = f.id {
            raw(",\"id\":")
            appendFeatureID(id)
        }
        raw(",\"geometry\":")
        if let g = f.geometry { writeGeometry(g, bbox: nil, crs: nil) } else { raw("null") }
        raw(",\"properties\":")
        if let p = f.properties { appendObject(p) } else { raw("null") }
        if let foreign = f.foreignMembers {
            for i in 0..<foreign.count {
                put(UInt8(ascii: ","))
                appendString(foreign.keys[i])
                put(UInt8(ascii: ":"))
                appendValue(foreign.values[i])
            }
        }
        put(UInt8(ascii: "}"))
    }

    /// Any GeoJSON object, with an optional top-level `bbox` (RFC 7946 §5) and `crs` (the
    /// obsolete member is written back as read, so nothing read is lost; RFC 7946 §4).
    public mutating func write(_ object: GeoObject, bbox: [Double]? = nil, crs: PropertyValue? = nil) {
        makeUnique()
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
            fs.withUnsafeBufferPointer { features in
                for i in features.indices {
                    if i > 0 { put(UInt8(ascii: ",")) }
                    writeFeature(features[i], bbox: nil, crs: nil)
                }
            }
            raw("]}")
        }
    }

    mutating func writeBBoxMember(_ bbox: [Double]) {
        raw(",\"bbox\":[")
        for (i, v) in bbox.enumerated() {
            if i > 0 { put(UInt8(ascii: ",")) }
            appendNumber(v)
        }
        put(UInt8(ascii: "]"))
    }

    mutating func writeCRSMember(_ crs: PropertyValue) {
        raw(",\"crs\":")
        appendValue(crs)
    }

    /// The text of a document.
    public static func encode(_ document: GeoJSONDocument) -> [UInt8] {
        var w = GeoJSONWriter()
        w.write(document.object, bbox: document.bbox, crs: document.crs)
        return w.bytes
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
        writer.makeUnique()
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
        writer.makeUnique()
        writer.raw("]}\n")
        try flush()
    }
}
