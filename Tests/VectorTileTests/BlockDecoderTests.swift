import GraticuleSupport
import GraticuleTestSupport
#if arch(x86_64) || arch(i386)
import CVarintBlock
#endif
import PBF
import XCTest
@testable import VectorTile

/// The byte-shuffle block decoder of long LineTo runs (`gr_zigzag_pairs16`, x86 with
/// SSSE3), checked on its own against a plain varint reader, and inside the geometry
/// decoder against the reference decoder of `DecoderDifferentialTests` on runs long enough
/// to take it.
final class BlockDecoderTests: XCTestCase {
    typealias Rng = DecoderDifferentialTests.Rng

    /// A stream of varints, mostly of one or two bytes (some of those overlong, P2), with
    /// longer ones now and then: the bytes and each varint's value and length.
    static func randomStream(_ rng: inout Rng, count: Int, longPercent: UInt64) -> (bytes: [UInt8], values: [UInt64], lengths: [Int]) {
        var bytes: [UInt8] = [], values: [UInt64] = [], lengths: [Int] = []
        for _ in 0..<count {
            let v: UInt64, length: Int
            if rng.chance(longPercent) {
                v = rng.below(1 << 32)
                length = max(3, DecoderDifferentialTests.varint(v, length: 1).count)
            } else if rng.chance(30) {
                v = rng.below(1 << 14)
                length = 2                                        // overlong when v < 128
            } else {
                v = rng.below(128)
                length = 1
            }
            let encoded = DecoderDifferentialTests.varint(v, length: length)
            bytes += encoded; values.append(v); lengths.append(encoded.count)
        }
        return (bytes, values, lengths)
    }

