// Raw varint kernels over borrowed bytes: the fast paths of every decoder in the package
// (PBFReader's checked methods are the careful path). They read through an
// `UnsafeRawPointer` and a byte count, return nil (never trap) on malformed or truncated
// input, and leave the reporting of why to the caller's checked path. They are `package`
// (not API) and `@inlinable`, so that VectorTile's loops inline them as if they were its own.
// Rule ids (P1, ...) are those of corpora/conformance/rules.tsv.

/// The payload of the length-delimited value at byte `p` of the `n` bytes at `b`: where
/// it starts and ends, with `p` moved past it; nil when its length is malformed or reaches
/// past `n`.
@usableFromInline @_transparent
package func _rawPayload(_ b: UnsafeRawPointer, _ p: inout Int, _ n: Int) -> (Int32, Int32)? {
    guard let length = _rawVarint(b, &p, n), length <= UInt64(n &- p) else { return nil }
    let start = Int32(truncatingIfNeeded: p)
    p &+= Int(length)
    return (start, Int32(truncatingIfNeeded: p))
}

/// A varint at byte `p` of the `n` bytes at `b`, moving `p` past it; nil when it is
/// truncated or too long (the caller then takes its checked path, which reports why).
/// `loadable` (at least `n`) is how many bytes from `b` may be loaded; values are never
/// read past `n`.
@inlinable @inline(__always)
package func _rawVarint(_ b: UnsafeRawPointer, _ p: inout Int, _ n: Int, loadable: Int? = nil) -> UInt64? {
    guard p < n else { return nil }
    // Safe: p < n.
    let c = b.load(fromByteOffset: p, as: UInt8.self)
    if c < 0x80 { p &+= 1; return UInt64(c) }
    if p &+ 1 < n {
        // Safe: p + 1 < n.
        let d = b.load(fromByteOffset: p &+ 1, as: UInt8.self)
        if d < 0x80 { p &+= 2; return UInt64(c & 0x7F) | UInt64(d) &<< 7 }
    }
    // The cursor is passed and returned by value so that callers keep theirs in a register.
    guard let (v, next) = _rawVarintLong(b, p, n, loadable ?? n) else { return nil }
    p = next
    return v
}

/// The value of the varint that fills bytes `p` to `n` of `b` exactly; nil when those bytes
/// are not one well-formed varint. `loadable` (at least `n`) is how many bytes from `b` may
/// be loaded. Its length is known, so a varint of up to 8 bytes with 8 loadable bytes at `p`
/// is checked and decoded from one load, without a call or a loop.
@inlinable @inline(__always)
package func _rawVarintFilling(_ b: UnsafeRawPointer, _ p: Int, _ n: Int, loadable: Int) -> UInt64? {
    let length = n &- p
    if length == 1 {
        // Safe: p < n.
        let c = b.load(fromByteOffset: p, as: UInt8.self)
        return c < 0x80 ? UInt64(c) : nil
    }
    if length == 5 && p &+ 8 <= loadable {
        // The usual length of large integer values (identifiers, times in seconds):
        // each byte's seven bits moved into place with one shift.
        // Safe: p + 8 <= loadable.
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
        guard w & 0x80_8080_8080 == 0x8080_8080 else { return nil }
        return w & 0x7F | (w &>> 1) & 0x3F80 | (w &>> 2) & 0x1F_C000 | (w &>> 3) & 0xFE0_0000
            | (w &>> 4) & 0x7_F000_0000
    }
    if length > 1 && length <= 8 && p &+ 8 <= loadable {
        // Safe: p + 8 <= loadable.
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
        let bits = UInt64(truncatingIfNeeded: length &* 8)
        // The first byte without a continuation bit must be the last one.
        guard (~w & 0x8080_8080_8080_8080).trailingZeroBitCount == Int(bits &- 1) else { return nil }
        return _compactVarint(bits == 64 ? w : w & ((1 &<< bits) &- 1))
    }
    var q = p
    guard let v = _rawVarint(b, &q, n, loadable: loadable), q == n else { return nil }
    return v
}

/// The value of the varint bytes in `w` (at most 8, the bytes above them zero): their low
/// seven bits, packed.
@inlinable @inline(__always)
package func _compactVarint(_ w: UInt64) -> UInt64 {
    var x = w & 0x7F7F_7F7F_7F7F_7F7F
    x = x & 0x007F_007F_007F_007F | (x & 0x7F00_7F00_7F00_7F00) &>> 1
    x = x & 0x0000_3FFF_0000_3FFF | (x & 0x3FFF_0000_3FFF_0000) &>> 2
    x = x & 0x0000_0000_0FFF_FFFF | (x & 0x0FFF_FFFF_0000_0000) &>> 4
    return x
}

