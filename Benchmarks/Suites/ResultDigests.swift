import BenchKit
import GeoJSON
import GeoModel
import TileCover

/// A JSON value as the GeoJSON digest sees it: numbers are doubles (an integer property is
/// its double value), objects are unordered.
public indirect enum DigestValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DigestValue])
    case object([(key: String, value: DigestValue)])

    public static func == (a: DigestValue, b: DigestValue) -> Bool {
        var x: [UInt8] = [], y: [UInt8] = []
        a.encode(into: &x)
        b.encode(into: &y)
        return x == y
    }

    /// A GeoModel property value.
    public init(_ value: PropertyValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .uint(let u): self = .number(Double(u))
        case .double(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(DigestValue.init))
        case .object(let o): self = .object(o.map { ($0.key, DigestValue($0.value)) })
        }
    }

    /// The value as text for a located element (JSON-like; object members sorted by key).
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return "\(d)"
        case .string(let s): return s.debugDescription
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
                .map { $0.key.debugDescription + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }

    /// The value's bytes in the digest (see the ResultDigests article).
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(0x6E)
        case .bool(let b): out.append(b ? 0x74 : 0x66)
        case .number(let d):
            out.append(0x64)
            ResultDigests.append(d, to: &out)
        case .string(let s):
            out.append(0x73)
            ResultDigests.append(s, to: &out)
        case .array(let a):
            out.append(0x61)
            ResultDigests.append(UInt32(truncatingIfNeeded: a.count), to: &out)
            for v in a { v.encode(into: &out) }
        case .object(let members):
            out.append(0x6F)
            ResultDigests.append(UInt32(truncatingIfNeeded: members.count), to: &out)
            for m in members.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
                ResultDigests.append(m.key, to: &out)
                m.value.encode(into: &out)
            }
        }
    }
}

/// What a GeoJSON parser read, reduced to a `ResultDigest`: counts `features`,
/// `positions` and `properties`, and one checksum over every position and every property
/// (of every feature, in any order).
///
/// Made with `recording`, it also keeps every element with its place (feature index,
/// position index within the feature, property name) for ``located``: how a mismatch names
/// the first element that differs.
public struct GeoJSONDigest: Sendable {
    private var accumulator = ResultDigest.Accumulator(counts: ["features", "positions", "properties"])
    private var scratch: [UInt8] = []
    private var recorded: [String]?
    private var featureIndex = -1
    private var positionIndex = 0

    public init(recording: Bool = false) {
        if recording { recorded = [] }
    }

    /// With `recording`: every element as `LOCATION<tab>VALUE`, sorted (locations sort in
    /// document order); empty otherwise.
    public var located: [String] { (recorded ?? []).sorted() }

    private var place: String {
        featureIndex < 0 ? "document" : "feature " + ResultDigests.padded(featureIndex)
    }

    /// One feature (a Feature object, on its own or in a collection).
    public mutating func feature() {
        accumulator.count(0)
        featureIndex += 1
        positionIndex = 0
    }

    /// One position of any geometry (altitude and further values are not part of the digest).
    public mutating func position(_ x: Double, _ y: Double) {
        if recorded != nil {
            recorded!.append("\(place) position \(ResultDigests.padded(positionIndex))\t\(x) \(y)")
            positionIndex += 1
        }
        accumulator.count(1)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x63)
        ResultDigests.append(x, to: &scratch)
        ResultDigests.append(y, to: &scratch)
        accumulator.add(element: scratch)
    }

    /// One member of a feature's `properties`.
    public mutating func property(_ key: String, _ value: DigestValue) {
        if recorded != nil { recorded!.append("\(place) properties.\(key)\t\(value.text)") }
        accumulator.count(2)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x70)
        ResultDigests.append(key, to: &scratch)
        value.encode(into: &scratch)
        accumulator.add(element: scratch)
    }

    public var digest: ResultDigest { accumulator.digest }
}

/// What a vector tile decoder read, reduced to a `ResultDigest`: counts `layers`,
/// `features`, `vertices` and `properties`; elements: each feature (`f`, its layer's name,
/// whether it has an id and the id, its geometry type, its vertex count), each vertex
/// (`v`, x and y as 8-byte integers, in tile coordinates after the commands are applied) and
/// each tag (`p`, layer name, key, value; integers as doubles).
///
/// In `mode=validating` the digest also counts `rejected`: the tiles the implementation
/// refuses (an error finding, a thrown tile); only the accepted tiles' content is digested.
public struct MVTDigest: Sendable {
    private var accumulator: ResultDigest.Accumulator
    private var scratch: [UInt8] = []

    /// - Parameter validating: add the `rejected` count (mode `validating`).
    private var recorded: [String]?
    private var layerIndex = -1, featureIndex = -1, vertexIndex = 0, rejectedTiles = 0

