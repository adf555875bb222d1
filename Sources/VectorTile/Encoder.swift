import GeoModel
import PBF

/// Why a feature cannot be encoded.
public enum MVTEncodingError: Error, Equatable, Sendable {
    /// A coordinate, rounded to an integer, falls outside the 32-bit range the geometry
    /// encoding can express (§4.3.2).
    case coordinateOutOfRange(Double)
    /// Nothing is left of the geometry after dropping repeated positions and degenerate
    /// parts (a line needs two distinct positions, a ring three and a non-zero area).
    case emptyGeometry
    /// MVT 2.1 values are scalars (§4.1): an array or object property cannot be written.
    case nestedPropertyValue(key: String)
    /// A geometry collection has no MVT geometry type (§4.3.4); add its members as
    /// separate features.
    case geometryCollection
}

/// Builds a vector tile (MVT 2.1) from GeoModel geometries in tile coordinates (0...extent
/// across the tile, y down).
///
/// - Layers are written in the order they were first used; each gets `version` 2 first
///   (§4.1), then its features, keys, values and extent.
/// - Keys and values are deduplicated per layer (§4.1).
/// - Coordinates are rounded to integers (§4.3.2). Repeated consecutive positions are
///   dropped, so no LineTo has a zero delta (§4.3.3.2); rings are written without their
///   closing position (§4.3.3.3).
/// - Ring winding follows §4.3.4.4 whatever the input's: exterior rings get a positive area
///   (clockwise on screen), holes a negative one; degenerate rings are dropped.
/// - Property types: string, double, bool; signed integers as `sint_value`, unsigned as
///   `uint_value`, so decoding gives back the same `PropertyValue`. `null` properties are
///   left out (MVT has no null).
///
/// - Complexity: O(positions + properties) per feature; `encode()` is O(tile size).
public struct MVTEncoder {
    struct LayerState {
        var name: String
        var extent: UInt32
        var keys: [String] = []
        var keyIndex: [String: UInt32] = [:]
        var values: [[UInt8]] = []
        var valueIndex: [PropertyValue: UInt32] = [:]
        var features = PBFWriter()
    }

    var layers: [LayerState] = []
    var layerIndex: [String: Int] = [:]
    // Scratch storage reused by every feature, so adding a feature allocates nothing once
    // the buffers have grown (new keys and values excepted).
    var points: [(Int32, Int32)] = []
    var ring: [(Int32, Int32)] = []
    var commandWriter = _CommandWriter()
    var tags: [UInt32] = []
    var featureWriter = PBFWriter()
    var packedWriter = PBFWriter()

    public init() {}

    /// Adds a feature to the named layer (created with `extent` on first use).
    ///
    /// - Throws: `MVTEncodingError`; the tile is unchanged when it throws.
    public mutating func addFeature(layer name: String, extent: UInt32 = 4096, id: UInt64? = nil,
                                    geometry: Geometry, properties: [(key: String, value: PropertyValue)] = [])
        throws(MVTEncodingError)
    {
        for (k, v) in properties where v.isNested { throw .nestedPropertyValue(key: k) }
        let type = try encodeCommands(geometry)
        let li: Int
        if let i = layerIndex[name] {
            li = i
        } else {
            layers.append(LayerState(name: name, extent: extent))
            li = layers.count - 1
            layerIndex[name] = li
        }
        tags.removeAll(keepingCapacity: true)
        for (k, v) in properties {
            if case .null = v { continue }
            tags.append(layers[li].key(k))
            tags.append(layers[li].value(v))
        }
        featureWriter.removeAll()
        if let id { featureWriter.writeKey(field: 1, wireType: .varint); featureWriter.writeVarint(id) }
        if !tags.isEmpty {
            packedWriter.removeAll()
            for v in tags { packedWriter.writeVarint(UInt64(v)) }
            featureWriter.writeKey(field: 2, wireType: .lengthDelimited)
            featureWriter.writeLengthDelimited(packedWriter.bytes)
        }
        featureWriter.writeKey(field: 3, wireType: .varint); featureWriter.writeVarint(type)
        packedWriter.removeAll()
        for c in commandWriter.values { packedWriter.writeVarint(UInt64(c)) }
        featureWriter.writeKey(field: 4, wireType: .lengthDelimited)
        featureWriter.writeLengthDelimited(packedWriter.bytes)
        layers[li].features.writeKey(field: 2, wireType: .lengthDelimited)
        layers[li].features.writeLengthDelimited(featureWriter.bytes)
    }

    /// The tile's bytes.
    public func encode() -> [UInt8] {
        var w = PBFWriter()
        for l in layers {
            var lw = PBFWriter()
            lw.writeKey(field: 15, wireType: .varint); lw.writeVarint(2)
            lw.writeKey(field: 1, wireType: .lengthDelimited); lw.writeLengthDelimited(Array(l.name.utf8))
            lw.writeRaw(l.features.bytes)
            for k in l.keys { lw.writeKey(field: 3, wireType: .lengthDelimited); lw.writeLengthDelimited(Array(k.utf8)) }
            for v in l.values { lw.writeKey(field: 4, wireType: .lengthDelimited); lw.writeLengthDelimited(v) }
            lw.writeKey(field: 5, wireType: .varint); lw.writeVarint(UInt64(l.extent))
            w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(lw.bytes)
        }
        return w.bytes
    }

