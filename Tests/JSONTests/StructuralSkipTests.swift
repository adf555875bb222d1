import JSON
import CJSONSkip
import GraticuleSupport
import GraticuleTestSupport
import XCTest
import Foundation

/// The structural skip contract (`gr_skip_structural`, which GeoJSON's
/// `GeoJSONReadOptions.SkipContract.structural` selects): every value the validating
/// skipper accepts, it accepts and ends at the same byte; what it accepts beyond that
/// differs only in scalars' grammar; its AVX2, SSE2 and scalar block steps agree. (That a
/// reader under it reads every valid text as the validating reader does is checked in
/// GeoJSONTests/SkipContractReaderTests.swift.)
final class StructuralSkipTests: XCTestCase {
    func structural(_ bytes: [UInt8], nesting: Int = 512, simd: Int32) -> Int {
        bytes.withUnsafeBufferPointer { b in gr_skip_structural(b.baseAddress!, 0, b.count, nesting, simd) }
    }

    func validated(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw in
            var c = JSONTokenizer(borrowing: raw, maxDepth: 512)
            do throws(JSONError) {
                try c.skipValueScalar(depth: 0)
                return c.offset(c.pos)
            } catch {
                return nil
            }
        }
    }

    func testAcceptsEveryValidValueAtItsEnd() {
        var g = JSONSkipTests.Generator(rng: SplitMix64(seed: 5901))
        for _ in 0..<3_000 {
            let text = g.pick([true, false]) ? g.object(1) : g.array(1)
            let bytes = Array(text.utf8)
            for simd in StructuralIndexTests.levels {
                XCTAssertEqual(structural(bytes, simd: simd), bytes.count, text)
                XCTAssertEqual(structural(bytes + Array(" ,x".utf8), simd: simd), bytes.count, text)
            }
        }
    }

    /// Edited values: where the validating skipper ends, the structural one ends too; the
    /// two block steps always agree; and what only the structural skipper accepts has its
    /// structure intact (the validating reader fails on a scalar, not on a bracket).
    func testEditedValues() {
        var g = JSONSkipTests.Generator(rng: SplitMix64(seed: 5902))
        var onlyStructural = 0, both = 0
        for _ in 0..<8_000 {
            let text = g.pick([true, false]) ? g.object(1) : g.array(1)
            let bytes = g.mutate(Array(text.utf8))
            guard !bytes.isEmpty, bytes[0] == UInt8(ascii: "{") || bytes[0] == UInt8(ascii: "[") else { continue }
            let s = structural(bytes, simd: 2)
            XCTAssertEqual(s, structural(bytes, simd: 1), String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(s, structural(bytes, simd: 0), String(decoding: bytes, as: UTF8.self))
            if let v = validated(bytes) {
                both += 1
                XCTAssertEqual(s, v, String(decoding: bytes, as: UTF8.self))
            } else if s >= 0 {
                onlyStructural += 1
                // Brackets balanced outside strings in what it took.
                let taken = Array(bytes[..<s])
                XCTAssertEqual(taken.filter { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }.count >= 1, true)
            }
        }
        XCTAssertGreaterThan(both, 300)
        XCTAssertGreaterThan(onlyStructural, 10)
    }

    func testWhatEachContractRefuses() {
        // Scalars' grammar: only the validated contract checks it.
        let badNumber = Array(#"{"a":1x,"b":[tru]}"#.utf8)
        XCTAssertNil(validated(badNumber))
        for simd in StructuralIndexTests.levels {
            XCTAssertEqual(structural(badNumber, simd: simd), badNumber.count)
            // Structure, strings and UTF-8: both refuse (-1 hands the value to the validating skipper).
            for bad in [#"{"a":[1}"#, #"{"a":"x"#, "{\"a\":\"\u{01}\"}", #"{"a":\1}"#, "[[[1]]]"] {
                let bytes = Array(bad.utf8)
                XCTAssertEqual(structural(bytes, nesting: bad == "[[[1]]]" ? 2 : 512, simd: simd), -1, bad)
            }
            XCTAssertEqual(structural([UInt8(ascii: "["), 0xC3, 0x28, UInt8(ascii: "]")], simd: simd), -1)
            XCTAssertEqual(structural(Array("[[[1]]]".utf8), nesting: 3, simd: simd), 7)
        }
    }
}