    /// - Parameters:
    ///   - validating: add the `rejected` count (mode `validating`).
    ///   - recording: also keep every element with its place (layer index in the dataset,
    ///     feature index in the layer, vertex index) for ``located``.
    public init(validating: Bool = false, recording: Bool = false) {
        accumulator = ResultDigest.Accumulator(counts: ["layers", "features", "vertices", "properties"]
            + (validating ? ["rejected"] : []))
        if recording { recorded = [] }
    }

    /// With `recording`: every element as `LOCATION<tab>VALUE`, sorted; empty otherwise.
    public var located: [String] { (recorded ?? []).sorted() }

    private var place: String {
        "layer \(ResultDigests.padded(layerIndex)) feature \(ResultDigests.padded(featureIndex))"
    }

    /// One tile refused (mode `validating` only).
    public mutating func rejected() {
        accumulator.count(4)
        rejectedTiles += 1
        if recorded != nil { recorded!.append("rejected tile \(ResultDigests.padded(rejectedTiles))\tafter layer \(layerIndex)") }
    }

    /// One layer.
    public mutating func layer() {
        accumulator.count(0)
        layerIndex += 1
        featureIndex = -1
    }

    /// One feature. `type` is the MVT geometry type (0 unknown, 1 point, 2 line, 3 polygon).
    public mutating func feature(layer: String, id: UInt64?, type: UInt8, vertices: Int) {
        featureIndex += 1
        vertexIndex = 0
        if recorded != nil {
            recorded!.append("\(place)\tlayer \(layer.debugDescription) id \(id.map(String.init) ?? "none") type \(type) vertices \(vertices)")
        }
        accumulator.count(1)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x66)
        ResultDigests.append(layer, to: &scratch)
        scratch.append(id == nil ? 0 : 1)
        withUnsafeBytes(of: (id ?? 0).littleEndian) { scratch.append(contentsOf: $0) }
        scratch.append(type)
        ResultDigests.append(UInt32(truncatingIfNeeded: vertices), to: &scratch)
        accumulator.add(element: scratch)
    }

    /// One vertex of a feature's geometry (points, line vertices, ring vertices; a ring's
    /// closing ClosePath adds none).
    public mutating func vertex(x: Int64, y: Int64) {
        if recorded != nil {
            recorded!.append("\(place) vertex \(ResultDigests.padded(vertexIndex))\t\(x) \(y)")
            vertexIndex += 1
        }
        accumulator.count(2)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x76)
        withUnsafeBytes(of: x.littleEndian) { scratch.append(contentsOf: $0) }
        withUnsafeBytes(of: y.littleEndian) { scratch.append(contentsOf: $0) }
        accumulator.add(element: scratch)
    }

    /// One tag of a feature.
    public mutating func property(layer: String, key: String, value: DigestValue) {
        if recorded != nil { recorded!.append("\(place) tag \(key)\t\(value.text)") }
        accumulator.count(3)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x70)
        ResultDigests.append(layer, to: &scratch)
        ResultDigests.append(key, to: &scratch)
        value.encode(into: &scratch)
        accumulator.add(element: scratch)
    }

    public var digest: ResultDigest { accumulator.digest }
}

/// The result digests of the operations the `Workloads` protocols describe.
public enum ResultDigests {
    /// Tiles as a cover returns them (a multiset: a tile listed twice counts twice), with the
    /// tiles as sorted `z/x/y` text so a mismatch names the first tile that differs.
    public static func tiles(_ lists: [[TileID]]) -> ResultCheck {
        var acc = ResultDigest.Accumulator(counts: ["tiles"])
        var bytes: [UInt8] = []
        var names: [String] = []
        for list in lists {
            for t in list {
                acc.count(0)
                bytes.removeAll(keepingCapacity: true)
                bytes.append(0x74)
                bytes.append(t.z)
                append(t.x, to: &bytes)
                append(t.y, to: &bytes)
                acc.add(element: bytes)
                names.append(t.description)
            }
        }
        return ResultCheck(digest: acc.digest, elements: names.sorted())
    }

    /// The values of a packed varint stream (`pbf.varint.decode`): count `values`, each
    /// value an element `v` + its 8 bytes, little-endian; located as `value NNNNNNNN<tab>V`
    /// in stream order.
    public static func varints(_ values: [UInt64]) -> ResultCheck {
        var acc = ResultDigest.Accumulator(counts: ["values"])
        var bytes: [UInt8] = []
        for v in values {
            acc.count(0)
            bytes.removeAll(keepingCapacity: true)
            bytes.append(0x76)
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
            acc.add(element: bytes)
        }
        return ResultCheck(digest: acc.digest,
                           locatedElements: { values.enumerated().map { "value \(padded($0.offset))\t\($0.element)" } })
    }