    /// What the block decoder returns is exactly the first pairs of the stream, zigzag
    /// decoded (MVT 2.1 §4.3.2, P1–P2), and the bytes they take; it never reads past
    /// `avail` (the bytes after it are garbage that would change the values); and it only
    /// stops early where it may: at a value of three bytes or more, or within 8 bytes of
    /// `avail`.
    func testShuffleDecoderMatchesPlainReading() throws {
        #if arch(x86_64) || arch(i386)
        guard gr_has_ssse3() != 0 else { throw XCTSkip("this CPU has no SSSE3") }
        var rng = Rng(seed: 0x626C_6F63_6B31_3600)
        var stoppedAtLong = 0, stoppedNearEnd = 0, full = 0
        for iteration in 0..<20_000 {
            let (stream, values, lengths) = Self.randomStream(&rng, count: Int(rng.below(200)), longPercent: rng.chance(50) ? 0 : 4)
            let avail = stream.isEmpty ? 0 : Int(rng.below(UInt64(stream.count) + 1))
            var bytes = Array(stream[0..<avail])
            bytes += (0..<16).map { _ in UInt8(rng.below(256)) }           // not part of the input
            let maxPairs = Int(rng.below(80))
            var out = [Int16](repeating: 0x5555, count: 2 * maxPairs + 8)
            var used = 0
            let pairs = bytes.withUnsafeBytes { raw in
                out.withUnsafeMutableBufferPointer { o in
                    gr_zigzag_pairs16(raw.baseAddress, avail, maxPairs, o.baseAddress, &used)
                }
            }
            let context = "iteration \(iteration), avail \(avail), max \(maxPairs)"
            XCTAssertLessThanOrEqual(pairs, maxPairs, context)
            // The values returned, and the bytes they take.
            var at = 0
            for i in 0..<(2 * pairs) {
                guard i < values.count else { XCTFail("more values than the stream holds: \(context)"); break }
                XCTAssertLessThanOrEqual(lengths[i], 2, context)
                XCTAssertLessThanOrEqual(at + lengths[i], avail, context)
                let v = values[i]
                XCTAssertEqual(Int64(out[i]), Int64(v >> 1) ^ -Int64(v & 1), "\(context), value \(i)")
                at += lengths[i]
            }
            XCTAssertEqual(used, at, context)
            // Where it stopped, and why.
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
        // Every way of stopping was exercised.
        XCTAssertGreaterThan(full, 1000)
        XCTAssertGreaterThan(stoppedAtLong, 1000)
        XCTAssertGreaterThan(stoppedNearEnd, 1000)
        #else
        throw XCTSkip("the block decoder is x86 only")
        #endif
    }

    /// The committed window table is what its rule gives: for each pattern of continuation
    /// bits, the varints read from byte 0 on (one byte when its bit is clear, two when only
    /// the first of two bits is set), stopping at a longer one or one cut by the window's
    /// end; each varint's bytes in its own 16-bit lane (0x80, a zero byte, for the rest).
    func testWindowTableFollowsItsRule() throws {
        #if arch(x86_64) || arch(i386)
        let table: [gr_window] = withUnsafeBytes(of: gr_windows) { Array($0.bindMemory(to: gr_window.self)) }
        XCTAssertEqual(table.count, 256)
        for (mask, entry) in table.enumerated() {
            var shuffle = [UInt8](repeating: 0x80, count: 16), ends = [UInt8](repeating: 0, count: 8)
            var at = 0, n = 0
            while at < 8 {
                let continues = { (i: Int) in mask >> i & 1 == 1 }
                if !continues(at) {
                    shuffle[2 * n] = UInt8(at); at += 1
                } else if at + 1 < 8 && !continues(at + 1) {
                    shuffle[2 * n] = UInt8(at); shuffle[2 * n + 1] = UInt8(at + 1); at += 2
                } else {
                    break
                }
                ends[n] = UInt8(at); n += 1
            }
            XCTAssertEqual(withUnsafeBytes(of: entry.shuffle) { Array($0) }, shuffle, "mask \(mask)")
            XCTAssertEqual(withUnsafeBytes(of: entry.ends) { Array($0) }, ends, "mask \(mask)")
            XCTAssertEqual(Int(entry.count), n, "mask \(mask)")
            XCTAssertEqual(Int(entry.length), at, "mask \(mask)")
            // What the decoder's common path relies on instead of reading the entry: with no
            // varint of three bytes or more (no two continuation bits in a row), the window's
            // varints take all eight bytes, or seven when the last byte starts a varint.
            if mask & (mask >> 1) == 0 {
                XCTAssertEqual(Int(entry.length), 8 - (mask >> 7), "mask \(mask)")
                XCTAssertGreaterThan(Int(entry.count), 0, "mask \(mask)")
            }
        }
        #else
        throw XCTSkip("the block decoder is x86 only")
        #endif
    }

    /// Rings and lines long enough for the block decoder (16 pairs or more), of one- and
    /// two-byte deltas with zero-length steps (C8) and longer deltas mixed in, decode to the
    /// reference decoder's events in both modes, with the record followed by bytes that
    /// look like geometry.
    func testLongRunsMatchReferenceDecoder() throws {
        var rng = Rng(seed: 0x6C6F_6E67_7275_6E00)
        for iteration in 0..<3000 {
            let type: UInt64 = rng.chance(50) ? 2 : 3
            var v: [UInt64] = []
            let zeroPercent: UInt64 = rng.chance(50) ? 0 : 3, longPercent: UInt64 = rng.chance(50) ? 0 : 2
            func delta() -> UInt64 {
                if rng.chance(zeroPercent) { return 0 }
                if rng.chance(longPercent) { return DecoderDifferentialTests.zigzag(Int64(rng.below(1 << 22)) - (1 << 21)) }
                return DecoderDifferentialTests.zigzag(rng.chance(70) ? Int64(rng.below(120)) - 60 : Int64(rng.below(16000)) - 8000)
            }
            for _ in 0..<(1 + rng.below(3)) {
                v.append(1 | 1 << 3); v.append(delta()); v.append(delta())
                let n = 16 + Int(rng.below(rng.chance(20) ? 300 : 40))
                v.append(2 | UInt64(n) << 3)
                for _ in 0..<n { v.append(delta()); v.append(delta()) }
                if type == 3 { v.append(7 | 1 << 3) }
            }
            var bytes: [UInt8] = []
            for value in v { bytes += DecoderDifferentialTests.varint(value, length: rng.chance(5) ? 2 : 1) }
            if rng.chance(10) { bytes.removeLast(1 + Int(rng.below(5))) }
            let strict = rng.chance(30)
            var f = PBFWriter()
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(type)
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            if rng.chance(50) {
                let tags = (0..<(8 + rng.below(40))).map { _ in UInt8(rng.below(128)) }
                f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(tags)
            }
            let expected = DecoderDifferentialTests.referenceGeometry(type: type, bytes: bytes, strict: strict)
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                var rec = DecoderDifferentialTests.Recorder()
                var fails = false
                do { try feature.decodeGeometry(into: &rec, mode: strict ? .strict : .tolerant) } catch { fails = true }
                XCTAssertEqual(rec.events, expected.events, "iteration \(iteration), type \(type), strict \(strict)")
                XCTAssertEqual(fails, expected.fails, "iteration \(iteration), type \(type), strict \(strict)")
                if rec.events != expected.events || fails != expected.fails { throw DecoderDifferentialTests.ReferenceError() }
            }
        }
    }
}
