import PBF

/// Receives a feature's geometry as it is decoded, so no array is built unless the handler
/// builds one. Coordinates are tile coordinates (0...extent inside the tile, §4.3.3),
/// accumulated in 64 bits so crafted deltas cannot overflow (C6).
///
/// Every method has an empty default, so a handler implements only what it needs.
public protocol GeometryHandler {
    /// One point of a POINT feature (a MultiPoint calls it once per point).
    mutating func point(x: Int64, y: Int64)
    mutating func lineBegin()
    mutating func linePoint(x: Int64, y: Int64)
    mutating func lineEnd()
    mutating func ringBegin()
    /// Ring vertices as encoded; the closing vertex (equal to the first) is not repeated.
    mutating func ringPoint(x: Int64, y: Int64)
    /// Ends a ring with its classification by the sign of its area (§4.3.4.4).
    mutating func ringEnd(_ kind: RingKind)
}

/// Every call does nothing unless the handler implements it, so a handler implements only
/// the calls for the geometry types it reads.
public extension GeometryHandler {
    @inlinable
    mutating func point(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineBegin() {}
    @inlinable
    mutating func linePoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineEnd() {}
    @inlinable
    mutating func ringBegin() {}
    @inlinable
    mutating func ringPoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func ringEnd(_ kind: RingKind) {}
}

/// A ring's role, from the sign of its area in tile coordinates (y down): positive is an
/// exterior ring, negative an interior ring (§4.3.4.4, D4); zero area is degenerate (D7).
public enum RingKind: Sendable, Equatable {
    case exterior, interior, degenerate
}

/// How strictly geometry is decoded.
public enum GeometryMode: Sendable {
    /// Every rule of §4.3 is enforced, recoverable ones (zero-length LineTo, C8) included.
    case strict
    /// Recoverable problems are passed over: a zero-length LineTo vertex is dropped.
    case tolerant
}

extension Feature {
    /// Decodes the geometry into `handler`, enforcing the command grammar of the feature's
    /// type (§4.3.4.2–4.3.4.4). UNKNOWN features (B4) produce no calls.
    ///
    /// - Throws: `MVTError` — missing or repeated geometry (B1, B9), bad type (B3), bad
    ///   command (C3), truncation (C4), ClosePath count (C7), zero-length segment (C8,
    ///   strict mode only), commands not allowed for the type (D1–D3), a polygon starting
    ///   with an interior ring (D4).
    /// - Complexity: O(geometry bytes); every loop step consumes input, so a huge command
    ///   count in a short tile ends with `truncatedGeometry`, never a long loop (F); allocates
    ///   nothing.
    @inlinable
    public func decodeGeometry<H: GeometryHandler>(into handler: inout H, mode: GeometryMode = .strict)
        throws(MVTError)
    {
        if _scanFailed, let scanError { throw scanError }
        guard geometryRecords > 0 else { throw .missingGeometry(offset: offset) }
        if geometryRecords > 1, mode == .strict { throw .repeatedGeometry(offset: offset) }
        try _decodeCommands(into: &handler, mode: mode)
    }

    /// The command grammar alone, without the record-level checks.
    @inlinable @inline(__always)
    func _decodeCommands<H: GeometryHandler>(into handler: inout H, mode: GeometryMode) throws(MVTError) {
        try _decodeCommands(into: &handler, mode: mode, linePoints: _DecodedLinePoints.self)
    }

    /// `_decodeCommands(into:mode:)`, with `_SkippedLinePoints` for a handler whose
    /// `linePoint` does nothing (the validator's): a LINESTRING's LineTo pairs are then
    /// checked without being decoded where `_checkLinePairs` can.
    @inlinable @inline(__always)
    func _decodeCommands<H: GeometryHandler, L: _LinePoints>(into handler: inout H, mode: GeometryMode,
                                                             linePoints: L.Type) throws(MVTError)
    {
        guard let type else { throw .invalidType(rawType ?? 0, offset: offset) }
        // The common case, one packed record, is read with a raw cursor over its bytes;
        // several records or unpacked values (P7, B9) go through the stream.
        if _geometryRecords == 1, geometryPayloadStart >= 0, let b = message.bytes.baseAddress {
            let start = Int(geometryPayloadStart)
            let cursor = _PackedCursor(base: b + start, end: Int(geometryPayloadEnd) &- start,
                                       loadable: message.bytes.count &- start,
                                       origin: message.absoluteStart &+ start, startOffset: message.absoluteStart)
            var d = _GeometryDecoder(source: cursor, mode: mode)
            try d.decode(type, &handler, L.self)
        } else {
            var d = _GeometryDecoder(source: geometryStream, mode: mode)
            try d.decode(type, &handler, L.self)
        }
    }
}

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

@usableFromInline
struct _GeometryDecoder<S: _GeometrySource> {
    @usableFromInline var source: S
    @usableFromInline let mode: GeometryMode
    @usableFromInline var x: Int64 = 0
    @usableFromInline var y: Int64 = 0

