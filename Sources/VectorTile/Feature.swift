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
        var tagA: Int32 = -1, tagB: Int32 = 0, geometryA: Int32 = -1, geometryB: Int32 = 0
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
                    tagA = start; tagB = end
                }
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x22 {
                    p &+= 1
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break ordered }
                    geometryA = start; geometryB = end
                }
                if p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x08 {
                    p &+= 1
                    guard let v = _rawVarint(b, &p, n) else { fast = false; break ordered }
                    hasID = true; id = v
                }
                if tagA < 0 && p < n && b.load(fromByteOffset: p, as: UInt8.self) == 0x12 {
                    p &+= 1
                    guard let (start, end) = _rawPayload(b, &p, n) else { fast = false; break ordered }
                    tagA = start; tagB = end
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
                        guard tagA < 0 else { fast = false; break scan }
                        tagA = start; tagB = end
                    } else {
                        guard geometryA < 0 else { fast = false; break scan }
                        geometryA = start; geometryB = end
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
                  geometryRecords: geometryA >= 0 ? 1 : 0, tagRecords: tagA >= 0 ? 1 : 0, failed: false,
                  keyCount: keyCount, valueCount: valueCount,
                  tags: (tagA, tagB), geometry: (geometryA, geometryB))
    }

    /// The general scan of `init`: any field order, repeated and unpacked records, unknown
    /// fields, and malformed messages (which set `_scanFailed`).
    @usableFromInline @inline(never)
    static func _scanned(_ reader: PBFReader, keyCount: Int, valueCount: Int) -> Feature {
        var hasID = false, id: UInt64 = 0, hasType = false, type: UInt64 = 0
        var geometry: Int32 = 0, tags: Int32 = 0
        var tagA: Int32 = -1, tagB: Int32 = 0, geometryA: Int32 = -1, geometryB: Int32 = 0
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
                        tagA = Int32(truncatingIfNeeded: r.offset)
                        tagB = Int32(truncatingIfNeeded: r.offset &+ length)
                    }
                    r.advance(by: length)
                    tags &+= 1
                case (4, .lengthDelimited):
                    let length = try r.readLength()
                    if geometry == 0 {
                        geometryA = Int32(truncatingIfNeeded: r.offset)
                        geometryB = Int32(truncatingIfNeeded: r.offset &+ length)
                    }
                    r.advance(by: length)
                    geometry &+= 1
                case (2, .varint):
                    if tags == 0 { tagA = -1; tagB = local }
                    tags &+= 1
                    try r.skip(wire)
                case (4, .varint):
                    if geometry == 0 { geometryA = -1; geometryB = local }
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
                       tags: (tagA, tagB), geometry: (geometryA, geometryB))
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

    /// Calls `body` with each (key index, value index) pair, checking that the list has
    /// even length (B6) and that every index is in range (B7).
    ///
    /// - Complexity: O(tags); allocates nothing.
    @inlinable
    public func forEachTag(_ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        try _forEachTag(from: 0, body)
    }

    /// `forEachTag` from byte `first` of the tags record on. `first` is 0, or the start of
    /// a pair of a feature with one packed tags record.
    @inlinable @inline(__always)
    func _forEachTag(from first: Int, _ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        if _tagRecords == 1, tagPayloadStart >= 0, let base = message.bytes.baseAddress {
            // The common case: one packed record, read in place without the stream's
            // record bookkeeping. Each pair is read with one raw load: two bytes for a pair
            // of one-byte indices, four for a one-byte key index and a value index of up to
            // three bytes, eight for any other pair of indices of one to three bytes (below
            // 2^21). The four- and eight-byte loads may reach past the record into the rest
            // of the feature message (near the message's end, the eight-byte window takes
            // the bytes that are there, padded with zeros). Anything else goes on the
            // checked loop from the same pair.
            let start = Int(tagPayloadStart)
            // The scan that made this view found the record within the message.
            let b = base + start, n = Int(tagPayloadEnd) &- start
            let loadable = message.bytes.count &- start
            var p = first
            let kc = UInt64(UInt32(bitPattern: keyCount)), vc = UInt64(UInt32(bitPattern: valueCount))
            // One-byte pairs only, in the tightest loop (most tiles' tags are all such);
            // anything else out of line.
            while p &+ 1 < n {
                // Safe: p + 2 <= n.
                let w = UInt64(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
                let k = w & 0xFF, v = w &>> 8
                guard w & 0x8080 == 0, k < kc, v < vc else { break }
                body(Int(k), Int(v))
                p &+= 2
            }
            if p &+ 1 < n { p = _tagPairsWide(b, p, n, loadable, kc, vc, body) }
            if p == n { return }
            try _tagsChecked(_sub(tagPayloadStart, tagPayloadEnd).positioned(at: p), body)
            return
        }
        var s = tagStream
        while let k = try s.next() {
            let at = s.lastOffset
            guard let v = try s.next() else { throw .oddTagCount(offset: at) }
            guard Int(k) < Int(keyCount) else { throw .tagIndexOutOfRange(index: k, offset: at) }
            guard Int(v) < Int(valueCount) else { throw .tagIndexOutOfRange(index: v, offset: s.lastOffset) }
            body(Int(k), Int(v))
        }
    }
}

