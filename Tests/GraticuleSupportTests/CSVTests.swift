import XCTest
import GraticuleSupport

final class CSVTests: XCTestCase {
    func testEscapingFollowsRFC4180() {
        XCTAssertEqual(CSV.escape("plain"), "plain")
        XCTAssertEqual(CSV.escape("a,b"), "\"a,b\"")
        XCTAssertEqual(CSV.escape("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSV.escape("two\nlines"), "\"two\nlines\"")
        XCTAssertEqual(CSV.escape("cr\r"), "\"cr\r\"")
        XCTAssertEqual(CSV.escape(""), "")
        XCTAssertEqual(CSV.record(["a", "b,c", ""]), "a,\"b,c\",\n")
    }

    func testParseHandlesQuotesNewlinesAndCRLF() throws {
        let text = "h1,h2\r\n\"x,1\",\"multi\nline\"\n\"q\"\"q\",\n"
        XCTAssertEqual(try CSV.parse(text), [["h1", "h2"], ["x,1", "multi\nline"], ["q\"q", ""]])
        XCTAssertEqual(try CSV.parse("a,b"), [["a", "b"]])
        XCTAssertEqual(try CSV.parse("\"\""), [[""]])
    }

    func testParseRejectsMalformedQuoting() {
        XCTAssertThrowsError(try CSV.parse("a,\"open\nb\n")) { e in
            XCTAssertEqual(e as? CSV.ParseError, CSV.ParseError(line: 1, reason: "unterminated quoted field"))
        }
        XCTAssertThrowsError(try CSV.parse("ok\nx\"y\n")) { e in
            XCTAssertEqual((e as? CSV.ParseError)?.line, 2)
        }
    }

    func testRoundTripOfAwkwardFields() throws {
        let rows = [["a", "b"], ["comma, inside", "quote \" inside"], ["new\nline", "µ unicode"]]
        let text = rows.map(CSV.record).joined()
        XCTAssertEqual(try CSV.parse(text), rows)
    }

    func testNumberFormatting() {
        XCTAssertEqual(CSV.number(3), "3")
        XCTAssertEqual(CSV.number(-0.0), "0")
        XCTAssertEqual(CSV.number(2.5), "2.5")
        XCTAssertEqual(CSV.number(0.1), "0.1")
        XCTAssertEqual(CSV.number(.nan), "")
        XCTAssertEqual(CSV.number(.infinity), "")
        XCTAssertEqual(CSV.number(1e20), "1e+20")
    }
}