    @inlinable
    init(source: S, mode: GeometryMode) {
        self.source = source
        self.mode = mode
    }

    @inlinable @inline(__always)
    mutating func decode<H: GeometryHandler, L: _LinePoints>(_ type: Feature.GeometryType, _ h: inout H,
                                                             _ linePoints: L.Type) throws(MVTError)
    {
        switch type {
        case .unknown: return
        case .point:
            // One position, the usual POINT: the whole record read at once.
            if let base = source.rawBase, source.rawPosition == 0,
               let (px, py) = _singlePoint(base, source.rawEnd, source.rawBefore, source.rawLoadable)
            {
                h.point(x: px, y: py)
                return
            }
            try points(&h)
        case .lineString: try lines(&h, L.self)
        case .polygon: try polygons(&h, L.self)
        }
    }

    /// The next command, or nil at the end of the geometry.
    @usableFromInline @_transparent
    mutating func command() throws(MVTError) -> (id: UInt32, count: UInt32, offset: Int)? {
        guard let raw = try source.next() else { return nil }
        let id = raw & 7, count = raw >> 3
        guard _isCommandID(id) else { throw .invalidCommand(id, offset: source.lastOffset) }
        return (id, count, source.lastOffset)
    }

    /// The error for command `raw` (nil: the geometry's end) where the grammar wanted
    /// another: an unknown command id (§4.3.1, C3) as such, anything else as `grammar`.
    @inlinable @inline(__always)
    func _unexpected(_ raw: UInt32?, else grammar: @autoclosure () -> MVTError) -> MVTError {
        _unexpectedCommand(raw, source.lastOffset, grammar())
    }

    /// Reads one parameter pair and moves the cursor (§4.3.2, §4.3.3). `wide` reads values
    /// of three bytes inline (`nextWide`), for POINT coordinates and a part's MoveTo.
    @usableFromInline @_transparent
    mutating func pair(_ commandOffset: Int, wide: Bool = false) throws(MVTError) -> (dx: Int64, dy: Int64) {
        guard let px = try wide ? source.nextWide() : source.next(),
              let py = try wide ? source.nextWide() : source.next() else {
            throw .truncatedGeometry(offset: commandOffset)
        }
        let dx = Int64(ZigZag.decode(px)), dy = Int64(ZigZag.decode(py))
        x &+= dx
        y &+= dy
        return (dx, dy)
    }

    /// The `count` parameter pairs of a LineTo: moves the cursor and hands each new
    /// position to the handler as a line point, or as a ring point added to `area`
    /// (`K.ring`). A zero-length step is an error in strict mode and is dropped in
    /// tolerant mode (C8).
    ///
    /// Pairs in the packed record being read go through the raw loop below; a pair it does
    /// not take is read through the source, and the raw loop then resumes. (Transparent so
    /// that the loop is inlined into the polygon and line loops, with the cursor and the
    /// handler's state in registers across a ring's commands.)
    @usableFromInline @_transparent
    mutating func run<H: GeometryHandler, K: _RunKind>(_ count: UInt32, _ commandOffset: Int, _ h: inout H,
                                                       _ kind: K.Type, area: inout _ShoelaceSum) throws(MVTError)
    {
        let ring = K.ring
        var i: UInt32 = 0
        while true {
            if let base = source.rawBase {
                _fastRun(base, count, &i, &h, kind, &area)
            }
            guard i < count else { return }
            let px = x, py = y
            let d = try pair(commandOffset)
            i &+= 1
            if d.dx == 0 && d.dy == 0 {
                if mode == .strict { throw .zeroLengthSegment(offset: source.lastOffset) }
                continue
            }
            if ring {
                area.add(px, py, x, y)
                h.ringPoint(x: x, y: y)
            } else {
                h.linePoint(x: x, y: y)
            }
        }
    }

