#if arch(x86_64) || arch(i386)
import CVarintBlock
#endif
import XCTest

/// The window table of the SSSE3 zigzag pair decoder (`CVarintBlock.h`, PBF's C kernels).
final class BlockWindowTableTests: XCTestCase {
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
}
