import Foundation
import GraticuleTestSupport
import XCTest
@testable import Conformance

/// The conformance child's side of the protocol: one line per case, in protocol form.
final class ConformanceIsolationTests: XCTestCase {
    func testServeAnswersEachCaseInProtocolForm() throws {
        let dir = try TestPaths.newFolder("graticule-conform-isolation")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        for (i, text) in ["ok", "out", "bad"].enumerated() {
            let path = dir + "/\(i)"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            lines.append("case s \(text.count) \(path)")
        }
        lines.append("case s 1 \(dir)/missing")
        lines.append("quit")
        let impl = ConformanceImplementation(name: "t") { c in
            switch String(decoding: c.input, as: UTF8.self) {
            case "ok": return .accepted(output: nil)
            case "out": return .accepted(output: "é\n")
            default: return .rejected(errorClass: "fatal", detail: "two\nlines")
            }
        }
        var input = lines.makeIterator()
        var out: [String] = []
        let code = ConformanceIsolation.serve(impl, readLine: { input.next() }, output: { out.append($0) })
        XCTAssertEqual(code, 0)
        XCTAssertEqual(out, ["ready", "accept", "output " + Data("é\n".utf8).base64EncodedString(), "reject fatal two lines",
                             "unsupported cannot read \(dir)/missing"])
        var bad = ["run 3"].makeIterator()
        XCTAssertEqual(ConformanceIsolation.serve(impl, readLine: { bad.next() }, output: { _ in }), 2)
    }
}