    /// The raw loop of `run`: pairs of one- or two-byte varints lie in the four bytes at
    /// the cursor and are read with one load while four bytes remain in the record, and
    /// longer ones (unclipped geometry has them) out of line; in the last three bytes only
    /// a pair of one-byte values is read, and anything else is left to the caller. The
    /// four-byte word is sorted by its continuation bits into the shapes real tiles have
    /// (two one-byte values; one of each; two two-byte values), each decoded without a
    /// loop. On x86 CPUs with SSSE3, runs of 16 pairs or more are first read 8 bytes at a
    /// time with a byte shuffle (`_zigzagPairs16`, PBF's SSSE3 kernel), which needs no branch on a pair's
    /// shape; its values take one or two bytes, so they keep the bound below.
    ///
    /// Ring areas are summed in trapezoid form, (x₁ + x₂)·(y₂ − y₁) (see `_ShoelaceSum`),
    /// in blocks of at most 64 pairs that start with the cursor within ±2^30 of the ring's
    /// first vertex. A ring's delta is only taken here when it lies within ±2^20 (a zigzag
    /// value below 2^21), so inside a block the cursor stays within 2^30 + 2^26 of that
    /// vertex, each term taken relative to it is below 2^52 and the block's sum below
    /// 2^58. The loop sums the terms in tile coordinates with wrapping arithmetic and
    /// `addBlock` moves the sum to the ring's first vertex; wrapping arithmetic is exact
    /// modulo 2^64, so the result, which fits, is exact. It stops at anything else (a
    /// larger ring delta, a malformed varint, a far cursor, a zero-length step other than
    /// two zero bytes in tolerant mode), leaving the state as it was after the last pair
    /// it took.
    ///
    /// (Transparent: marked `@inline(__always)`, it was left out of line in the validator's
    /// polygon loop once that loop could hand the later rings to `_checkLaterRings`, and
    /// sanfrancisco ran 13.55 M validating instructions per operation instead of 13.01 M,
    /// both measured before `_checkLinePairs` took its present stop rules.)
    @usableFromInline @_transparent
    mutating func _fastRun<H: GeometryHandler, K: _RunKind>(_ base: UnsafeRawPointer, _ count: UInt32, _ i: inout UInt32,
                                                            _ h: inout H, _ kind: K.Type, _ area: inout _ShoelaceSum)
    {
        let ring = K.ring
        // Pairs that start at least four bytes before the record's end cannot reach past it.
        let end = source.rawEnd, end4 = end &- 4
        var p = source.rawPosition
        var cx = x, cy = y
        let far: Int64 = 1 << 30
        let ox = area.originX, oy = area.originY
        let blockSize: UInt32 = ring ? 64 : UInt32.max
        while i < count {
            if ring && UInt64(bitPattern: cx &- ox &+ far) | UInt64(bitPattern: cy &- oy &+ far) >= UInt64(2 * far) { break }
            let block = min(count &- i, blockSize)
            let sy = cy
            var left = block
            var partial: Int64 = 0
            #if arch(x86_64) || arch(i386)
            if left >= 16 && p &+ 16 <= end {
                // Long runs: pairs of one- and two-byte values decoded 8 bytes at a time with
                // a byte shuffle (`_zigzagPairs16`, PBF's SSSE3 kernel), into a buffer on the stack, then
                // taken from there with no branch on each pair's shape. It stops at a longer
                // value, at a zero-length step (found here) and near the record's end, and
                // the loop below goes on from there.
                withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 &* 64 &+ 8) { buf in
                    guard let out = buf.baseAddress else { return }
                    blocks: while left > 0 {
                        var used = 0
                        let want = min(Int(left), 64)
                        let got = _zigzagPairs16(base + p, end &- p, want, out, &used)
                        var k = 0
                        while k < got {
                            let dx = Int64(out[2 &* k]), dy = Int64(out[2 &* k &+ 1])
                            if dx | dy == 0 {
                                p = _skipShortVarints(base, p, 2 &* k)
                                break blocks
                            }
                            // The same step as the loop below. (Shared as a nested function,
                            // it stopped `_fastRun` being inlined: up to 13% more instructions.)
                            let nx = cx &+ dx
                            if ring { partial &+= (cx &+ nx) &* dy }
                            cx = nx
                            cy &+= dy
                            if ring { h.ringPoint(x: cx, y: cy) } else { h.linePoint(x: cx, y: cy) }
                            left &-= 1
                            k &+= 1
                        }
                        p &+= used
                        if got < want { break }
                    }
                }
            }
            #endif
            while left > 0 {
                let w: UInt32
                if p <= end4 {
                    // Safe: p + 4 <= the record's end.
                    w = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                } else {
                    // The last bytes of the record: a pair of one-byte values is read
                    // here; anything else is left to the caller.
                    guard p &+ 1 < end4 &+ 4 else { break }
                    // Safe: p + 1 < the record's end.
                    w = UInt32(base.load(fromByteOffset: p, as: UInt8.self))
                        | UInt32(base.load(fromByteOffset: p &+ 1, as: UInt8.self)) &<< 8
                    guard w & 0x8080 == 0 else { break }
                }
                let dx: Int64, dy: Int64
                var q = p
                if w & 0x8080 == 0 {
                    // Two one-byte values, the commonest pair, both zigzag-decoded at once:
                    // each byte of s is a value shifted right by one, each byte of m is all
                    // ones when its value is odd, and s ^ m holds the two decoded deltas as
                    // signed bytes. (Two zero bytes, a zero-length step, are left to the
                    // code after the loop.)
                    guard w & 0xFFFF != 0 else { break }
                    let s = (w &>> 1) & 0x3F3F, m = (w & 0x0101) &* 0xFF
                    let z = s ^ m
                    dx = Int64(Int8(truncatingIfNeeded: z)); dy = Int64(Int8(truncatingIfNeeded: z &>> 8))
                    q &+= 2
                } else {
                    let ux: UInt32, uy: UInt32
                    // The continuation bits of the first three bytes. Here one of the
                    // first two is set; a single bit set means one value of each length,
                    // in either order.
                    let k = w & 0x80_8080
                    if k & (k &- 1) == 0 {
                        // A one-byte and a two-byte value: three bytes, compacted into 21
                        // bits, where x takes the low 7 bits, or 14 when it is the two-byte
                        // one. Which order comes next is as good as random, so it is told
                        // apart with arithmetic rather than a branch (or a select, which
                        // the compiler may turn into one).
                        let t = UInt32(truncatingIfNeeded: _varintValue3(UInt64(w), 3))
                        let b7 = w & 0x80
                        let shift = 7 &+ (b7 &>> 4) &- (b7 &>> 7)
                        uy = t &>> shift
                        ux = t & ((1 &<< shift) &- 1)
                        q &+= 3
                    } else if w & 0x8080_8080 == 0x0080_0080 {
                        // Two two-byte values (long steps), both compacted at once.
                        let t = (w & 0x007F_007F) | (w &>> 1) & 0x3F80_3F80
                        ux = t & 0xFFFF; uy = t &>> 16
                        q &+= 4
                    } else {
                        // A value of three bytes or more, read out of line; in a ring only
                        // values below 2^21 (deltas within ±2^20) are taken, the bound the
                        // block sums rely on. Anything else, or a malformed or cut varint,
                        // is left to the caller.
                        guard let (lx, ly, next) = _rawVarintPair(base, p, end4 &+ 4),
                              !ring || (lx | ly) < 1 << 21 else { break }
                        ux = lx; uy = ly; q = next
                    }
                    guard ux | uy != 0 else { break }
                    // Zigzag in 64 bits: (u >> 1) ^ −(u & 1).
                    dx = Int64(ux &>> 1) ^ (0 &- Int64(ux & 1)); dy = Int64(uy &>> 1) ^ (0 &- Int64(uy & 1))
                }
                let nx = cx &+ dx
                if ring { partial &+= (cx &+ nx) &* dy }
                cx = nx
                cy &+= dy
                if ring { h.ringPoint(x: cx, y: cy) } else { h.linePoint(x: cx, y: cy) }
                p = q
                left &-= 1
            }
            i &+= block &- left
            if ring { area.addBlock(partial, fromY: sy, toY: cy) }
            if left == 0 { continue }
            // Stopped early. A zero-length step written as two zero bytes is dropped here
            // in tolerant mode (C8: the cursor stays where it is).
            // Safe: both loads are at offsets below the record's end.
            guard mode == .tolerant, p <= end4,
                  base.load(fromByteOffset: p, as: UInt8.self) | base.load(fromByteOffset: p &+ 1, as: UInt8.self) == 0
            else { break }
            p &+= 2
            i &+= 1
        }
        x = cx; y = cy
        source.rawPosition = p
    }

