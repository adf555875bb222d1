import PBF

/// The record at `p` (`p < n`) when it is a layer's feature (key byte 0x12), key (0x1A) or
/// value (0x22) with a length that fits before `n`: its key byte and where its payload
/// starts and ends. Nil for anything else, which the checked reader then takes.
@inlinable @inline(__always)
func _rawTableRecord(_ b: UnsafeRawPointer, _ p: Int, _ n: Int) -> (key: UInt8, start: Int, end: Int)? {
    // Safe: p < n.
    let key = b.load(fromByteOffset: p, as: UInt8.self)
    guard key == 0x12 || key == 0x1A || key == 0x22 else { return nil }
    var q = p &+ 1
    guard let length = _rawVarint(b, &q, n), length <= UInt64(n &- q) else { return nil }
    return (key, q, q &+ Int(length))
}
