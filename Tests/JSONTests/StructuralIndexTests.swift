import CJSONSkip
import Foundation
import GraticuleSupport
import GraticuleTestSupport
import XCTest

/// The structural index (CJSONSkip's CJSONStructural.h): the AVX2, SSE2 and scalar block
/// steps give the same positions and errors as a byte-by-byte reference written here, on
/// random inputs built to cross block boundaries (backslash runs, quotes, control bytes,
/// multi-byte UTF-8) and on real GeoJSON files.
final class StructuralIndexTests: XCTestCase {
    struct Index: Equatable {
        var positions: [UInt32]
        var error: Int32
        var errorOffset: Int
    }

    /// The reference: a string state machine over the bytes, after a UTF-8 check.
    func reference(_ b: [UInt8]) -> Index {
        if String(validating: b, as: UTF8.self) == nil {
            // The offset of the first bad sequence: the longest valid prefix, read by the
            // standard library's decoder.
            var parser = Unicode.UTF8.ForwardParser()
            var it = b.makeIterator()
            var at = 0
            loop: while true {
                switch parser.parseScalar(from: &it) {
                case .valid(let s): at += s.count
                case .emptyInput: break loop
                case .error: break loop
                }
            }
            return Index(positions: [], error: 3, errorOffset: at)
        }
        var out: [UInt32] = []
        var inString = false, escaped = false
        var lastOpen = 0
        for (i, c) in b.enumerated() {
            if inString {
                // A raw control byte is an error even after a backslash.
                if c < 0x20 { return Index(positions: [], error: 2, errorOffset: i) }
                if escaped { escaped = false }
                else if c == UInt8(ascii: "\\") { escaped = true }
                else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\\") {
                return Index(positions: [], error: 4, errorOffset: i)
            } else if c == UInt8(ascii: "\"") {
                inString = true
                lastOpen = i
                out.append(UInt32(i))
            } else if "{}[]:,".utf8.contains(c) {
                out.append(UInt32(i))
            }
        }
        if inString { return Index(positions: [], error: 1, errorOffset: lastOpen) }
        return Index(positions: out, error: 0, errorOffset: 0)
    }

    /// The levels of block step: 0 scalar, 1 SSE2, 2 AVX2 (see `gr_simd_level`).
    static let levels: [Int32] = [0, 1, 2]

    func index(_ b: [UInt8], level: Int32) -> Index {
        var out = [UInt32](repeating: 0, count: b.count + 1)
        let r = b.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in gr_structural_index(p.baseAddress, b.count, o.baseAddress, o.count, level) }
        }
        if r.error != 0 { return Index(positions: [], error: r.error, errorOffset: r.error_offset) }
        return Index(positions: Array(out[0..<r.count]), error: 0, errorOffset: 0)
    }

    func testRandomInputsAgreeWithTheReference() {
        var rng = SplitMix64(seed: 59)
        let alphabet: [[UInt8]] = ["\"", "\\", "{", "}", "[", "]", ":", ",", "a", "1", " ", "\n"].map { Array($0.utf8) }
            + [[0x01], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x97, 0xBA], Array(repeating: UInt8(ascii: "\\"), count: 63)]
        var errors = [0, 0, 0, 0, 0]
        for round in 0..<4000 {
            var b: [UInt8] = []
            let length = Int(rng.next() % 300)
            while b.count < length {
                let pick = Int(rng.next() % UInt64(alphabet.count + 2))
                if pick < alphabet.count {
                    // Control bytes and long backslash runs are rare, or every string breaks.
                    if (pick == 12 || pick == alphabet.count - 1) && rng.next() % 8 != 0 { continue }
                    b += alphabet[pick]
                } else {
                    b.append(round % 50 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8(ascii: "x"))
                }
            }
            let want = reference(b)
            errors[Int(want.error)] += 1
            for level in Self.levels {
                XCTAssertEqual(index(b, level: level), want, "level \(level), round \(round): \(b)")
            }
        }
        XCTAssertTrue(errors.allSatisfy { $0 > 50 }, "each outcome is exercised: \(errors)")
    }

    /// Escapes across the 64-byte boundary: a backslash as byte 63 escapes byte 64.
    func testEscapesAcrossBlocks() {
        for run in 1...4 {
            let before = Array(repeating: UInt8(ascii: "x"), count: 64 - run - 1)
            let b = Array("\"".utf8) + before + Array(repeating: UInt8(ascii: "\\"), count: run) + Array("\",1]".utf8)
            for level in Self.levels {
                XCTAssertEqual(index(b, level: level), reference(b), "level \(level), run \(run)")
            }
            XCTAssertEqual(reference(b).error, run % 2 == 1 ? 1 : 0)
        }
        for level in Self.levels {
            XCTAssertEqual(index(Array("{\"a\u{01}\"}".utf8), level: level), Index(positions: [], error: 2, errorOffset: 3))
            XCTAssertEqual(index([UInt8(ascii: "["), 0xC0, 0x80], level: level), Index(positions: [], error: 3, errorOffset: 1))
            XCTAssertEqual(index([], level: level), Index(positions: [], error: 0, errorOffset: 0))
        }
    }

    /// Real files: the index agrees with the reference at every level.
    func testGeoJSONFilesAgree() throws {
        var checked = 0
        for name in ["geojson/canada.json", "geojson/ne_10m_populated_places.json"] {
            let path = TestPaths.shared(name)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let b = [UInt8](data)
            let want = reference(b)
            XCTAssertEqual(want.error, 0)
            for level in Self.levels {
                XCTAssertEqual(index(b, level: level), want, "\(name), level \(level)")
            }
            checked += 1
        }
        if checked == 0 { throw XCTSkip("no shared GeoJSON files") }
    }

    /// UTF-8 errors past the ASCII fast paths' widths (16 and 32 bytes) and in their tails:
    /// every level finds the first bad sequence where the reference does.
    func testUTF8ErrorsAtEveryOffset() {
        for length in [15, 16, 17, 31, 32, 33, 63, 64, 65, 100] {
            for at in 0..<length {
                var b = Array(repeating: UInt8(ascii: "a"), count: length)
                b[at] = 0xC3                            // a lead byte with no continuation
                let want = reference(b)
                XCTAssertEqual(want.error, 3)
                for level in Self.levels {
                    XCTAssertEqual(index(b, level: level), want, "length \(length), bad byte at \(at), level \(level)")
                }
            }
        }
    }

    /// The level the kernels run at is the CPU's: on Linux, AVX2 exactly when
    /// /proc/cpuinfo lists it (with the OS's support, which Linux gives wherever it lists the
    /// flag), so the AVX2 step these tests compare is the one run on this machine.
    func testTheLevelFollowsTheCPU() throws {
        #if arch(x86_64) && os(Linux)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { throw XCTSkip("no /proc/cpuinfo") }
        let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") }.map { $0.split(separator: " ").map(String.init) } ?? []
        XCTAssertEqual(gr_simd_level(), flags.contains("avx2") ? 2 : 1, "flags: \(flags)")
        XCTAssertEqual(gr_usable_level(2), gr_simd_level())
        XCTAssertEqual(gr_usable_level(0), 0)
        #else
        throw XCTSkip("the level is checked against /proc/cpuinfo on x86-64 Linux")
        #endif
    }
}
