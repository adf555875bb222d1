import PBF

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
