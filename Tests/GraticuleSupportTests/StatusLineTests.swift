import XCTest
import GraticuleSupport

/// The one in-place status line: drawn over itself, throttled, ended once.
final class StatusLineTests: XCTestCase {
    func testDrawThrottleAndFinish() {
        var out: [String] = []
        let line = StatusLine(enabled: true, minimumIntervalSeconds: 3600) { out.append($0) }
        line.draw("a")
        line.draw("b")  // within the interval: not drawn
        XCTAssertEqual(out, ["\r\u{1B}[Ka"])
        line.finish(keepingText: true)
        XCTAssertEqual(out.last, "\n")
        var cleared: [String] = []
        let every = StatusLine(enabled: true, minimumIntervalSeconds: 0) { cleared.append($0) }
        every.draw("x")
        every.draw("y")
        every.finish(keepingText: false)
        XCTAssertEqual(cleared, ["\r\u{1B}[Kx", "\r\u{1B}[Ky", "\r\u{1B}[K"])
    }

    func testDisabledOrUndrawnLineWritesNothing() {
        var out: [String] = []
        let off = StatusLine(enabled: false, minimumIntervalSeconds: 0) { out.append($0) }
        off.draw("a")
        off.finish(keepingText: true)
        let unused = StatusLine(enabled: true, minimumIntervalSeconds: 0) { out.append($0) }
        unused.finish(keepingText: false)
        XCTAssertEqual(out, [])
    }
}