extension Feature {
    /// Checks the tags as `forEachTag` does (B6, B7), with the same errors, without reading
    /// the pairs out.
    ///
    /// When the layer's key and value tables have at most 128 entries each (tested as
    /// `keys | values <= 128`, which passes over only a table of exactly 128 beside a
    /// non-empty one), every valid index takes one byte, and eight bytes (four pairs) are
    /// checked at once: each byte gets 128 − count added, its key or value table's count by
    /// its place, so an index below the count stays below 0x80, and one at or above it
    /// reaches 0x80 or more. A byte that is not a whole varint has its top bit set already.
    /// The last bytes are checked in the eight that end the record, any before the record
    /// left out. Anything else (an odd length; a longer index; an index out of range; a
    /// record that ends within the message's first eight bytes) goes on `forEachTag`'s
    /// loops from the first eight bytes that did not pass. Larger tables, where indices of
    /// two and three bytes are the rule (OSM QA tiles), go to `_checkTagsOnLoops`, which on
    /// x86 checks 16 bytes at a time first (`_checkTagBlocks`). So a wrong rejection by
    /// either word check would only cost time; the tests look for wrong acceptances.
    ///
    /// `ignored` is called with the pairs left to those loops (pass an empty closure;
    /// taking it from the caller lets the loops be specialised for it).
    ///
    /// - Complexity: O(tags); allocates nothing.
    @inline(__always)
    func _checkTags(_ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var bounds = _PairBounds(first: UInt32(bitPattern: keyCount), second: UInt32(bitPattern: valueCount))
        try withUnsafePointer(to: &bounds) { (p) throws(MVTError) in
            try _checkTags(tagBounds: p, ignored)
        }
    }

    /// `_checkTags` with the bounds of the 16-byte check for large tables, made for this
    /// feature's tables (the validator makes them once per layer).
    @inline(__always)
    func _checkTags(tagBounds: UnsafePointer<_PairBounds>, _ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var p = 0
        let kc = UInt64(UInt32(bitPattern: keyCount)), vc = UInt64(UInt32(bitPattern: valueCount))
        if kc | vc <= 128, _tagRecords == 1, tagPayloadStart >= 0, let base = message.bytes.baseAddress {
            let start = Int(tagPayloadStart), end = Int(tagPayloadEnd)
            let n = end &- start
            if n & 1 == 0, end >= 8 {
                let add = ((128 &- kc) | (128 &- vc) &<< 8) &* 0x0001_0001_0001_0001
                let top: UInt64 = 0x8080_8080_8080_8080
                // The scan that made this view found the record within the message.
                let b = base + start
                var ok = true
                while p &+ 8 < n {
                    // Safe: p + 8 < n.
                    let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                    ok = (w | (w &+ add)) & top == 0
                    guard ok else { break }
                    p &+= 8
                }
                if ok {
                    // The eight bytes that end the record: n is even, so byte 0 holds a key
                    // index. When the record is shorter, the bytes before it are left out of
                    // the test; none can carry into the record's, as the byte just before
                    // it is the last of its length's varint, below 8.
                    // Safe: the window is message bytes end - 8 ..< end, and end >= 8.
                    let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
                    let keep = ~UInt64(0) &<< UInt64(truncatingIfNeeded: max(0, 64 &- 8 &* n))
                    if (w | (w &+ add)) & top & keep == 0 { return }
                }
            }
        }
        try _checkTagsOnLoops(from: p, tagBounds: tagBounds, ignored)
    }

    /// `forEachTag`'s loops from byte `p` of the tags record, for `_checkTags`. From the
    /// record's start, when either table has more than 128 entries, on x86 the pairs are
    /// first checked 16 bytes at a time (`_checkTagBlocks`), and the loops go on from where
    /// that check stops.
    @inline(never)
    func _checkTagsOnLoops(from first: Int, tagBounds: UnsafePointer<_PairBounds>,
                           _ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError)
    {
        var p = first
        #if arch(x86_64) || arch(i386)
        // Records of fewer than 8 bytes go straight to the loops, as do those whose message
        // has no 16 bytes to load around them (the check would stop at once).
        if p == 0, keyCount | valueCount > 128, _tagRecords == 1, tagPayloadStart >= 0,
           tagPayloadEnd &- tagPayloadStart >= 8, tagPayloadEnd >= 16 || message.bytes.count &- Int(tagPayloadStart) >= 16
        {
            p = _checkTagBlocks(tagBounds)
            if p == Int(tagPayloadEnd &- tagPayloadStart) { return }
        }
        #endif
        try _forEachTag(from: p, ignored)
    }