    /// POINT: one MoveTo with count ≥ 1, nothing else (§4.3.4.2, D1).
    @inlinable
    mutating func points<H: GeometryHandler>(_ h: inout H) throws(MVTError) {
        guard let c = try command() else { throw .invalidGeometry(reason: "POINT without MoveTo", offset: source.lastOffset) }
        guard c.id == 1, c.count > 0 else {
            throw .invalidGeometry(reason: "POINT must be one MoveTo with count > 0", offset: c.offset)
        }
        for _ in 0..<c.count {
            _ = try pair(c.offset, wide: true)
            h.point(x: x, y: y)
        }
        if let extra = try command() {
            throw .invalidGeometry(reason: "POINT has a command after its MoveTo", offset: extra.offset)
        }
    }

    /// LINESTRING: repetitions of MoveTo(1), LineTo(n ≥ 1) (§4.3.4.3, D2).
    @inlinable
    mutating func lines<H: GeometryHandler, L: _LinePoints>(_ h: inout H, _ linePoints: L.Type) throws(MVTError) {
        var d = self   // a local copy, as in `polygons`
        var any = false
        // Commands compared whole, as in `polygons`: MoveTo(1) is 9, LineTo(n ≥ 1) is 2 + 8n.
        while let move = try d.source.next() {
            any = true
            let moveOffset = d.source.lastOffset
            guard move == 9 else {
                throw d._unexpected(move, else: .invalidGeometry(reason: move & 7 == 7 ? "ClosePath in a LINESTRING" : "LINESTRING part must start with MoveTo(1)", offset: moveOffset))
            }
            _ = try d.pair(moveOffset, wide: true)
            let line = try d.source.next()
            guard let line, line & 7 == 2, line >= 8 else {
                throw d._unexpected(line, else: .invalidGeometry(reason: "MoveTo must be followed by LineTo with count ≥ 1", offset: moveOffset))
            }
            let lineOffset = d.source.lastOffset
            h.lineBegin()
            h.linePoint(x: d.x, y: d.y)
            var count = line &>> 3
            if L.skipped, let base = d.source.rawBase {
                // Nothing reads the points: the pairs are only checked (`_checkLinePairs`),
                // as far as that check takes them, and the cursor is left behind (the
                // points after it are not handed to anyone either).
                let (p, left) = _checkLinePairs(base, d.source.rawPosition, d.source.rawEnd,
                                                d.source.rawLoadable, Int(count))
                d.source.rawPosition = p
                count = UInt32(truncatingIfNeeded: left)
            }
            if count > 0 {
                var unused = _ShoelaceSum()
                try d.run(count, lineOffset, &h, _LineRun.self, area: &unused)
            }
            h.lineEnd()
        }
        if !any { throw .invalidGeometry(reason: "empty LINESTRING geometry", offset: d.offset0) }
    }