    /// A camera's tiles: each tile with its world copy (`wrap`) and overscaled zoom.
    public static func cameraTiles(_ tiles: [CameraTile]) -> ResultCheck {
        var acc = ResultDigest.Accumulator(counts: ["tiles"])
        var bytes: [UInt8] = []
        for t in tiles {
            acc.count(0)
            bytes.removeAll(keepingCapacity: true)
            bytes.append(0x77)
            bytes.append(t.tile.z)
            append(t.tile.x, to: &bytes)
            append(t.tile.y, to: &bytes)
            append(UInt32(bitPattern: Int32(truncatingIfNeeded: t.wrap)), to: &bytes)
            bytes.append(UInt8(truncatingIfNeeded: t.overscaledZ))
            acc.add(element: bytes)
        }
        return ResultCheck(digest: acc.digest, elements: tiles.map(\.description).sorted())
    }

    /// A GeoModel document, as graticule's parser reads it.
    public static func geoJSON(_ object: GeoObject) -> ResultDigest {
        var d = GeoJSONDigest()
        geoJSON(object, into: &d)
        return d.digest
    }

    /// A GeoModel document's located elements (see ``GeoJSONDigest/located``).
    public static func geoJSONLocated(_ object: GeoObject) -> [String] {
        var d = GeoJSONDigest(recording: true)
        geoJSON(object, into: &d)
        return d.located
    }

    /// The digest of a text read in column batches, from the columns (no `GeoFeature`
    /// is built).
    public static func geoJSON(batchesOf bytes: [UInt8], options: GeoJSONReadOptions) throws -> ResultDigest {
        var d = GeoJSONDigest()
        try geoJSON(batchesOf: bytes, options: options, into: &d)
        return d.digest
    }

    /// The located elements of a text read in column batches.
    public static func geoJSONLocated(batchesOf bytes: [UInt8], options: GeoJSONReadOptions) throws -> [String] {
        var d = GeoJSONDigest(recording: true)
        try geoJSON(batchesOf: bytes, options: options, into: &d)
        return d.located
    }

    static func geoJSON(batchesOf bytes: [UInt8], options: GeoJSONReadOptions, into d: inout GeoJSONDigest) throws {
        let reader = GeoJSONBatchReader(bytes: bytes, options: options)
        var b = GeoJSONFeatureBatch()
        while try reader.next(into: &b) {
            for i in 0..<b.count {
                d.feature()
                // Geometry entries in order: a collection's members follow it.
                for g in b.featureGeometryOffsets[i]..<b.featureGeometryOffsets[i + 1] {
                    for p in b.geometryPositionOffsets[g]..<b.geometryPositionOffsets[g + 1] {
                        d.position(b.coordinates[p * b.dimensions], b.coordinates[p * b.dimensions + 1])
                    }
                }
                guard b.hasProperties[i] else { continue }
                for m in b.memberOffsets[i]..<b.memberOffsets[i + 1] {
                    let c = Int(b.memberColumns[m])
                    if c >= 0 {
                        d.property(b.columns[c].name, DigestValue(b.columns[c].value(at: i) ?? .null))
                    } else {
                        let r = b.repeatedMembers[-1 - c]
                        d.property(r.name, DigestValue(r.value))
                    }
                }
            }
        }
    }

    /// `n` with leading zeros to 8 digits, so that places sort as numbers.
    static func padded(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 8 ? s : String(repeating: "0", count: 8 - s.count) + s
    }

    static func geoJSON(_ object: GeoObject, into d: inout GeoJSONDigest) {
        func geometry(_ g: Geometry) {
            for i in 0..<g.positionCount { d.position(g.x(i), g.y(i)) }
            for member in g.geometries { geometry(member) }
        }
        func feature(_ f: GeoFeature) {
            d.feature()
            if let g = f.geometry { geometry(g) }
            for p in f.properties ?? PropertyList() { d.property(p.key, DigestValue(p.value)) }
        }
        switch object {
        case .geometry(let g): geometry(g)
        case .feature(let f): feature(f)
        case .featureCollection(let fs): fs.forEach(feature)
        }
    }

    static func append(_ v: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    /// A double's IEEE 754 bits, little-endian; -0 is written as +0.
    static func append(_ d: Double, to out: inout [UInt8]) {
        withUnsafeBytes(of: (d == 0 ? 0 : d).bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }

    /// A string as its UTF-8 length (4 bytes, little-endian) and bytes.
    static func append(_ s: String, to out: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: s.utf8.count), to: &out)
        out.append(contentsOf: s.utf8)
    }
}
