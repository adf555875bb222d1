/// The scalar reference the raw varint kernels are compared with, written from the wire
/// format's rules rather than from the kernels: a varint is at most 10 bytes, the 10th at
/// most 1 (P1); its bytes must lie before the end given; overlong forms are valid (P2).
/// Shared by `RawKernelTests` and the fuzzer (`Tests/Fuzz/run.sh` compiles this file in).
enum VarintReference {
    /// The varint at `p` of `bytes[..<n]`: its value and the offset after it; nil when it
    /// is cut by `n` or longer than the rules allow.
    static func read(_ bytes: UnsafeRawBufferPointer, _ p: Int, _ n: Int) -> (value: UInt64, next: Int)? {
        var v: UInt64 = 0
        var q = p
        for i in 0..<10 {
            guard q < n, q < bytes.count else { return nil }
            let c = UInt64(bytes[q])
            q += 1
            if i == 9 {
                guard c <= 1 else { return nil }
                return (v | c << 63, q)
            }
            v |= (c & 0x7F) << (7 * UInt64(i))
            if c < 0x80 { return (v, q) }
        }
        return nil
    }

    static func read(_ bytes: [UInt8], _ p: Int, _ n: Int) -> (value: UInt64, next: Int)? {
        bytes.withUnsafeBytes { read($0, p, n) }
    }
}
