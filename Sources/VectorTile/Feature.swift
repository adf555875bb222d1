import PBF

/// One feature (MVT 2.1 §4.2), a view into its layer's bytes.
///
/// The id and type are read when the view is made (one scan of the feature message); tags
/// and geometry are decoded only when iterated, straight from the bytes.
public struct Feature {
    /// The feature message.
    public let message: PBFReader
    /// Whether an `id` field is present (an absent id differs from id 0, B5).
    public let hasID: Bool
    public let id: UInt64
    /// The raw `type` field; nil when absent (B2).
    public let rawType: UInt64?
    /// Number of `geometry` records (more than one is B9), and of `tags` records.
    public let geometryRecords: Int
    public let tagRecords: Int
    /// The first wire-format problem met while scanning the feature, if any.
    public let scanError: MVTError?
    let keyCount: Int
    let valueCount: Int

    /// Offset of the feature message in the tile.
    public var offset: Int { message.absoluteStart }

    /// Geometry types (§4.3.4).
    public enum GeometryType: UInt64, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    /// The geometry type; `.unknown` when absent; nil for a value outside 0...3 (B3).
    public var type: GeometryType? { GeometryType(rawValue: rawType ?? 0) }

    init(_ reader: PBFReader, layer: Layer) {
        var r = reader
        var hasID = false, id: UInt64 = 0, type: UInt64? = nil
        var geometry = 0, tags = 0
        var scanError: MVTError? = nil
        scan: while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            do throws(PBFError) {
                let (field, wire) = try r.readKey()
                switch (field, wire) {
                case (1, .varint): hasID = true; id = try r.readVarint()
                case (3, .varint): type = try r.readVarint()
                case (2, .lengthDelimited), (2, .varint): tags += 1; try r.skip(wire)
                case (4, .lengthDelimited), (4, .varint): geometry += 1; try r.skip(wire)
                case (1, _), (2, _), (3, _), (4, _):
                    scanError = .wrongWireType(message: "Feature", field: field, wireType: wire.rawValue,
                                               offset: keyOffset)
                    break scan
                default: try r.skip(wire)
                }
            } catch {
                scanError = .malformed(error)
                break scan
            }
        }
        self.message = reader
        self.hasID = hasID
        self.id = id
        self.rawType = type
        self.geometryRecords = geometry
        self.tagRecords = tags
        self.scanError = scanError
        self.keyCount = layer.keys.count
        self.valueCount = layer.values.count
    }

    /// The packed (or unpacked, P7) uint32 values of `tags` (field 2), across every record.
    public var tagStream: PackedUInt32Stream { PackedUInt32Stream(message, field: 2) }
    /// The packed (or unpacked) uint32 values of `geometry` (field 4), across every record.
    public var geometryStream: PackedUInt32Stream { PackedUInt32Stream(message, field: 4) }

    /// Calls `body` with each (key index, value index) pair, checking that the list has
    /// even length (B6) and that every index is in range (B7).
    ///
    /// - Complexity: O(tags); allocates nothing.
    public func forEachTag(_ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var s = tagStream
        while let k = try s.next() {
            let at = s.lastOffset
            guard let v = try s.next() else { throw .oddTagCount(offset: at) }
            guard Int(k) < keyCount else { throw .tagIndexOutOfRange(index: k, offset: at) }
            guard Int(v) < valueCount else { throw .tagIndexOutOfRange(index: v, offset: s.lastOffset) }
            body(Int(k), Int(v))
        }
    }
}

/// The uint32 values of one repeated field of a message, whether packed (wire type 2) or
/// not (wire type 0), concatenated across all its records (P7, B9). Values beyond 32 bits
/// are truncated as protobuf does (P10, C1).
///
/// - Complexity: `next()` is amortised O(1); nothing allocates.
public struct PackedUInt32Stream {
    var outer: PBFReader
    var inner: PBFReader?
    let field: UInt32
    /// Offset of the value `next()` last returned.
    public private(set) var lastOffset: Int = 0

    init(_ message: PBFReader, field: UInt32) {
        self.outer = message
        self.field = field
    }

    /// The next value, or nil at the end of the message.
    public mutating func next() throws(MVTError) -> UInt32? {
        while true {
            if inner != nil {
                if !inner!.isAtEnd {
                    lastOffset = inner!.absoluteOffset
                    return try pbf { () throws(PBFError) in try inner!.readUInt32() }
                }
                inner = nil
            }
            guard !outer.isAtEnd else { return nil }
            let (f, wire) = try pbf { () throws(PBFError) in try outer.readKey() }
            if f == field && wire == .lengthDelimited {
                inner = try pbf { () throws(PBFError) in try outer.readLengthDelimited() }
            } else if f == field && wire == .varint {
                lastOffset = outer.absoluteOffset
                return try pbf { () throws(PBFError) in try outer.readUInt32() }
            } else {
                try pbf { () throws(PBFError) in try outer.skip(wire) }
            }
        }
    }

    /// True when no value is left.
    public mutating func isEmpty() throws(MVTError) -> Bool {
        var copy = self
        return try copy.next() == nil
    }
}
