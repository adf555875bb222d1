/// Varints as the tests write them, in any length: the shortest form, or an overlong one
/// padded with continuation bytes (valid protobuf, P2), which the decoders must accept.
public enum TestVarint {
    /// `v` in `length` bytes, or in its shortest form when that is longer.
    public static func encode(_ v: UInt64, length: Int = 1) -> [UInt8] {
        var out: [UInt8] = []
        var rest = v
        repeat {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        } while rest != 0
        while out.count < length { out.append(0x80) }
        out[out.count - 1] &= 0x7F
        return out
    }
}