    static func encodeValue(_ v: PropertyValue) -> [UInt8]? {
        var w = PBFWriter()
        switch v {
        case .null, .array, .object: return nil
        case .string(let s): w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array(s.utf8))
        case .double(let d): w.writeKey(field: 3, wireType: .fixed64); w.writeDouble(d)
        case .int(let i): w.writeKey(field: 6, wireType: .varint); w.writeSInt64(i)
        case .uint(let u): w.writeKey(field: 5, wireType: .varint); w.writeVarint(u)
        case .bool(let b): w.writeKey(field: 7, wireType: .varint); w.writeVarint(b ? 1 : 0)
        }
        return w.bytes
    }

    /// The geometry type and command integers of a geometry (§4.3).
    static func commands(for g: Geometry) throws(MVTEncodingError) -> (UInt64, [UInt32]) {
        var e = MVTEncoder()
        let type = try e.encodeCommands(g)
        return (type, e.commandWriter.values)
    }

    /// Writes the geometry's command integers into `commandWriter` and returns its type.
    mutating func encodeCommands(_ g: Geometry) throws(MVTEncodingError) -> UInt64 {
        points.removeAll(keepingCapacity: true)
        if g.kind == .geometryCollection { throw .geometryCollection }
        for i in 0..<g.positionCount {
            let x = g.x(i).rounded(), y = g.y(i).rounded()
            guard let xi = Int32(exactly: x) else { throw .coordinateOutOfRange(g.x(i)) }
            guard let yi = Int32(exactly: y) else { throw .coordinateOutOfRange(g.y(i)) }
            points.append((xi, yi))
        }
        commandWriter.reset()
        switch g.kind {
        case .point, .multiPoint:
            guard !points.isEmpty else { throw .emptyGeometry }
            commandWriter.command(1, points.count)
            for p in points { commandWriter.to(p) }
            return 1
        case .lineString, .multiLineString:
            for part in 0..<g.partStarts.count {
                loadDeduplicated(g.partRange(part))
                guard ring.count >= 2 else { continue }
                commandWriter.command(1, 1); commandWriter.to(ring[0])
                commandWriter.command(2, ring.count - 1)
                for i in 1..<ring.count { commandWriter.to(ring[i]) }
            }
            guard !commandWriter.values.isEmpty else { throw .emptyGeometry }
            return 2
        case .polygon, .multiPolygon:
            for poly in 0..<g.polygonStarts.count {
                var wroteExterior = false
                for (n, part) in g.polygonRange(poly).enumerated() {
                    loadDeduplicated(g.partRange(part))
                    if ring.count > 1, ring.first! == ring.last! { ring.removeLast() }
                    guard ring.count >= 3 else { continue }
                    // The decoder's overflow-safe area sum decides the winding (§4.3.4.4).
                    var area = _ShoelaceSum()
                    for i in 0..<ring.count {
                        let (x1, y1) = ring[i], (x2, y2) = ring[(i + 1) % ring.count]
                        area.add(Int64(x1), Int64(y1), Int64(x2), Int64(y2))
                    }
                    let kind = area.kind
                    guard kind != .degenerate else { continue }
                    let exterior = n == 0
                    if !exterior && !wroteExterior { continue }
                    // Exterior positive, interior negative (y down). Reverse if needed,
                    // keeping the starting vertex.
                    if (kind == .exterior) != exterior { ring[1...].reverse() }
                    commandWriter.command(1, 1); commandWriter.to(ring[0])
                    commandWriter.command(2, ring.count - 1)
                    for i in 1..<ring.count { commandWriter.to(ring[i]) }
                    commandWriter.command(7, 1)
                    if exterior { wroteExterior = true }
                }
            }
            guard !commandWriter.values.isEmpty else { throw .emptyGeometry }
            return 3
        case .geometryCollection:
            throw .geometryCollection
        }
    }

    /// Copies the positions of `range` into `ring`, dropping consecutive repeats.
    mutating func loadDeduplicated(_ range: Range<Int>) {
        ring.removeAll(keepingCapacity: true)
        for i in range where ring.isEmpty || ring[ring.count - 1] != points[i] { ring.append(points[i]) }
    }
}

extension MVTEncoder.LayerState {
    mutating func key(_ k: String) -> UInt32 {
        if let i = keyIndex[k] { return i }
        keys.append(k)
        keyIndex[k] = UInt32(keys.count - 1)
        return UInt32(keys.count - 1)
    }

    mutating func value(_ v: PropertyValue) -> UInt32 {
        if let i = valueIndex[v] { return i }
        values.append(MVTEncoder.encodeValue(v)!)
        valueIndex[v] = UInt32(values.count - 1)
        return UInt32(values.count - 1)
    }
}

/// Command integers and zigzag deltas from a cursor that starts at (0, 0) (§4.3).
struct _CommandWriter {
    var values: [UInt32] = []
    var x: Int32 = 0, y: Int32 = 0
    mutating func reset() {
        values.removeAll(keepingCapacity: true)
        x = 0; y = 0
    }
    mutating func command(_ id: UInt32, _ count: Int) { values.append(id | UInt32(count) << 3) }
    mutating func to(_ p: (Int32, Int32)) {
        values.append(ZigZag.encode(p.0 &- x))
        values.append(ZigZag.encode(p.1 &- y))
        x = p.0; y = p.1
    }
}
