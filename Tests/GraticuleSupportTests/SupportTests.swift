import XCTest
import GraticuleSupport

final class SplitMix64Tests: XCTestCase {
    /// The first outputs for seed 1234567, as published with the reference C implementation
    /// (Vigna, splitmix64.c) and reproduced by every port of it.
    func testMatchesTheReferenceSequence() {
        var r = SplitMix64(seed: 1_234_567)
        XCTAssertEqual((0..<5).map { _ in r.next() },
                       [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                        4_593_380_528_125_082_431, 16_408_922_859_458_223_821])
    }

    func testDerivedDrawsStayInRange() {
        var r = SplitMix64(seed: 9)
        for _ in 0..<10_000 {
            let u = r.unit()
            XCTAssertTrue(u >= 0 && u < 1)
            let v = r.uniform(-3, 5)
            XCTAssertTrue(v >= -3 && v < 5)
            XCTAssertTrue((0..<7).contains(r.below(7)))
            XCTAssertTrue(r.normal().isFinite)
        }
    }
}

final class TextTableTests: XCTestCase {
    func testPadsNamesLeftAndFiguresRight() {
        let t = TextTable.render(header: ["name", "impl", "set", "n"], rows: [["a", "bb", "c", "7"], ["dd", "e", "f", "123"]])
        XCTAssertEqual(t, """
            name  impl  set    n
            ----  ----  ---  ---
            a     bb    c      7
            dd    e     f    123

            """)
    }
}

final class HTMLTests: XCTestCase {
    func testEscapesTheFiveCharactersThatMatter() {
        XCTAssertEqual(HTML.escape("<a href=\"x\">&</a>'"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'")
        // XML 1.0 (JUnit): apostrophes too, and characters XML cannot hold as '?'; tab, LF
        // and CR kept. A combining mark after '<' does not hide it.
        XCTAssertEqual(HTML.escape("it's\u{1}\t\n\u{FFFE}<\u{301}", xml: true), "it&apos;s?\t\n?&lt;\u{301}")
        XCTAssertEqual(HTML.escape("\u{1}<\u{301}"), "\u{1}&lt;\u{301}")
    }

    func testBarChartDrawsOneBarPerValue() {
        let svg = HTML.barChart([.init(label: "a<b", value: 2, low: 1, high: 3), .init(label: "c", value: 1, low: 1, high: 1)],
                                unit: "ms", format: { String($0) })
        XCTAssertEqual(svg.components(separatedBy: "<rect").count - 1, 2)
        XCTAssertTrue(svg.contains(">a&lt;b</text>"))
        XCTAssertTrue(svg.hasPrefix("<svg"))
    }
}

final class LineProtocolProcessTests: XCTestCase {
    func testSendsAndReadsLinesSkippingComments() throws {
        let p = try LineProtocolProcess(command: ["sh", "-c", "echo '# hello'; echo ready; read x; echo \"got $x $GREETING\""],
                                        environment: ["GREETING": "hi"])
        XCTAssertEqual(p.readLine(), "ready")
        try p.send("ping")
        XCTAssertEqual(p.readLine(), "got ping hi")
        XCTAssertNil(p.readLine())
        XCTAssertEqual(p.terminationStatus, 0)
    }

    func testAMissingProgramEndsItsOutput() throws {
        let p = try LineProtocolProcess(command: ["graticule-no-such-program-\(UInt32.random(in: 0 ... .max))"])
        XCTAssertNil(p.readLine())
        XCTAssertNotEqual(p.terminationStatus, 0)
    }

    func testAnEmptyCommandIsRefused() {
        XCTAssertThrowsError(try LineProtocolProcess(command: [])) { XCTAssertEqual($0 as? LineProtocolProcess.Failure, .emptyCommand) }
    }

    /// The memory budget is the smaller of the address-space limit and physical memory.
    func testMemoryBudgetIsBoundedByPhysicalMemory() throws {
        let budget = try XCTUnwrap(ProcessStatus.memoryBudgetBytes())
        XCTAssertGreaterThan(budget, 64 << 20)
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        XCTAssertLessThanOrEqual(budget, UInt64(pages) * UInt64(size))
    }
}

