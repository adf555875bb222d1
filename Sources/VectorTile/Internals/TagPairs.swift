import PBF

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