    /// POLYGON: rings of MoveTo(1), LineTo(n ≥ 2), ClosePath(1); the first ring of each
    /// polygon exterior (§4.3.4.4, D3, D4).
    @inlinable
    mutating func polygons<H: GeometryHandler, L: _LinePoints>(_ h: inout H, _ linePoints: L.Type) throws(MVTError) {
        // The loop works on a local copy, which the optimiser can keep in registers; the
        // decoder is not used after its geometry is read, so nothing is written back.
        var d = self
        var rings = 0
        // Each command is compared whole with what the grammar expects here (MoveTo(1) is 9,
        // ClosePath(1) is 15, LineTo(n ≥ 2) is 2 + 8n); anything else goes to
        // `_unexpected`, which tells an unknown command id from a grammar error.
        while let move = try d.source.next() {
            let moveOffset = d.source.lastOffset
            guard move == 9 else {
                throw d._unexpected(move, else: .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: moveOffset))
            }
            _ = try d.pair(moveOffset, wide: true)
            let line = try d.source.next()
            guard let line, line & 7 == 2, line >= 16 else {
                throw d._unexpected(line, else: .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: moveOffset))
            }
            let lineOffset = d.source.lastOffset
            h.ringBegin()
            h.ringPoint(x: d.x, y: d.y)
            // Taken relative to the first vertex, rings far from the tile sum as exactly as
            // rings near it.
            var area = _ShoelaceSum(originX: d.x, originY: d.y)
            try d.run(line &>> 3, lineOffset, &h, _RingRun.self, area: &area)
            let close = try d.source.next()
            guard close == 15 else {
                let grammar: MVTError = close.map { $0 & 7 == 7 } == true
                    ? .invalidClosePath(count: close! &>> 3, offset: d.source.lastOffset)
                    : .invalidGeometry(reason: "ring must end with ClosePath", offset: lineOffset)
                throw d._unexpected(close, else: grammar)
            }
            area.close(d.x, d.y)
            let kind = area.kind
            if rings == 0 && kind == .interior { throw .interiorRingFirst(offset: moveOffset) }
            rings &+= 1
            h.ringEnd(kind)
            // More rings, for a handler that ignores them (`_CheckedOnly`), are checked apart.
            if L.laterRingsChecked, d.source.rawBase != nil, d.source.rawPosition < d.source.rawEnd {
                try d._checkLaterRings()
                return
            }
        }
        if rings == 0 { throw .invalidGeometry(reason: "empty POLYGON geometry", offset: d.offset0) }
    }

    /// The rings of a POLYGON geometry after its first, for a handler that ignores them
    /// (`_CheckedOnly`): their commands are checked as `polygons` checks them and their
    /// LineTo pairs as a line's (`_checkLinePairs`; a pair it does not take is decoded,
    /// and the check resumes after it), with the same errors at the same offsets; their
    /// points, areas and kinds are not computed, and the cursor is left behind. (Out of
    /// line, and without `run`, so that the validator's polygon loop keeps a single copy of
    /// the decoding loop, for the first ring.)
    @usableFromInline @inline(never)
    mutating func _checkLaterRings() throws(MVTError) {
        while let move = try source.next() {
            let moveOffset = source.lastOffset
            guard move == 9 else { throw _ringStartError(move, moveOffset) }
            _ = try pair(moveOffset, wide: true)
            let line = try source.next()
            guard let line, line & 7 == 2, line >= 16 else { throw _ringLineError(line, moveOffset) }
            let lineOffset = source.lastOffset
            var count = Int(line &>> 3)
            while count > 0 {
                if let base = source.rawBase {
                    let (p, left) = _checkLinePairs(base, source.rawPosition, source.rawEnd, source.rawLoadable, count)
                    source.rawPosition = p
                    count = left
                    if count == 0 { break }
                }
                // A pair the check did not take (or every pair, read through the stream),
                // decoded as `run` decodes it.
                let d = try pair(lineOffset)
                count &-= 1
                if d.dx == 0 && d.dy == 0 && mode == .strict { throw .zeroLengthSegment(offset: source.lastOffset) }
            }
            let close = try source.next()
            guard close == 15 else { throw _ringEndError(close, lineOffset) }
        }
    }

    /// The error for `move` (nil: the geometry's end) where a ring's MoveTo(1) belongs.
    @inlinable @inline(__always)
    func _ringStartError(_ move: UInt32?, _ moveOffset: Int) -> MVTError {
        _unexpected(move, else: .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: moveOffset))
    }

    /// The error for `line` where a ring's LineTo with count ≥ 2 belongs.
    @inlinable @inline(__always)
    func _ringLineError(_ line: UInt32?, _ moveOffset: Int) -> MVTError {
        _unexpected(line, else: .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: moveOffset))
    }

    /// The error for `close` where a ring's ClosePath(1) belongs.
    @inlinable @inline(__always)
    func _ringEndError(_ close: UInt32?, _ lineOffset: Int) -> MVTError {
        let grammar: MVTError = close.map { $0 & 7 == 7 } == true
            ? .invalidClosePath(count: close! &>> 3, offset: source.lastOffset)
            : .invalidGeometry(reason: "ring must end with ClosePath", offset: lineOffset)
        return _unexpected(close, else: grammar)
    }

    @inlinable
    var offset0: Int { source.startOffset }
}

