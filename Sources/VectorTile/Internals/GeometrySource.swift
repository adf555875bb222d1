import PBF

/// Where a geometry decoder reads its integers from: the stream over every record of the
/// field, or a raw cursor over one packed record.
@usableFromInline
protocol _GeometrySource {
    /// The next value, or nil at the end of the geometry.
    mutating func next() throws(MVTError) -> UInt32?
    /// `next()`, with three-byte values also read inline after the one- and two-byte
    /// checks: for POINT coordinates and the MoveTo that starts a ring or a line part,
    /// which in unclipped tiles are absolute or long jumps and often take three bytes.
    mutating func nextWide() throws(MVTError) -> UInt32?
    /// Offset in the tile of the value `next()` last returned.
    var lastOffset: Int { get }
    /// Offset in the tile of the feature message, for errors about the whole geometry.
    var startOffset: Int { get }
    /// The packed record being read, for the raw loops: its first byte (nil when no
    /// packed record is being read), its length and the cursor within it.
    var rawBase: UnsafeRawPointer? { get }
    var rawEnd: Int { get }
    var rawPosition: Int { get set }
    /// Bytes that may be loaded from `rawBase` (at least `rawEnd`); values are read only
    /// below `rawEnd`.
    var rawLoadable: Int { get }
    /// Bytes that may be loaded before `rawBase` (the feature message's bytes before the
    /// record); 0 when no packed record is being read.
    var rawBefore: Int { get }
}

extension PackedUInt32Stream: _GeometrySource {
    @inlinable mutating func nextWide() throws(MVTError) -> UInt32? { try next() }
    @inlinable var startOffset: Int { outer.absoluteStart }
    @inlinable var rawBase: UnsafeRawPointer? { inInner ? inner.bytes.baseAddress : nil }
    @inlinable var rawEnd: Int { inner.bytes.count }
    @inlinable var rawLoadable: Int { inner.bytes.count }
    @inlinable var rawBefore: Int { 0 }
    @inlinable var rawPosition: Int {
        get { inner.offset }
        set { inner = inner.positioned(at: newValue) }
    }
}

/// One packed record's bytes read in place; the cursor and bounds stay in registers.
@usableFromInline
struct _PackedCursor: _GeometrySource {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline var p: Int = 0
    @usableFromInline let end: Int
    /// Bytes that may be loaded from `base`: the record and the rest of the feature message
    /// after it. Values are never read past `end`.
    @usableFromInline let loadable: Int
    /// Offset of `base` in the tile.
    @usableFromInline let origin: Int
    @usableFromInline let startOffset: Int
    @usableFromInline var last: Int = 0

    @inlinable
    init(base: UnsafeRawPointer, end: Int, loadable: Int, origin: Int, startOffset: Int) {
        self.base = base
        self.end = end
        self.loadable = loadable
        self.origin = origin
        self.startOffset = startOffset
    }

    @inlinable var lastOffset: Int { origin &+ last }
    @inlinable var rawBase: UnsafeRawPointer? { base }
    @inlinable var rawEnd: Int { end }
    @inlinable var rawLoadable: Int { loadable }
    @inlinable var rawBefore: Int { origin &- startOffset }
    @inlinable var rawPosition: Int {
        get { p }
        set { p = newValue }
    }

    /// The next value: one- and two-byte varints inline, longer ones through
    /// `_nextLong` (`_rawVarintLong`), errors (with their offsets) through `PBFReader`.
    @inlinable @inline(__always)
    mutating func next() throws(MVTError) -> UInt32? { try _next(threeBytesInline: false) }

    @inlinable @inline(__always)
    mutating func nextWide() throws(MVTError) -> UInt32? { try _next(threeBytesInline: true) }

    /// `next()`, and `nextWide()` with `threeBytesInline`: a value of one or two bytes, and
    /// of three when asked, is read here; anything longer, or cut, by `_nextLong`.
    @inlinable @inline(__always)
    mutating func _next(threeBytesInline: Bool) throws(MVTError) -> UInt32? {
        guard p < end else { return nil }
        last = p
        // Safe: p < end.
        let b0 = UInt32(base.load(fromByteOffset: p, as: UInt8.self))
        if b0 < 0x80 { p &+= 1; return b0 }
        if p &+ 1 < end {
            // Safe: p + 1 < end.
            let b1 = UInt32(base.load(fromByteOffset: p &+ 1, as: UInt8.self))
            if b1 < 0x80 { p &+= 2; return (b0 & 0x7F) | b1 &<< 7 }
            if threeBytesInline && p &+ 2 < end {
                // Safe: p + 2 < end.
                let b2 = UInt32(base.load(fromByteOffset: p &+ 2, as: UInt8.self))
                if b2 < 0x80 { p &+= 3; return (b0 & 0x7F) | (b1 & 0x7F) &<< 7 | b2 &<< 14 }
            }
        }
        let (v, next) = try _nextLong(at: p)
        p = next
        return v
    }

    /// The value at `p` when it is a varint of exactly three bytes inside the record (the
    /// size of absolute coordinates in unclipped tiles), else nil.
    @inlinable @inline(__always)
    func _threeByteValue(at p: Int) -> UInt32? {
        guard p &+ 2 < end else { return nil }
        // Safe: p + 2 < end.
        let w = UInt32(base.load(fromByteOffset: p, as: UInt8.self))
            | UInt32(base.load(fromByteOffset: p &+ 1, as: UInt8.self)) &<< 8
            | UInt32(base.load(fromByteOffset: p &+ 2, as: UInt8.self)) &<< 16
        // The first two bytes continue and the third ends the varint.
        guard w & 0x80_8080 == 0x00_8080 else { return nil }
        return (w & 0x7F) | (w &>> 1) & 0x3F80 | (w &>> 2) & 0x1F_C000
    }

    /// The value at `p` and the offset after it. Takes and returns the cursor by value, so
    /// a caller's copy of the cursor can stay in registers.
    @usableFromInline @inline(never)
    func _nextLong(at p: Int) throws(MVTError) -> (UInt32, Int) {
        if let v = _threeByteValue(at: p) { return (v, p &+ 3) }
        if let (v, next) = _rawVarintLong(base, p, end, loadable) {
            return (UInt32(truncatingIfNeeded: v), next)
        }
        // The error, with its offset.
        var r = PBFReader(bytes: UnsafeRawBufferPointer(start: base, count: end), origin: origin).positioned(at: p)
        do throws(PBFError) {
            let v = try r.readUInt32()
            return (v, r.offset)
        } catch {
            throw .malformed(error)
        }
    }
}
