// The raw varint kernels of PBF against the scalar reference (Tests/PBFTests/
// VarintReference.swift), on every fuzz input: at every offset of the first 64 bytes, each
// kernel must give what the reference gives, and never read a value from past the end.
import PBF

func checkPBFKernels(_ bytes: UnsafeRawBufferPointer) {
    guard let b = bytes.baseAddress else { return }
    let n = bytes.count
    for p in 0..<min(n, 64) {
        let ref = VarintReference.read(bytes, p, n)
        var q = p
        let v = _rawVarint(b, &q, n)
        precondition(v == ref?.value && q == (ref?.next ?? p), "_rawVarint differs from the reference at \(p)")
        if let r = _rawVarintLong(b, p, n, n) {
            precondition(r.0 == ref?.value && r.1 == ref?.next, "_rawVarintLong differs at \(p)")
        } else {
            precondition(ref == nil, "_rawVarintLong refuses a varint at \(p)")
        }
        for end in p + 1 ... min(n, p + 11) {
            let r = VarintReference.read(bytes, p, end)
            let filling = r?.next == end ? r?.value : nil
            precondition(_rawVarintFilling(b, p, end, loadable: n) == filling, "_rawVarintFilling differs at \(p)..<\(end)")
        }
        let second = ref.flatMap { VarintReference.read(bytes, $0.next, n) }
        let pair = _rawVarintPair(b, p, n)
        precondition(pair?.0 == ref.flatMap { second == nil ? nil : UInt32(truncatingIfNeeded: $0.value) }
                     && pair?.1 == second.map { UInt32(truncatingIfNeeded: $0.value) }
                     && pair?.2 == second?.next, "_rawVarintPair differs at \(p)")
        var r = p
        let payload = _rawPayload(b, &r, n)
        let expected = ref.flatMap { $0.value <= UInt64(n - $0.next) ? ($0.next, $0.next + Int($0.value)) : nil }
        precondition(payload.map { Int($0.0) } == expected?.0 && payload.map { Int($0.1) } == expected?.1,
                     "_rawPayload differs at \(p)")
    }
}