/// Whether `id` is MoveTo, LineTo or ClosePath (§4.3.1).
@inlinable @inline(__always)
func _isCommandID(_ id: UInt32) -> Bool { id == 1 || id == 2 || id == 7 }

/// `_GeometryDecoder._unexpected`, out of line.
@usableFromInline @inline(never)
func _unexpectedCommand(_ raw: UInt32?, _ offset: Int, _ grammar: MVTError) -> MVTError {
    if let raw, !_isCommandID(raw & 7) { return .invalidCommand(raw & 7, offset: offset) }
    return grammar
}

/// Whether a LINESTRING's points are decoded (`_DecodedLinePoints`, what `decodeGeometry`
/// does) or, for a handler whose `linePoint` does nothing, only checked where that can be
/// done without decoding them (`_SkippedLinePoints`, the validator's choice): chosen by
/// type, so each choice compiles to its own loop.
///
/// `_CheckedOnly` goes further, for a handler that ignores every call (the validator
/// without warnings): the LineTo pairs of a polygon's rings after the geometry's first are
/// checked as a line's are, and neither their points nor their kinds are computed. No MUST
/// rule needs them: only the first ring's kind is judged (D4; an exterior ring starts each
/// further polygon, §4.3.4.4), and a zero-area ring is a warning (D7). The handler hears
/// nothing of those rings but some of their points.
@usableFromInline protocol _LinePoints {
    static var skipped: Bool { get }
    static var laterRingsChecked: Bool { get }
}
@usableFromInline enum _DecodedLinePoints: _LinePoints {
    @inlinable static var skipped: Bool { false }
    @inlinable static var laterRingsChecked: Bool { false }
}
@usableFromInline enum _SkippedLinePoints: _LinePoints {
    @inlinable static var skipped: Bool { true }
    @inlinable static var laterRingsChecked: Bool { false }
}
@usableFromInline enum _CheckedOnly: _LinePoints {
    @inlinable static var skipped: Bool { true }
    @inlinable static var laterRingsChecked: Bool { true }
}

/// How far the `pairs` LineTo pairs from byte `start` of a packed record `end` bytes long
/// can be passed over without decoding them, for a handler that ignores line points: the
/// offset after the pairs taken, and how many pairs are left for the decoding loop, which
/// also reports any error among them.
///
/// The bytes are read eight at a time while they can be loaded (`loadable`, at least
/// `end`), each word at a fixed stride from `start`, so no load waits for the one before:
/// the varints ending in a word (a byte below 0x80, inside the record) are counted until
/// the pairs' values are all seen. A word ends the walk, and the whole pairs before it are
/// taken, when no varint ends in it, when five of its bytes in a row continue a varint
/// (which a varint too long to read needs, P1), when a byte 0x00 or 0x80 follows a byte
/// 0x80 (which a value of more than one byte read as zero needs), or when a pair's second
/// value is a zero byte after a zero byte (which a zero-length pair in its usual form
/// needs, C8), also across words. A zero byte is always a varint's end, so a value taken
/// here that reads as zero is the one-byte form, and a pair taken is not a zero-length
/// step; every value taken is a well-formed varint of at most nine bytes, which the
/// decoding loop takes as well (P10: its low 32 bits).
@inlinable @inline(__always)
func _checkLinePairs(_ b: UnsafeRawPointer, _ start: Int, _ end: Int, _ loadable: Int, _ pairs: Int) -> (Int, Int) {
    let need = pairs &* 2
    var q = start, before = 0
    var zeroBefore: UInt64 = 0, b80Before: UInt64 = 0
    while q &+ 8 <= loadable {
        // Safe: q + 8 <= loadable.
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: q, as: UInt64.self))
        let inRecord = _recordBytes(end &- q)
        let zero = _zeroBytes(w) & inRecord
        let b80 = _zeroBytes(w ^ 0x8080_8080_8080_8080) & inRecord
        let ends = ~w & 0x8080_8080_8080_8080 & inRecord
        // Byte i of `seen` counts the varints ending in bytes 0...i; its top byte counts
        // them all (a multiplication: baseline x86-64 has no population count).
        let seen = (ends &>> 7) &* 0x0101_0101_0101_0101
        // Bit 7 of each byte where the values seen so far, the one ending there included,
        // are even in number: a value ending there is a pair's second.
        let second = (~(seen ^ UInt64(truncatingIfNeeded: before & 1) &* 0x0101_0101_0101_0101)
            & 0x0101_0101_0101_0101) &<< 7
        // Five bytes in a row that continue a varint, within the word, are left to the
        // decoding loop: a varint of ten bytes or more has nine such bytes, five of them in
        // one word, so every value taken has at most nine bytes and is well formed.
        let more = w & 0x8080_8080_8080_8080 & inRecord
        // A value read as zero (its low 32 bits, P10) of two to four bytes ends in bytes
        // 0x80 0x00, and one of five bytes or more starts with four bytes 0x80; a zero byte
        // after a zero byte, as a pair's second value, ends a pair of zero values, a
        // zero-length step in its usual form (C8). A byte 0x00 or 0x80 after a byte 0x80,
        // and that pair of zero bytes, are left to the decoding loop, so a value taken that
        // reads as zero is one byte 0x00, and never both of a pair.
        let bad = (zero | b80) & (b80 &<< 8 | b80Before) | zero & (zero &<< 8 | zeroBefore) & second
            | _fiveInARow(more)
        guard bad == 0, ends != 0 else { break }
        let here = Int(truncatingIfNeeded: seen &>> 56)
        if before &+ here >= need {
            // The first byte where the count reaches what is still needed ends the last value.
            let last = _zeroBytes(seen ^ UInt64(truncatingIfNeeded: need &- before) &* 0x0101_0101_0101_0101)
                .trailingZeroBitCount &>> 3
            return (q &+ last &+ 1, 0)
        }
        before &+= here
        zeroBefore = zero &>> 56
        b80Before = b80 &>> 56
        q &+= 8
    }
    return _linePairsBefore(b, start, q, end, before, pairs)
}

