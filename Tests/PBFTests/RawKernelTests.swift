import GraticuleTestSupport
import GraticuleSupport
import PBF
import XCTest

/// Every raw varint kernel of PBF (`Internals/RawVarint.swift`, `Internals/BlockKernels.swift`)
/// against the scalar reference (`VarintReference`, from the wire format's rules). Inputs
/// are random streams with garbage after the end, so that a kernel reading past it would
/// change its answer, plus the edge values 0, 127, 128, 2^63 and UInt64.max, truncated and
/// 11-byte inputs.
final class RawKernelTests: XCTestCase {
    // MARK: Reference

    static func reference(_ bytes: [UInt8], _ p: Int, _ n: Int) -> (value: UInt64, next: Int)? {
        VarintReference.read(bytes, p, n)
    }

    static func varint(_ v: UInt64, length: Int = 1) -> [UInt8] { TestVarint.encode(v, length: length) }

    static let edges: [[UInt8]] = [
        varint(0), varint(127), varint(128), varint(1 << 63), varint(.max), varint(5, length: 3), varint(0, length: 10),
        [0x80], [0xFF, 0xFF], Array(repeating: 0xFF, count: 9) + [0x02],         // truncated; 10th byte 2
        Array(repeating: 0x80, count: 10) + [0x00],                              // 11 bytes
        Array(repeating: 0xFF, count: 9) + [0x01],                               // UInt64.max, 10 bytes
    ]

    /// A random stream of varints of every length, some overlong or malformed, and how many
    /// bytes of garbage follow it.
    static func stream(_ rng: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<rng.below(12) {
            switch rng.below(10) {
            case 0..<4: bytes += varint(UInt64(rng.below(128)))
            case 4..<6: bytes += varint(UInt64(rng.below(1 << 14)), length: 1 + rng.below(3))
            case 6: bytes += varint(rng.next() >> UInt64(rng.below(64)), length: 1 + rng.below(10))
            case 7: bytes += edges[rng.below(edges.count)]
            case 8: bytes.append(UInt8(truncatingIfNeeded: rng.next()))
            default: bytes += Array(repeating: 0x80 | UInt8(rng.below(128)), count: rng.below(12))
            }
        }
        return bytes
    }