    #if arch(x86_64) || arch(i386)
    /// How far the pairs of the one packed tags record are known to be valid by
    /// `_checkPairBlocks` (PBF's SSE2 kernel) with `tagBounds`: the offset in the record from
    /// which the loops go on.
    @usableFromInline @inline(never)
    func _checkTagBlocks(_ tagBounds: UnsafePointer<_PairBounds>) -> Int {
        guard let base = message.bytes.baseAddress else { return 0 }
        let start = Int(tagPayloadStart), n = Int(tagPayloadEnd) &- start
        // The scan that made this view found the record within the message.
        let b = (base + start).assumingMemoryBound(to: UInt8.self), loadable = message.bytes.count &- start
        return _checkPairBlocks(b, n, start, loadable, tagBounds)
    }
    #endif

    /// The tag pairs of one packed record from `r`'s position on, with every check: what
    /// the raw loads of `forEachTag` leave (longer varints, an odd count, an index out of
    /// range, a malformed varint), reported with its offset.
    @inlinable @inline(never)
    func _tagsChecked(_ reader: PBFReader, _ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var r = reader
        while !r.isAtEnd {
            let at = r.absoluteOffset
            let k: UInt32
            do throws(PBFError) { k = try r.readUInt32() } catch { throw .malformed(error) }
            guard !r.isAtEnd else { throw .oddTagCount(offset: at) }
            let vAt = r.absoluteOffset
            let v: UInt32
            do throws(PBFError) { v = try r.readUInt32() } catch { throw .malformed(error) }
            guard Int(k) < Int(keyCount) else { throw .tagIndexOutOfRange(index: k, offset: at) }
            guard Int(v) < Int(valueCount) else { throw .tagIndexOutOfRange(index: v, offset: vAt) }
            body(Int(k), Int(v))
        }
    }
}

/// The tag pairs of a tags record `n` bytes long from byte `start` on, once a pair other than
/// two one-byte indices is met: each is passed to `body` while it can be read with raw loads
/// (indices of one to three bytes, in range); returns where that stopped. Bytes are loaded
/// up to `loadable` (at least `n`) from the record's start, values read only below `n`.
@inlinable @inline(never)
func _tagPairsWide(_ b: UnsafeRawPointer, _ start: Int, _ n: Int, _ loadable: Int, _ kc: UInt64, _ vc: UInt64,
                   _ body: (_ key: Int, _ value: Int) -> Void) -> Int
{
    var p = start
    // While four bytes can be loaded at the pair (p < fast), the pair is read from one
    // four-byte load when its key index takes one byte and its value index one to three;
    // what is left, up to three bytes each, from an eight-byte window.
    let fast = min(n &- 1, loadable &- 3)
    while p < fast {
        // Safe: p + 4 <= loadable.
        let w = UInt64(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt32.self)))
        if _fastPath(w & 0x8080 == 0) {
            // Two one-byte indices, the commonest pair.
            let k = w & 0x7F, v = (w &>> 8) & 0x7F
            guard k < kc, v < vc else { break }
            body(Int(k), Int(v))
            p &+= 2
            continue
        }
        if w & 0x8000_8080 == 0x8000 {
            // The usual shape of large tables: a one-byte key index and a value index of
            // two or three bytes (the fourth byte, the next key or the value's last
            // byte, below 0x80), decoded without branching on which.
            let three = (w &>> 23) & 1
            let k = w & 0x7F
            let v = (w &>> 8) & 0x7F | (w &>> 9) & 0x3F80 | (w &>> 10) & 0x1F_C000 & (0 &- three)
            let q = p &+ 3 &+ Int(three)
            guard q <= n, k < kc, v < vc else { break }
            body(Int(k), Int(v))
            p = q
            continue
        }
        guard let q = _tagPairWide(b, p, n, loadable, kc, vc, body) else { break }
        p = q
    }
    // The last pairs when the record ends the feature: two one-byte indices from a
    // two-byte load, anything else of up to three bytes each from the window.
    while p &+ 1 < n {
        // Safe: p + 2 <= n.
        let w = UInt64(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
        if w & 0x8080 == 0 {
            let k = w & 0xFF, v = w &>> 8
            guard k < kc, v < vc else { break }
            body(Int(k), Int(v))
            p &+= 2
            continue
        }
        guard let q = _tagPairWide(b, p, n, loadable, kc, vc, body) else { break }
        p = q
    }
    return p
}

/// Reads the tag pair at byte `p` of a tags record `n` bytes long when both of its indices
/// take one to three bytes and are below `kc` and `vc`, calls `body` with it and returns
/// the offset after it; nil for anything else (left to the checked loop). Bytes are loaded
/// up to `loadable` (at least `n`) from the record's start, values read only below `n`.
@inlinable @inline(__always)
func _tagPairWide(_ b: UnsafeRawPointer, _ p: Int, _ n: Int, _ loadable: Int, _ kc: UInt64, _ vc: UInt64,
                  _ body: (_ key: Int, _ value: Int) -> Void) -> Int?
{
    // Safe: p + 8 <= loadable, or the window stops at loadable.
    let w8 = p &+ 8 <= loadable
        ? UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
        : _window8(b, p, loadable)
    guard let (k, v, length) = _varintPair3(w8) else { return nil }
    let q = p &+ length
    guard q <= n, k < kc, v < vc else { return nil }
    body(Int(k), Int(v))
    return q
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
