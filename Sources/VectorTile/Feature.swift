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
    /// The first wire-format problem met while scanning the feature, if any. Found again by
    /// a rescan when asked, so a feature view stays a plain value with nothing to release.
    public var scanError: MVTError? {
        _scanFailed ? Feature._firstScanError(message) : nil
    }
    @usableFromInline let _scanFailed: Bool
    @usableFromInline let keyCount: Int
    @usableFromInline let valueCount: Int
    /// Where the first tags / geometry record starts in the message (its key), or the end
    /// of the message when there is none; the streams start there instead of rescanning.
    @usableFromInline let tagStart: Int
    @usableFromInline let geometryStart: Int
    /// The first packed tags / geometry record and the offset just after it, when the
    /// first record is packed; the streams start inside it.
    @usableFromInline let firstTags: PBFReader?
    @usableFromInline let afterTags: Int
    @usableFromInline let firstGeometry: PBFReader?
    @usableFromInline let afterGeometry: Int

    /// Offset of the feature message in the tile.
    public var offset: Int { message.absoluteStart }

    /// Geometry types (§4.3.4).
    public enum GeometryType: UInt64, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    /// The geometry type; `.unknown` when absent; nil for a value outside 0...3 (B3).
    public var type: GeometryType? { GeometryType(rawValue: rawType ?? 0) }

    @usableFromInline
    init(_ reader: PBFReader, keyCount: Int, valueCount: Int) {
        var r = reader
        var hasID = false, id: UInt64 = 0, type: UInt64? = nil
        var geometry = 0, tags = 0
        var tagStart = reader.bytes.count, geometryStart = reader.bytes.count
        var firstTags: PBFReader? = nil, firstGeometry: PBFReader? = nil
        var afterTags = 0, afterGeometry = 0
        var failed = false
        scan: while !r.isAtEnd {
            let local = r.offset
            do throws(PBFError) {
                let (field, wire) = try r.readKey()
                switch (field, wire) {
                case (1, .varint): hasID = true; id = try r.readVarint()
                case (3, .varint): type = try r.readVarint()
                case (2, .lengthDelimited):
                    let record = try r.readLengthDelimited()
                    if tags == 0 { tagStart = local; firstTags = record; afterTags = r.offset }
                    tags += 1
                case (4, .lengthDelimited):
                    let record = try r.readLengthDelimited()
                    if geometry == 0 { geometryStart = local; firstGeometry = record; afterGeometry = r.offset }
                    geometry += 1
                case (2, .varint):
                    if tags == 0 { tagStart = local }
                    tags += 1
                    try r.skip(wire)
                case (4, .varint):
                    if geometry == 0 { geometryStart = local }
                    geometry += 1
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
        self.message = reader
        self.hasID = hasID
        self.id = id
        self.rawType = type
        self.geometryRecords = geometry
        self.tagRecords = tags
        self._scanFailed = failed
        self.keyCount = keyCount
        self.valueCount = valueCount
        self.tagStart = tagStart
        self.geometryStart = geometryStart
        self.firstTags = firstTags
        self.afterTags = afterTags
        self.firstGeometry = firstGeometry
        self.afterGeometry = afterGeometry
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
        if let firstTags {
            // With one record there is nothing after it to look for.
            let rest = tagRecords == 1 ? message.bytes.count : afterTags
            return PackedUInt32Stream(message.positioned(at: rest), field: 2, current: firstTags)
        }
        return PackedUInt32Stream(message.positioned(at: tagStart), field: 2)
    }
    /// The packed (or unpacked) uint32 values of `geometry` (field 4), across every record.
    @inlinable
    public var geometryStream: PackedUInt32Stream {
        if let firstGeometry {
            let rest = geometryRecords == 1 ? message.bytes.count : afterGeometry
            return PackedUInt32Stream(message.positioned(at: rest), field: 4, current: firstGeometry)
        }
        return PackedUInt32Stream(message.positioned(at: geometryStart), field: 4)
    }

    /// Calls `body` with each (key index, value index) pair, checking that the list has
    /// even length (B6) and that every index is in range (B7).
    ///
    /// - Complexity: O(tags); allocates nothing.
    @inlinable
    public func forEachTag(_ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        if tagRecords == 1, var r = firstTags {
            // The common case: one packed record, read in place without the stream's
            // record bookkeeping.
            while !r.isAtEnd {
                let at = r.absoluteOffset
                let k: UInt32
                do throws(PBFError) { k = try r.readUInt32() } catch { throw .malformed(error) }
                guard !r.isAtEnd else { throw .oddTagCount(offset: at) }
                let vAt = r.absoluteOffset
                let v: UInt32
                do throws(PBFError) { v = try r.readUInt32() } catch { throw .malformed(error) }
                guard Int(k) < keyCount else { throw .tagIndexOutOfRange(index: k, offset: at) }
                guard Int(v) < valueCount else { throw .tagIndexOutOfRange(index: v, offset: vAt) }
                body(Int(k), Int(v))
            }
            return
        }
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
    @usableFromInline var outer: PBFReader
    /// The packed record being read; `inInner` says whether it is live.
    @usableFromInline var inner: PBFReader
    @usableFromInline var inInner = false
    @usableFromInline let field: UInt32
    @usableFromInline var _lastOffset: Int = 0
    /// Offset of the value `next()` last returned.
    @inlinable public var lastOffset: Int { _lastOffset }

    @inlinable
    init(_ message: PBFReader, field: UInt32) {
        self.outer = message
        self.inner = message
        self.field = field
    }

    /// A stream already inside a packed record; `message` continues after it.
    @inlinable
    init(_ message: PBFReader, field: UInt32, current: PBFReader) {
        self.outer = message
        self.inner = current
        self.inInner = true
        self.field = field
    }

    /// The next value, or nil at the end of the message.
    @inlinable @inline(__always)
    public mutating func next() throws(MVTError) -> UInt32? {
        // Fast path: the next value of the packed record being read.
        if inInner && !inner.isAtEnd {
            _lastOffset = inner.absoluteOffset
            do throws(PBFError) { return try inner.readUInt32() } catch { throw .malformed(error) }
        }
        return try _nextRecord()
    }

    /// Moves to the next record of the field (or reads an unpacked value).
    @usableFromInline @inline(never)
    mutating func _nextRecord() throws(MVTError) -> UInt32? {
        while true {
            if inInner {
                if !inner.isAtEnd {
                    _lastOffset = inner.absoluteOffset
                    return try pbf { () throws(PBFError) in try inner.readUInt32() }
                }
                inInner = false
            }
            guard !outer.isAtEnd else { return nil }
            let (f, wire) = try pbf { () throws(PBFError) in try outer.readKey() }
            if f == field && wire == .lengthDelimited {
                inner = try pbf { () throws(PBFError) in try outer.readLengthDelimited() }
                inInner = true
            } else if f == field && wire == .varint {
                _lastOffset = outer.absoluteOffset
                return try pbf { () throws(PBFError) in try outer.readUInt32() }
            } else {
                try pbf { () throws(PBFError) in try outer.skip(wire) }
            }
        }
    }
}