/// The varint at `p` (any length): its value and the offset after it; at most 10 bytes,
/// the 10th at most 1 (P1). Varints of up to 8 bytes with 8 loadable bytes at `p` are
/// decoded from one load without a loop.
@inlinable
package func _rawVarintLong(_ b: UnsafeRawPointer, _ p: Int, _ n: Int, _ loadable: Int) -> (UInt64, Int)? {
    if p &+ 8 <= loadable {
        // Safe: p + 8 <= loadable.
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
        let stops = ~w & 0x8080_8080_8080_8080
        if stops != 0 {
            let bits = UInt64(stops.trailingZeroBitCount &+ 1)      // 8 × length
            let next = p &+ Int(bits &>> 3)
            guard next <= n else { return nil }
            return (_compactVarint(bits == 64 ? w : w & ((1 &<< bits) &- 1)), next)
        }
    }
    var q = p
    var v: UInt64 = 0
    var shift: UInt64 = 0
    while q < n {
        // Safe: q < n.
        let c = UInt64(b.load(fromByteOffset: q, as: UInt8.self))
        q &+= 1
        if shift == 63 {
            guard c <= 1 else { return nil }
            return (v | c &<< 63, q)
        }
        v |= (c & 0x7F) &<< shift
        if c < 0x80 { return (v, q) }
        shift &+= 7
    }
    return nil
}

/// The length in bytes of the varint at the low end of `w` when it is one to three bytes
/// long, else 0.
@inlinable @inline(__always)
package func _varintLength3(_ w: UInt64) -> UInt64 {
    let stops = ~w & 0x80_8080
    return stops == 0 ? 0 : UInt64(stops.trailingZeroBitCount &+ 1) &>> 3
}

/// The value of the `length`-byte varint (1...3) at the low end of `w`.
@inlinable @inline(__always)
package func _varintValue3(_ w: UInt64, _ length: UInt64) -> UInt64 {
    let x = w & ((1 &<< (length &* 8)) &- 1)
    return x & 0x7F | (x &>> 1) & 0x3F80 | (x &>> 2) & 0x1F_C000
}

/// The two varints at the low end of `w` when each is one to three bytes long: their values
/// and how many bytes they take together; nil otherwise.
@inlinable @inline(__always)
package func _varintPair3(_ w: UInt64) -> (x: UInt64, y: UInt64, length: Int)? {
    let lx = _varintLength3(w)
    guard lx != 0 else { return nil }
    let rest = w &>> (lx &* 8)
    let ly = _varintLength3(rest)
    guard ly != 0 else { return nil }
    return (_varintValue3(w, lx), _varintValue3(rest, ly), Int(lx &+ ly))
}

/// The one to seven bytes from `p` to `n` as a little-endian word, zero above them.
@inlinable @inline(never)
package func _window8(_ b: UnsafeRawPointer, _ p: Int, _ n: Int) -> UInt64 {
    var w: UInt64 = 0
    var i = min(n &- p, 8)
    // Safe: p + i - 1 < n for every load.
    while i > 0 {
        i &-= 1
        w = w &<< 8 | UInt64(b.load(fromByteOffset: p &+ i, as: UInt8.self))
    }
    return w
}

/// The offset after the `count` varints of one or two bytes at `p`.
@inlinable @inline(never)
package func _skipShortVarints(_ b: UnsafeRawPointer, _ p: Int, _ count: Int) -> Int {
    var q = p
    for _ in 0..<count {
        // Safe: these varints were read before, within the record.
        q &+= b.load(fromByteOffset: q, as: UInt8.self) < 0x80 ? 1 : 2
    }
    return q
}

/// The pair of varints at `p` as uint32 readings (any length, the low 32 bits kept), and
/// the offset after them; nil when either is malformed or does not end before `n`. Two
/// values of up to three bytes each, eight bytes or more before `n`, are read from one load.
@inlinable @inline(never)
package func _rawVarintPair(_ b: UnsafeRawPointer, _ p: Int, _ n: Int) -> (UInt32, UInt32, Int)? {
    if p &+ 8 <= n {
        // Both of one to three bytes (what unclipped geometry mostly has), from one load.
        // Safe: p + 8 <= n.
        if let (x, y, length) = _varintPair3(UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))) {
            return (UInt32(truncatingIfNeeded: x), UInt32(truncatingIfNeeded: y), p &+ length)
        }
    }
    guard let (x, p1) = _rawVarintLong(b, p, n, n), let (y, p2) = _rawVarintLong(b, p1, n, n) else { return nil }
    return (UInt32(truncatingIfNeeded: x), UInt32(truncatingIfNeeded: y), p2)
}
