import GraticuleSupport
import GraticuleTestSupport
import PBF
import XCTest
@testable import VectorTile

/// PBF's byte-shuffle block decoder (`_zigzagPairs16`, x86 with SSSE3) inside the geometry
/// decoder, against the reference decoder of `DecoderDifferentialTests` on runs long enough
/// to take it. (The kernel on its own: `PBFTests.RawKernelTests`.)
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