/// Where `_checkLinePairs` stopped, at the word at `q`: the offset after the whole pairs
/// among the `before` values that end before it, and the pairs left. Every word from
/// `start` to `q` has a value ending in it, so the last of those values ends in the word
/// before `q` and the one before it there or in the word before that.
@usableFromInline @inline(never)
func _linePairsBefore(_ b: UnsafeRawPointer, _ start: Int, _ q: Int, _ end: Int, _ before: Int, _ pairs: Int) -> (Int, Int) {
    let take = before & ~1
    guard take > 0 else { return (start, pairs) }
    // Offset after the last varint ending in the word at `at` among those in `ends`.
    func after(_ ends: UInt64, _ at: Int) -> Int { at &+ (63 &- ends.leadingZeroBitCount) &>> 3 &+ 1 }
    func endsOfWord(_ at: Int) -> UInt64 {
        // Safe: the walk loaded this word.
        ~UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) & 0x8080_8080_8080_8080
            & _recordBytes(end &- at)
    }
    let last = endsOfWord(q &- 8)
    var position: Int
    if take == before {
        position = after(last, q &- 8)
    } else {
        let rest = last & ~(1 &<< UInt64(63 &- last.leadingZeroBitCount))
        position = rest != 0 ? after(rest, q &- 8) : after(endsOfWord(q &- 16), q &- 16)
    }
    return (position, pairs &- take &>> 1)
}

/// Nonzero when five consecutive bytes of `flags` (bit 7 of each byte) are set.
@inlinable @inline(__always)
func _fiveInARow(_ flags: UInt64) -> UInt64 {
    flags & flags &>> 8 & flags &>> 16 & flags &>> 24 & flags &>> 32
}

/// Bit 7 of each byte of `v` that is zero (exact: no carry crosses a byte).
@inlinable @inline(__always)
func _zeroBytes(_ v: UInt64) -> UInt64 {
    ~(((v & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | v) & 0x8080_8080_8080_8080
}

/// A mask of the low `n` bytes of a word (all of them when `n` is 8 or more; none when 0
/// or less). (A branch-free form with two shifts was slower: the branch is predicted.)
@inlinable @inline(__always)
func _recordBytes(_ n: Int) -> UInt64 {
    n >= 8 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: max(n, 0) &* 8)) &- 1
}

/// Whether a LineTo run belongs to a ring (its area is summed) or to a line, as a type so
/// each kind gets its own copy of the loop.
@usableFromInline protocol _RunKind { static var ring: Bool { get } }
@usableFromInline enum _RingRun: _RunKind { @inlinable static var ring: Bool { true } }
@usableFromInline enum _LineRun: _RunKind { @inlinable static var ring: Bool { false } }

/// Twice the signed area of a ring, with coordinates taken relative to an origin (a
/// ring's first vertex, so the sum does not depend on where the ring lies); exact in 64-bit
/// integers while it fits and in floating point after that, so crafted coordinates cannot
/// trap (D4).
///
/// Edges are summed in trapezoid form, (x₁ + x₂)·(y₂ − y₁): one multiplication per edge.
/// Over a closed ring the sum equals the shoelace formula's Σ x₁·y₂ − x₂·y₁, since each
/// edge's two terms differ by x₂·y₂ − x₁·y₁ and those differences cancel around the ring;
/// so every edge, the closing one included (`close`), must be added.
@usableFromInline
struct _ShoelaceSum {
    @usableFromInline let originX: Int64
    @usableFromInline let originY: Int64
    @usableFromInline var exact: Int64 = 0
    @usableFromInline var approx: Double = 0
    @usableFromInline var overflowed = false

