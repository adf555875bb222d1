import PBF

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
