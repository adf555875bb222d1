/// A forward cursor over protobuf bytes the caller owns.
///
/// The reader borrows its bytes: create it inside `withUnsafeBytes` (or with
/// `PBFReader.read(_:_:)`) and do not let it escape that scope. `read*` methods consume;
/// on error they throw and leave the cursor where it was.
///
/// - Complexity: every read is O(bytes read); nothing allocates.
public struct PBFReader {
    @usableFromInline let base: UnsafeRawBufferPointer
    /// Bytes from the start of the buffer to the cursor.
    @inlinable
    public var offset: Int { _offset }
    @usableFromInline var _offset: Int
    /// Offset of `base` within the caller's original buffer, so errors name the position in
    /// the whole input even for a sub-reader.
    @usableFromInline let origin: Int

    /// A reader over `bytes`, which must stay valid while the reader is used.
    @inlinable
    public init(bytes: UnsafeRawBufferPointer, origin: Int = 0) {
        self.base = bytes
        self._offset = 0
        self.origin = origin
    }

    /// Runs `body` with a reader over `bytes`.
    public static func read<R, E: Error>(_ bytes: [UInt8], _ body: (inout PBFReader) throws(E) -> R) throws(E) -> R {
        // withUnsafeBytes does not forward typed throws, so the error travels in a Result.
        let result: Result<R, E> = bytes.withUnsafeBytes { raw in
            var reader = PBFReader(bytes: raw)
            do throws(E) { return .success(try body(&reader)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Offset of the cursor from the start of the caller's whole input (for sub-readers,
    /// the offset within the buffer they were cut from).
    @inlinable
    public var absoluteOffset: Int { origin + _offset }
    /// Offset of this reader's first byte within the caller's whole input.
    @inlinable
    public var absoluteStart: Int { origin }

    /// True when every byte has been consumed.
    @inlinable
    public var isAtEnd: Bool { _offset >= base.count }
    /// Bytes left after the cursor.
    @inlinable
    public var remaining: Int { base.count - _offset }

    /// Reads a base-128 varint of at most 10 bytes (mvt-pbf P1–P3). Overlong but ≤ 10-byte
    /// encodings are accepted (P2); an 11th byte or a 10th byte above 1 is `varintTooLong`.
    ///
    /// - Throws: `PBFError.truncated`, `PBFError.varintTooLong`.
    @inlinable @inline(__always)
    public mutating func readVarint() throws(PBFError) -> UInt64 {
        let p = _offset
        if p < base.count {
            // Safe: p < base.count, so the buffer is non-empty and has a base address.
            let ptr = base.baseAddress.unsafelyUnwrapped
            let first = ptr.load(fromByteOffset: p, as: UInt8.self)
            if first < 0x80 {
                _offset = p &+ 1
                return UInt64(first)
            }
            // Two-byte values (below 16384: most geometry deltas and tag indices) also stay
            // inline. Safe: p + 1 < base.count is checked first.
            if p &+ 1 < base.count {
                let second = ptr.load(fromByteOffset: p &+ 1, as: UInt8.self)
                if second < 0x80 {
                    _offset = p &+ 2
                    return UInt64(first & 0x7F) | UInt64(second) &<< 7
                }
                // Three-byte values (below 2^21: indices into large value tables, OSM
                // timestamps' neighbours) too. Safe: p + 2 < base.count is checked first.
                if p &+ 2 < base.count {
                    let third = ptr.load(fromByteOffset: p &+ 2, as: UInt8.self)
                    if third < 0x80 {
                        _offset = p &+ 3
                        return UInt64(first & 0x7F) | UInt64(second & 0x7F) &<< 7 | UInt64(third) &<< 14
                    }
                }
            }
        }
        return try _readVarintMultiByte()
    }

    /// Everything but the one-byte case, kept out of line so the inlined fast path stays
    /// small.
    @usableFromInline @inline(never)
    mutating func _readVarintMultiByte() throws(PBFError) -> UInt64 {
        let p = _offset
        guard p < base.count else { throw .truncated(offset: origin + p) }
        let ptr = base.baseAddress.unsafelyUnwrapped + p
        let first = UInt64(ptr.load(as: UInt8.self))
        if base.count - p >= 10 {
            return try _readVarintUnrolled(ptr, first: first)
        }
        return try _readVarintChecked()
    }

    /// Multi-byte varint when at least 10 bytes remain: no bounds checks are needed, as a
    /// valid varint never reads past its 10th byte.
    @inlinable @inline(__always)
    mutating func _readVarintUnrolled(_ ptr: UnsafeRawPointer, first: UInt64) throws(PBFError) -> UInt64 {
        var result = first & 0x7F
        var shift: UInt64 = 7
        var i = 1
        // Safe: i stays below 10 and at least 10 bytes remain after ptr.
        while i < 9 {
            let b = UInt64(ptr.load(fromByteOffset: i, as: UInt8.self))
            result |= (b & 0x7F) &<< shift
            i &+= 1
            if b < 0x80 {
                _offset &+= i
                return result
            }
            shift &+= 7
        }
        // The 10th byte may only contribute bit 63 (mvt-pbf P1).
        let last = UInt64(ptr.load(fromByteOffset: 9, as: UInt8.self))
        guard last <= 1 else { throw .varintTooLong(offset: origin + _offset) }
        _offset &+= 10
        return result | last &<< 63
    }

    /// Multi-byte varint near the end of the input: every byte is bounds-checked. Fewer than
    /// 10 bytes remain, so a complete varint here is at most 9 bytes (63 bits).
    @usableFromInline
    mutating func _readVarintChecked() throws(PBFError) -> UInt64 {
        let start = _offset
        let end = base.count
        var p = start
        var result: UInt64 = 0
        var shift: UInt64 = 0
        // Safe: every load is at p < end; fewer than 10 bytes remain, so shift stays < 64.
        let ptr = base.baseAddress.unsafelyUnwrapped
        while p < end {
            let b = ptr.load(fromByteOffset: p, as: UInt8.self)
            p &+= 1
            result |= UInt64(b & 0x7F) &<< shift
            if b < 0x80 {
                _offset = p
                return result
            }
            shift &+= 7
        }
        throw .truncated(offset: origin &+ start)
    }

    /// A varint read as `uint32`: truncated to its low 32 bits, as protobuf's C++ and Java
    /// readers do (mvt-pbf P10).
    @inlinable @inline(__always)
    public mutating func readUInt32() throws(PBFError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readVarint())
    }

    /// A `sint32` (zigzag over the low 32 bits, P11).
    @inlinable
    public mutating func readSInt32() throws(PBFError) -> Int32 {
        ZigZag.decode(try readUInt32())
    }

    /// A `sint64` (zigzag, P11).
    @inlinable
    public mutating func readSInt64() throws(PBFError) -> Int64 {
        ZigZag.decode(try readVarint())
    }

    /// A little-endian 32-bit value (fixed32, sfixed32's bits, float's bits).
    @inlinable
    public mutating func readFixed32() throws(PBFError) -> UInt32 {
        guard remaining >= 4 else { throw .truncated(offset: origin + offset) }
        // Safe: 4 bytes remain.
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        _offset += 4
        return UInt32(littleEndian: v)
    }

    /// A little-endian 64-bit value (fixed64, sfixed64's bits, double's bits).
    @inlinable
    public mutating func readFixed64() throws(PBFError) -> UInt64 {
        guard remaining >= 8 else { throw .truncated(offset: origin + offset) }
        // Safe: 8 bytes remain.
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        _offset += 8
        return UInt64(littleEndian: v)
    }

    @inlinable
    public mutating func readFloat() throws(PBFError) -> Float { Float(bitPattern: try readFixed32()) }
    @inlinable
    public mutating func readDouble() throws(PBFError) -> Double { Double(bitPattern: try readFixed64()) }

    /// Reads a field key: field number and wire type (P4, P5). Group wire types are
    /// reported as `deprecatedGroup`; 6 and 7 as `invalidWireType`.
    @inlinable @inline(__always)
    public mutating func readKey() throws(PBFError) -> (field: UInt32, wireType: WireType) {
        let p = _offset
        if p < base.count {
            // Safe: p < base.count.
            let b = base.baseAddress.unsafelyUnwrapped.load(fromByteOffset: p, as: UInt8.self)
            // Fast path: a one-byte key (fields 1–15) of a wire type that carries a value.
            if b < 0x80 && b >= 8 {
                let w = b & 7
                if w <= 2 || w == 5 {
                    _offset = p &+ 1
                    return (UInt32(b >> 3), WireType(_valueCarrying: w))
                }
            }
        }
        return try _readKeySlow()
    }

    @usableFromInline @inline(never)
    mutating func _readKeySlow() throws(PBFError) -> (field: UInt32, wireType: WireType) {
        let start = _offset
        let key = try readVarint()
        guard key <= UInt64(UInt32.max), key >> 3 != 0 else {
            _offset = start
            throw .invalidFieldNumber(offset: origin + start)
        }
        let raw = UInt8(key & 7)
        guard let wire = WireType(rawValue: raw) else {
            _offset = start
            throw .invalidWireType(Int(raw), offset: origin + start)
        }
        if wire == .startGroup || wire == .endGroup {
            _offset = start
            throw .deprecatedGroup(offset: origin + start)
        }
        return (UInt32(key >> 3), wire)
    }

    /// Reads a length prefix and returns a reader over the field's bytes, which point into
    /// the same buffer (nothing is copied). The length is checked against the bytes
    /// remaining and against 2^31 − 1 (P3, P14).
    @inlinable @inline(__always)
    public mutating func readLengthDelimited() throws(PBFError) -> PBFReader {
        let n = try readLength()
        // Safe: readLength read a prefix (so the buffer is non-empty) and checked that n
        // bytes remain.
        let sub = PBFReader(bytes: UnsafeRawBufferPointer(start: base.baseAddress.unsafelyUnwrapped + _offset, count: n),
                            origin: origin &+ _offset)
        _offset &+= n
        return sub
    }

    /// Reads a length prefix, checked like `readLengthDelimited()`, and leaves the cursor
    /// at the first byte of the field; follow with `advance(by:)` to pass over it. For
    /// scans that only note where a field lies.
    @inlinable @inline(__always)
    public mutating func readLength() throws(PBFError) -> Int {
        let start = _offset
        let length = try readVarint()
        guard length < 1 << 31, length <= UInt64(base.count &- _offset) else {
            let rem = base.count &- _offset
            _offset = start
            throw .lengthOutOfBounds(length: length, remaining: rem, offset: origin + start)
        }
        return Int(length)
    }

    /// Moves the cursor forward by `count` bytes.
    ///
    /// - Precondition: `0 <= count <= remaining` (as `readLength()` guarantees).
    @inlinable @inline(__always)
    public mutating func advance(by count: Int) {
        assert(count >= 0 && count <= remaining, "advance past the end")
        _offset &+= count
    }

    /// A reader over bytes `start..<end` of this reader, with its cursor at `start`'s byte
    /// and errors located in the caller's whole input.
    ///
    /// - Precondition: `0 <= start <= end <= bytes.count`.
    @inlinable @inline(__always)
    public func slice(_ start: Int, _ end: Int) -> PBFReader {
        precondition(start >= 0 && start <= end && end <= base.count, "slice outside the reader")
        guard let address = base.baseAddress else { return PBFReader(bytes: base, origin: origin) }
        // Safe: the range lies inside base (checked above).
        return PBFReader(bytes: UnsafeRawBufferPointer(start: address + start, count: end &- start),
                         origin: origin &+ start)
    }

    /// The bytes of the whole reader, borrowed.
    @inlinable
    public var bytes: UnsafeRawBufferPointer { base }

    /// The same reader with its cursor at `offset` (bytes from the start of this reader).
    ///
    /// - Precondition: `0 <= offset <= bytes.count` (API misuse otherwise).
    @inlinable
    public func positioned(at offset: Int) -> PBFReader {
        precondition(offset >= 0 && offset <= base.count, "offset outside the reader")
        var r = self
        r._offset = offset
        return r
    }

    /// Skips the value of a field of the given wire type (P6).
    @inlinable
    public mutating func skip(_ wireType: WireType) throws(PBFError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .startGroup, .endGroup: throw .deprecatedGroup(offset: origin + offset)
        }
    }

    /// Iterates the varints of a packed field in place (P7, P15); `body` gets each value.
    ///
    /// - Throws: the first `PBFError` in the packed bytes; values before it were delivered.
    @inlinable
    public mutating func forEachVarint(_ body: (UInt64) -> Void) throws(PBFError) {
        while !isAtEnd { body(try readVarint()) }
    }
}