    @inlinable init(originX: Int64 = 0, originY: Int64 = 0) {
        self.originX = originX
        self.originY = originY
    }

    /// Adds the term of the edge from (x1, y1) to (x2, y2), tile coordinates. (Decoded
    /// coordinates are sums of fewer than 2^31 32-bit deltas, so the differences do not
    /// wrap.)
    @inlinable
    mutating func add(_ tx1: Int64, _ ty1: Int64, _ tx2: Int64, _ ty2: Int64) {
        let x1 = tx1 &- originX, x2 = tx2 &- originX, dy = ty2 &- ty1
        if !overflowed {
            let (sx, o1) = x1.addingReportingOverflow(x2)
            let (t, o2) = sx.multipliedReportingOverflow(by: dy)
            let (s, o3) = exact.addingReportingOverflow(t)
            if o1 || o2 || o3 {
                overflowed = true
                approx = Double(exact)
            } else {
                exact = s
                return
            }
        }
        approx += (Double(x1) + Double(x2)) * Double(dy)
    }

    /// Adds the closing edge, from (x, y) back to the origin.
    @inlinable
    mutating func close(_ x: Int64, _ y: Int64) {
        add(x, y, originX, originY)
    }

    /// Adds the terms of a chain of edges from y = sy to y = ey, given the sum of their
    /// terms (x₁ + x₂)·(y₂ − y₁) in tile coordinates with wrapping arithmetic, when their
    /// sum relative to the origin is known to fit: Σ (x₁ + x₂ − 2·ox)·(y₂ − y₁) is the
    /// tile sum less 2·ox·(ey − sy), and wrapping arithmetic keeps that identity modulo
    /// 2^64, so the result, which fits, is exact.
    @inlinable
    mutating func addBlock(_ trapezoids: Int64, fromY sy: Int64, toY ey: Int64) {
        addExact(trapezoids &- 2 &* originX &* (ey &- sy))
    }

    /// Adds a partial sum known to be exact.
    @inlinable
    mutating func addExact(_ partial: Int64) {
        if !overflowed {
            let (s, o) = exact.addingReportingOverflow(partial)
            if !o { exact = s; return }
            overflowed = true
            approx = Double(exact)
        }
        approx += Double(partial)
    }

    /// Positive area (y down, clockwise on screen) is exterior (§4.3.4.4).
    @inlinable @inline(__always)
    var kind: RingKind {
        let v = overflowed ? (approx > 0 ? 1 : approx < 0 ? -1 : 0) : exact.signum()
        return v > 0 ? .exterior : v < 0 ? .interior : .degenerate
    }
}

/// A POINT geometry record of `n` bytes at `b` that is exactly one MoveTo(1) and its pair
/// (§4.3.4.2), each value of one to three bytes, read from one 8-byte load: the position,
/// from the cursor at (0, 0) (§4.3.1); nil for anything else, which the command loop then
/// reads. Bytes may be loaded from `before` bytes before `b` to `loadable` bytes after it:
/// the load ends at the record's end when there is room before it (the record is usually
/// the feature's last field), else it starts at the record.
@inlinable @inline(__always)
func _singlePoint(_ b: UnsafeRawPointer, _ n: Int, _ before: Int, _ loadable: Int) -> (x: Int64, y: Int64)? {
    guard n >= 3 && n <= 7 else { return nil }
    let w: UInt64
    if before &+ n >= 8 {
        // Safe: from n - 8 >= -before to n <= loadable. The record's bytes, moved to the low end.
        w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &>> UInt64(64 &- 8 &* n)
    } else if loadable >= 8 {
        // Safe: 8 <= loadable. Bytes past the record are not used (length + 1 == n).
        w = UInt64(littleEndian: b.loadUnaligned(as: UInt64.self))
    } else {
        return nil
    }
    guard w & 0xFF == 0x09 else { return nil }
    let v = w &>> 8
    let ux: UInt64, uy: UInt64
    if n == 7 && v & 0x8080_8080_8080 == 0x0080_8000_8080 {
        // Two three-byte values (unclipped tiles' usual point): both compacted at once.
        let t = v & 0x7F_7F7F_7F7F7F
        let c = t & 0x00_007F_00_007F | (t &>> 1) & 0x00_3F80_00_3F80 | (t &>> 2) & 0x1F_C000_1F_C000
        ux = c & 0x1F_FFFF; uy = c &>> 24
    } else if n == 5 && v & 0x8080_8080 == 0x0080_0080 {
        // Two two-byte values.
        let t = v & 0x7F7F_7F7F
        let c = t & 0x007F_007F | (t &>> 1) & 0x3F80_3F80
        ux = c & 0xFFFF; uy = c &>> 16
    } else {
        guard let (lx, ly, length) = _varintPair3(v), length &+ 1 == n else { return nil }
        ux = lx; uy = ly
    }
    return (ZigZag.decode(ux), ZigZag.decode(uy))
}
