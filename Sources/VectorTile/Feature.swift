import PBF

/// One feature (MVT 2.1 §4.2), a view into its layer's bytes.
///
/// The id and type are read when the view is made (one scan of the feature message); tags
/// and geometry are decoded only when iterated, straight from the bytes.
public struct Feature {
    /// The feature message.
    public let message: PBFReader
    /// The `id` field; 0 when absent (tell the two apart with `hasID`).
    public let id: UInt64
    @usableFromInline let _rawType: UInt64
    /// Whether an `id` field is present (an absent id differs from id 0, B5).
    public let hasID: Bool
    @usableFromInline let _hasType: Bool
    @usableFromInline let _scanFailed: Bool
    /// Record counts and offsets within the message, kept in 32 bits (a message is shorter
    /// than 2^31 bytes, P14) so a feature view stays small enough to pass in registers and
    /// on the stack without block copies.
    @usableFromInline let _geometryRecords: Int32
    @usableFromInline let _tagRecords: Int32
    @usableFromInline let keyCount: Int32
    @usableFromInline let valueCount: Int32
    /// The payload of the first tags / geometry record when that record is packed; when it
    /// is an unpacked value (P7), `…PayloadStart` is −1 and `…PayloadEnd` is where its key
    /// starts, so the streams start there instead of rescanning.
    @usableFromInline let tagPayloadStart: Int32
    @usableFromInline let tagPayloadEnd: Int32
    @usableFromInline let geometryPayloadStart: Int32
    @usableFromInline let geometryPayloadEnd: Int32

    /// The raw `type` field; nil when absent (B2).
    @inlinable public var rawType: UInt64? { _hasType ? _rawType : nil }
    /// Number of `geometry` records (more than one is B9), and of `tags` records.
    @inlinable public var geometryRecords: Int { Int(_geometryRecords) }
    @inlinable public var tagRecords: Int { Int(_tagRecords) }

    /// The first wire-format problem met while scanning the feature, if any. Found again by
    /// a rescan when asked, so a feature view stays a plain value with nothing to release.
    public var scanError: MVTError? {
        _scanFailed ? Feature._firstScanError(message) : nil
    }

    /// Offset of the feature message in the tile.
    public var offset: Int { message.absoluteStart }

    /// Geometry types (§4.3.4).
    public enum GeometryType: UInt64, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    /// The geometry type; `.unknown` when absent; nil for a value outside 0...3 (B3).
    @inlinable @inline(__always)
    public var type: GeometryType? { GeometryType(rawValue: _hasType ? _rawType : 0) }

