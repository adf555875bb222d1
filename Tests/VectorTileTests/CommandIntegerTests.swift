import XCTest
import VectorTile

/// MVT 2.1 §4.3.1: CommandInteger = (id & 0x7) | (count << 3).
final class CommandIntegerTests: XCTestCase {
    /// The spec's worked examples (§4.3.1 and the §4.3.5 example geometry).
    func testSpecExamples() {
        XCTAssertEqual(CommandInteger(.moveTo, count: 1).raw, 9)
        XCTAssertEqual(CommandInteger(.lineTo, count: 3).raw, 26)
        XCTAssertEqual(CommandInteger(.closePath, count: 1).raw, 15)
        XCTAssertEqual(CommandInteger(raw: 9), CommandInteger(.moveTo, count: 1))
        XCTAssertEqual(CommandInteger(raw: 26).command, .lineTo)
        XCTAssertEqual(CommandInteger(raw: 26).count, 3)
    }

    func testUnknownIdsAndLargestCount() {
        XCTAssertNil(CommandInteger(raw: 3).command)
        XCTAssertNil(CommandInteger(raw: 0).command)
        let big = CommandInteger(raw: UInt32.max)
        XCTAssertEqual(big.id, 7)
        XCTAssertEqual(big.count, (1 << 29) - 1)
        XCTAssertEqual(big.raw, UInt32.max)
    }
}
