import GraticuleSupport
import XCTest

/// A program's text in a report's detail is kept to its last 4 KiB (a 5 MB standard error
/// line was once copied into every row of a report), cut on a character boundary.
final class ClippedDetailTests: XCTestCase {
    func testLongTextKeepsItsLastFourKiB() {
        let long = String(repeating: "é", count: 3_000_000) + " the end"
        let kept = LineProtocolProcess.clipped(long)
        XCTAssertLessThanOrEqual(kept.utf8.count, LineProtocolProcess.detailLimit + 40)
        XCTAssertTrue(kept.hasSuffix("é the end"))
        XCTAssertTrue(kept.hasPrefix("["), kept.prefix(40).description)
        XCTAssertEqual(LineProtocolProcess.clipped("short"), "short")
    }
}