    /// Scans the feature message. (Inlined into the layer's feature walk; messages off the
    /// fast path go to `_scanned`.) Always inlined rather than `@_transparent`: with PBF's
    /// kernels in another module, the transparent form cost 0.3–1.7% more validating
    /// instructions than when they were this module's; this form costs 0.1–0.5% more
    /// validating and 0.9–2.7% fewer tolerant instructions than that one (callgrind, nine
    /// tile sets).
    @inlinable @inline(__always)
    init(_ reader: PBFReader, keyCount: Int, valueCount: Int) {
        var hasID = false, id: UInt64 = 0, hasType = false, type: UInt64 = 0
        var tagStart: Int32 = -1, tagEnd: Int32 = 0, geometryStart: Int32 = -1, geometryEnd: Int32 = 0
        // Fast path: a message made of the four fields with their usual one-byte keys, in
        // any order, with at most one tags and one geometry record (what encoders write), is
        // scanned with raw loads and no record counting. Anything else, or anything
        // malformed, is scanned again by `_scanned`.
        var fast = false
        if let b = reader.bytes.baseAddress {
            let n = reader.bytes.count
            var p = 0
            fast = true
            // Straight-line reads in the orders encoders use (type, geometry, id, tags, or
            // type, tags, geometry), each field optional; what is left, if anything, goes
            // on the loop below with the same state.
            ordered: do {
                // Safe: every load is at an offset below n.
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x18 {
                    p &+= 1
                    guard let v = _rawVarint(b, &p, n) else { fast = false; break ordered }
                    hasType = true; type = v
                }
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x12 {
                    p &+= 1
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break ordered }
                    tagStart = start; tagEnd = end
                }
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x22 {
                    p &+= 1
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break ordered }
                    geometryStart = start; geometryEnd = end
                }
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x08 {
                    p &+= 1
                    guard let v = _rawVarint(b, &p, n) else { fast = false; break ordered }
                    hasID = true; id = v
                }
                if tagStart < 0 && p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x12 {
                    p &+= 1
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break ordered }
                    tagStart = start; tagEnd = end
                }
            }
            scan: while fast && p < n {
                // Safe: p < n.
                let key = b.load(fromByteOffset: p, as: UInt8.self)
                p &+= 1
                switch key {
                case 0x12, 0x22:
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break scan }
                    if key == 0x12 {
                        guard tagStart < 0 else { fast = false; break scan }
                        tagStart = start; tagEnd = end
                    } else {
                        guard geometryStart < 0 else { fast = false; break scan }
                        geometryStart = start; geometryEnd = end
                    }
                case 0x08:
                    guard let v = _rawVarint(b, &p, n) else { fast = false; break scan }
                    hasID = true; id = v
                case 0x18:
                    guard let v = _rawVarint(b, &p, n) else { fast = false; break scan }
                    hasType = true; type = v
                default:
                    fast = false
                    break scan
                }
            }
        }
        guard fast else {
            self = Feature._scanned(reader, keyCount: keyCount, valueCount: valueCount)
            return
        }
        self.init(message: reader, hasID: hasID, id: id, hasType: hasType, type: type,
                  geometryRecords: geometryStart >= 0 ? 1 : 0, tagRecords: tagStart >= 0 ? 1 : 0, failed: false,
                  keyCount: keyCount, valueCount: valueCount,
                  tags: (tagStart, tagEnd), geometry: (geometryStart, geometryEnd))
    }

    /// The general scan of `init`: any field order, repeated and unpacked records, unknown
    /// fields, and malformed messages (which set `_scanFailed`).
    @usableFromInline @inline(never)
    static func _scanned(_ reader: PBFReader, keyCount: Int, valueCount: Int) -> Feature {
        var hasID = false, id: UInt64 = 0, hasType = false, type: UInt64 = 0
        var geometry: Int32 = 0, tags: Int32 = 0
        var tagStart: Int32 = -1, tagEnd: Int32 = 0, geometryStart: Int32 = -1, geometryEnd: Int32 = 0
        var failed = false
        var r = reader
        scan: while !r.isAtEnd {
            let local = Int32(truncatingIfNeeded: r.offset)
            do throws(PBFError) {
                let (field, wire) = try r.readKey()
                switch (field, wire) {
                case (1, .varint): hasID = true; id = try r.readVarint()
                case (3, .varint): hasType = true; type = try r.readVarint()
                case (2, .lengthDelimited):
                    let length = try r.readLength()
                    if tags == 0 {
                        tagStart = Int32(truncatingIfNeeded: r.offset)
                        tagEnd = Int32(truncatingIfNeeded: r.offset &+ length)
                    }
                    r.advance(by: length)
                    tags &+= 1
                case (4, .lengthDelimited):
                    let length = try r.readLength()
                    if geometry == 0 {
                        geometryStart = Int32(truncatingIfNeeded: r.offset)
                        geometryEnd = Int32(truncatingIfNeeded: r.offset &+ length)
                    }
                    r.advance(by: length)
                    geometry &+= 1
                case (2, .varint):
                    if tags == 0 { tagStart = -1; tagEnd = local }
                    tags &+= 1
                    try r.skip(wire)
                case (4, .varint):
                    if geometry == 0 { geometryStart = -1; geometryEnd = local }
                    geometry &+= 1
                    try r.skip(wire)
                case (1, _), (2, _), (3, _), (4, _):
                    failed = true
                    break scan
                default: try r.skip(wire)
                }
            } catch {
                failed = true
                break scan
            }
        }
        return Feature(message: reader, hasID: hasID, id: id, hasType: hasType, type: type,
                       geometryRecords: geometry, tagRecords: tags, failed: failed,
                       keyCount: keyCount, valueCount: valueCount,
                       tags: (tagStart, tagEnd), geometry: (geometryStart, geometryEnd))
    }

    @inlinable @inline(__always)
    init(message: PBFReader, hasID: Bool, id: UInt64, hasType: Bool, type: UInt64,
         geometryRecords: Int32, tagRecords: Int32, failed: Bool, keyCount: Int, valueCount: Int,
         tags: (Int32, Int32), geometry: (Int32, Int32))
    {
        self.message = message
        self.hasID = hasID
        self.id = id
        self._hasType = hasType
        self._rawType = type
        self._geometryRecords = geometryRecords
        self._tagRecords = tagRecords
        self._scanFailed = failed
        self.keyCount = Int32(truncatingIfNeeded: keyCount)
        self.valueCount = Int32(truncatingIfNeeded: valueCount)
        self.tagPayloadStart = tags.0
        self.tagPayloadEnd = tags.1
        self.geometryPayloadStart = geometry.0
        self.geometryPayloadEnd = geometry.1
    }

    /// The message's bytes from `start` to `end`, as a reader.
    @inlinable @inline(__always)
    func _sub(_ start: Int32, _ end: Int32) -> PBFReader {
        message.slice(Int(start), Int(end))
    }

    /// The error the initialiser's scan stopped at: a known field with the wrong wire type
    /// (P5) or malformed protobuf.
    static func _firstScanError(_ reader: PBFReader) -> MVTError? {
        var r = reader
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            do throws(PBFError) {
                let (field, wire) = try r.readKey()
                switch (field, wire) {
                case (1, .varint), (3, .varint), (2, .varint), (4, .varint), (2, .lengthDelimited), (4, .lengthDelimited):
                    try r.skip(wire)
                case (1, _), (2, _), (3, _), (4, _):
                    return .wrongWireType(message: "Feature", field: field, wireType: wire.rawValue, offset: keyOffset)
                default:
                    try r.skip(wire)
                }
            } catch {
                return .malformed(error)
            }
        }
        return nil
    }

    /// The packed (or unpacked, P7) uint32 values of `tags` (field 2), across every record.
    @inlinable
    public var tagStream: PackedUInt32Stream {
        if tagPayloadStart >= 0 {
            // With one record there is nothing after it to look for.
            let rest = _tagRecords == 1 ? message.bytes.count : Int(tagPayloadEnd)
            return PackedUInt32Stream(message.positioned(at: rest), field: 2,
                                      current: _sub(tagPayloadStart, tagPayloadEnd))
        }
        // No record, or a first record that is an unpacked value (its key at tagPayloadEnd).
        return PackedUInt32Stream(message.positioned(at: _tagRecords == 0 ? message.bytes.count : Int(tagPayloadEnd)),
                                  field: 2)
    }
    /// The packed (or unpacked) uint32 values of `geometry` (field 4), across every record.
    @inlinable @inline(__always)
    public var geometryStream: PackedUInt32Stream {
        if geometryPayloadStart >= 0 {
            let rest = _geometryRecords == 1 ? message.bytes.count : Int(geometryPayloadEnd)
            return PackedUInt32Stream(message.positioned(at: rest), field: 4,
                                      current: _sub(geometryPayloadStart, geometryPayloadEnd))
        }
        return PackedUInt32Stream(message.positioned(at: _geometryRecords == 0 ? message.bytes.count : Int(geometryPayloadEnd)),
                                  field: 4)
    }
}