    /// Calls `body` with the stream and, after it, `extra` bytes of garbage (a base pointer
    /// to `stream.count + extra` bytes).
    static func withGarbage<R>(_ stream: [UInt8], _ extra: Int, _ rng: inout SplitMix64,
                               _ body: (UnsafeRawPointer) -> R) -> R {
        let buffer = stream + (0..<extra).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return buffer.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) }
    }

    // MARK: Kernels

    func testRawVarintAndLongFormMatchReference() {
        var rng = SplitMix64(seed: 0x7261_7776_6172_6931)
        var read = 0, refused = 0
        for iteration in 0..<40_000 {
            let s = Self.stream(&rng)
            let n = s.count, extra = rng.below(12)
            var p = n == 0 ? 0 : rng.below(n + 1)
            let expected = Self.reference(s, p, n)
            Self.withGarbage(s, extra, &rng) { b in
                var q = p
                let got = _rawVarint(b, &q, n, loadable: n + extra)
                XCTAssertEqual(got, expected?.value, "iteration \(iteration), p \(p), \(s)")
                XCTAssertEqual(q, expected?.next ?? p, "cursor: iteration \(iteration)")
                var r = p
                XCTAssertEqual(_rawVarint(b, &r, n), expected?.value, "no loadable: iteration \(iteration)")
                if p < n {
                    let long = _rawVarintLong(b, p, n, n + extra)
                    XCTAssertEqual(long?.0, expected?.value, "long: iteration \(iteration)")
                    XCTAssertEqual(long?.1, expected?.next, "long: iteration \(iteration)")
                }
            }
            if expected == nil { refused += 1 } else { read += 1 }
            p = 0
        }
        XCTAssertGreaterThan(read, 10_000)
        XCTAssertGreaterThan(refused, 5_000)
    }

    func testVarintFillingARangeMatchesReference() {
        var rng = SplitMix64(seed: 0x6669_6C6C_696E_6701)
        var whole = 0
        for iteration in 0..<40_000 {
            let s = Self.stream(&rng)
            guard !s.isEmpty else { continue }
            let p = rng.below(s.count), n = p + 1 + rng.below(s.count - p)
            let extra = rng.below(12)
            let ref = Self.reference(s, p, n)
            let expected = ref?.next == n ? ref?.value : nil
            Self.withGarbage(s, extra, &rng) { b in
                XCTAssertEqual(_rawVarintFilling(b, p, n, loadable: s.count + extra), expected,
                               "iteration \(iteration), range \(p)..<\(n), \(s)")
            }
            if expected != nil { whole += 1 }
        }
        XCTAssertGreaterThan(whole, 5_000)
    }

    func testPairOfShortVarintsFromOneWordMatchesReference() {
        var rng = SplitMix64(seed: 0x7061_6972_3300_0001)
        var pairs = 0
        for _ in 0..<100_000 {
            var bytes = Self.stream(&rng) + (0..<8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            bytes = Array(bytes.prefix(8))
            let w = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let first = Self.reference(bytes, 0, min(3, bytes.count))
            let second = first.flatMap { Self.reference(bytes, $0.next, min($0.next + 3, bytes.count)) }
            let got = _varintPair3(w)
            if let first, let second {
                XCTAssertEqual(got?.x, first.value, "\(bytes)")
                XCTAssertEqual(got?.y, second.value, "\(bytes)")
                XCTAssertEqual(got?.length, second.next, "\(bytes)")
                pairs += 1
            } else {
                XCTAssertNil(got, "\(bytes)")
            }
        }
        XCTAssertGreaterThan(pairs, 20_000)
    }

    func testWindowOfTheLastBytes() {
        var rng = SplitMix64(seed: 0x7769_6E64_6F77_3801)
        for _ in 0..<10_000 {
            let s = (0..<(1 + rng.below(20))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let p = rng.below(s.count)
            let n = p + 1 + rng.below(min(8, s.count - p))
            let expected = s[p..<n].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            Self.withGarbage(s, 8, &rng) { b in XCTAssertEqual(_window8(b, p, n), expected, "\(s) \(p)..<\(n)") }
        }
    }

    func testLengthDelimitedPayloadMatchesReference() {
        var rng = SplitMix64(seed: 0x7061_796C_6F61_6401)
        var taken = 0
        for iteration in 0..<40_000 {
            var s = rng.chance(70) ? Self.varint(UInt64(rng.below(40)), length: 1 + rng.below(2)) : Self.stream(&rng)
            s += (0..<rng.below(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let n = s.count
            let ref = Self.reference(s, 0, n)
            let expected: (Int32, Int32)? = ref.flatMap { r in
                r.value <= UInt64(n - r.next) ? (Int32(r.next), Int32(r.next + Int(r.value))) : nil
            }
            Self.withGarbage(s, 8, &rng) { b in
                var p = 0
                let got = _rawPayload(b, &p, n)
                XCTAssertEqual(got?.0, expected?.0, "iteration \(iteration), \(s)")
                XCTAssertEqual(got?.1, expected?.1, "iteration \(iteration), \(s)")
                if let got { XCTAssertEqual(p, Int(got.1)) }
            }
            if expected != nil { taken += 1 }
        }
        XCTAssertGreaterThan(taken, 12_000)
    }

    func testVarintPairOfAnyLengthMatchesReference() {
        var rng = SplitMix64(seed: 0x7061_6972_616E_7901)
        var pairs = 0
        for iteration in 0..<40_000 {
            let s = Self.stream(&rng)
            let n = s.count
            let first = Self.reference(s, 0, n)
            let second = first.flatMap { Self.reference(s, $0.next, n) }
            Self.withGarbage(s, rng.below(12), &rng) { b in
                let got = _rawVarintPair(b, 0, n)
                if let first, let second {
                    XCTAssertEqual(got?.0, UInt32(truncatingIfNeeded: first.value), "iteration \(iteration), \(s)")
                    XCTAssertEqual(got?.1, UInt32(truncatingIfNeeded: second.value), "iteration \(iteration), \(s)")
                    XCTAssertEqual(got?.2, second.next, "iteration \(iteration), \(s)")
                } else {
                    XCTAssertNil(got, "iteration \(iteration), \(s)")
                }
            }
            if second != nil { pairs += 1 }
        }
        XCTAssertGreaterThan(pairs, 10_000)
    }

    func testSkippingShortVarints() {
        var rng = SplitMix64(seed: 0x736B_6970_0000_0001)
        for _ in 0..<10_000 {
            var s: [UInt8] = [], ends: [Int] = []
            for _ in 0..<rng.below(40) {
                s += Self.varint(UInt64(rng.below(1 << 14)), length: 1 + rng.below(2))
                ends.append(s.count)
            }
            let count = rng.below(ends.count + 1)
            let expected = count == 0 ? 0 : ends[count - 1]
            Self.withGarbage(s, 4, &rng) { b in XCTAssertEqual(_skipShortVarints(b, 0, count), expected, "\(s) count \(count)") }
        }
    }

    // MARK: SIMD kernels (x86)

    /// The SSSE3 decoder of zigzag pairs returns exactly the first pairs of the stream,
    /// zigzag decoded, and the bytes they take; never reads past `avail`; and stops early
    /// only where it may: at a value of three bytes or more, or within 8 bytes of `avail`.
    func testZigzagPairBlockDecoderMatchesReference() throws {
        #if arch(x86_64) || arch(i386)
        guard _hasSSSE3() else { throw XCTSkip("this CPU has no SSSE3") }
        var rng = SplitMix64(seed: 0x626C_6F63_6B31_3601)
        var stoppedAtLong = 0, stoppedNearEnd = 0, full = 0
        for iteration in 0..<20_000 {
            var stream: [UInt8] = [], values: [UInt64] = [], lengths: [Int] = []
            let longPercent: UInt64 = rng.chance(50) ? 0 : 4
            for _ in 0..<rng.below(200) {
                let v: UInt64, length: Int
                if rng.chance(longPercent) { v = UInt64(rng.below(1 << 32)); length = max(3, Self.varint(v).count) }
                else if rng.chance(30) { v = UInt64(rng.below(1 << 14)); length = 2 }
                else { v = UInt64(rng.below(128)); length = 1 }
                let e = Self.varint(v, length: length)
                stream += e; values.append(v); lengths.append(e.count)
            }
            let avail = stream.isEmpty ? 0 : rng.below(stream.count + 1)
            let maxPairs = rng.below(80)
            var out = [Int16](repeating: 0x5555, count: 2 * maxPairs + 8)
            var used = 0
            let pairs = Self.withGarbage(Array(stream[0..<avail]), 16, &rng) { b in
                out.withUnsafeMutableBufferPointer { _zigzagPairs16(b, avail, maxPairs, $0.baseAddress!, &used) }
            }
            let context = "iteration \(iteration), avail \(avail), max \(maxPairs)"
            XCTAssertLessThanOrEqual(pairs, maxPairs, context)
            var at = 0
            for i in 0..<(2 * pairs) {
                guard i < values.count else { XCTFail("more values than the stream holds: \(context)"); break }
                XCTAssertLessThanOrEqual(lengths[i], 2, context)
                XCTAssertEqual(Int64(out[i]), ZigZag.decode(values[i]), "\(context), value \(i)")
                at += lengths[i]
            }
            XCTAssertLessThanOrEqual(at, avail, context)
            XCTAssertEqual(used, at, context)
            if pairs == maxPairs { full += 1; continue }
            let x = 2 * pairs, y = x + 1
            if y < values.count, lengths[x] <= 2, lengths[y] <= 2, at + lengths[x] + lengths[y] + 8 <= avail {
                XCTFail("stopped before a pair of short values with room after it: \(context)")
            } else if y < values.count && (lengths[x] > 2 || lengths[y] > 2) {
                stoppedAtLong += 1
            } else {
                stoppedNearEnd += 1
            }
        }
        XCTAssertGreaterThan(full, 1000)
        XCTAssertGreaterThan(stoppedAtLong, 1000)
        XCTAssertGreaterThan(stoppedNearEnd, 1000)
        #else
        throw XCTSkip("the block decoder is x86 only")
        #endif
    }

    /// The SSE2 check of varint pairs against bounds never takes a pair the reference
    /// refuses: it stops at a pair boundary with every pair before it well formed and below
    /// its bound; and it takes whole the long records of valid, shortest-form pairs whose
    /// indices stay clear of the largest index's upper digits. (Its tests through the tag
    /// check, with every table size, are `DecoderDifferentialTests.testTagBlockCheckMatchesReference`.)
    func testPairBoundCheckNeverTakesAnInvalidPair() throws {
        #if arch(x86_64) || arch(i386)
        var rng = SplitMix64(seed: 0x6368_6563_6B00_0001)
        var whole = 0, stopped = 0
        for iteration in 0..<30_000 {
            let kc = 129 + rng.below(16_000), vc = rng.chance(50) ? 129 + rng.below(16_000) : 16_385 + rng.below(100_000)
            var record: [UInt8] = [], boundaries = [0]
            var allValid = true
            for j in 0..<(4 + rng.below(30)) * 2 {
                let c = j % 2 == 0 ? kc : vc
                let bad = rng.chance(3)
                let v = bad ? UInt64(c + rng.below(100)) : UInt64(rng.below(c / 2))
                allValid = allValid && !bad
                record += Self.varint(v, length: bad && rng.chance(30) ? 4 : 1)
                if j % 2 == 1 { boundaries.append(record.count) }
            }
            let before = rng.below(20)
            let buffer = (0..<before).map { _ in UInt8(rng.below(128)) } + record
            var bounds = _PairBounds(first: UInt32(kc), second: UInt32(vc))
            let stop = Self.withGarbage(buffer, 16, &rng) { base in
                withUnsafePointer(to: &bounds) {
                    _checkPairBlocks((base + before).assumingMemoryBound(to: UInt8.self), record.count, before, record.count + 16, $0)
                }
            }
            let context = "iteration \(iteration), keys \(kc), values \(vc), \(record)"
            XCTAssertTrue(boundaries.contains(stop), "stopped inside a pair at \(stop): \(context)")
            // Every pair before the stop is valid by the reference.
            var p = 0, j = 0
            while p < stop {
                guard let r = Self.reference(record, p, record.count) else { XCTFail("took a malformed varint: \(context)"); break }
                XCTAssertLessThan(r.value, UInt64(j % 2 == 0 ? kc : vc), "took an index out of range: \(context)")
                p = r.next; j += 1
            }
            if allValid && record.count >= 16 {
                XCTAssertEqual(stop, record.count, "a valid record not taken whole: \(context)")
            }
            if stop == record.count { whole += 1 } else { stopped += 1 }
        }
        XCTAssertGreaterThan(whole, 5_000)
        XCTAssertGreaterThan(stopped, 5_000)
        #else
        throw XCTSkip("the pair bound check is x86 only")
        #endif
    }
}
