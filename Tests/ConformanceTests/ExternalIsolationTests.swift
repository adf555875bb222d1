import Foundation
import GraticuleSupport
import XCTest
@testable import Conformance

/// External conformance programs that crash or hang, expected-failure files, and the
/// manifest's strict keys.
final class ExternalIsolationTests: XCTestCase {
    /// A program that crashes on one case and hangs on another gets `crash` and `timeout`
    /// for those two, correct verdicts for the rest, in bounded time; neither counts as a
    /// rejection, even where the case expects one.
    func testCrashAndHangAreIsolated() throws {
        let script = NSTemporaryDirectory() + "graticule-isolation-\(getpid()).py"
        try FileIO.writeText(script, """
        import sys, time
        print("ready", flush=True)
        for line in sys.stdin:
            p = line.split(" ", 3)
            if p[0].strip() == "quit": break
            data = open(p[3].rstrip("\\n"), "rb").read()
            if data == b"crash":
                print("segfault-like death", file=sys.stderr, flush=True); sys.exit(139)
            if data == b"hang": time.sleep(120)
            print("accept" if data.startswith(b"ok") else "reject invalid no", flush=True)
        """)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let m = ExternalConformanceManifest(name: "flaky", command: ["python3", script], suites: ["s"], outputs: false,
                                            requires: "", timeout: 1)
        let program = try ExternalConformanceProgram(manifest: m)
        defer { program.finish() }
        let cases = [("ok1", Expectation.accept(output: nil)), ("crash", .reject(errorClass: nil)), ("ok2", .accept(output: nil)),
                     ("hang", .reject(errorClass: nil)), ("bad", .reject(errorClass: nil)), ("ok3", .accept(output: nil))]
            .map { ConformanceCase(id: $0.0, rule: "R", input: Array($0.0.utf8), expected: $0.1) }
        let start = Date()
        let rows = ConformanceRunner.run(suite: "s", cases: cases, implementation: program.implementation(suite: "s"))
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(rows.map(\.actual), ["accept", "crash", "accept", "timeout", "reject:invalid", "accept"])
        XCTAssertEqual(rows.map(\.verdict), [.pass, .fail, .pass, .fail, .pass, .pass])
        XCTAssertTrue(rows[1].detail.contains("segfault-like death"), rows[1].detail)
        let tally = ConformanceTally.tally(rows)
        XCTAssertEqual(tally.first?.unsupported, 2)
    }

    func testExpectedFailuresFile() throws {
        let file = try ExpectedFailures.parse("""
        # comment
        s/a\tknown gap
        [impl2]
        s/b\tonly impl2 fails this
        """)
        XCTAssertEqual(file.entries.map(\.caseID), ["a", "b"])
        XCTAssertEqual(file.entries[1].implementation, "impl2")
        func row(_ impl: String, _ id: String, _ v: VerdictRow.Verdict) -> VerdictRow {
            VerdictRow(suite: "s", implementation: impl, caseID: id, rule: "R", expected: "accept", actual: "x", verdict: v, detail: "")
        }
        let rows = [row("impl1", "a", .fail), row("impl1", "b", .fail), row("impl2", "b", .fail), row("impl2", "a", .pass),
                    row("other", "c", .fail)]
        let e = file.evaluate(rows, gated: ["impl1", "impl2"])
        XCTAssertEqual(e.unexpected.map { "\($0.implementation)/\($0.caseID)" }, ["impl1/b"], "b is listed for impl2 only")
        XCTAssertEqual(e.expected.map { "\($0.row.implementation)/\($0.row.caseID)" }, ["impl1/a", "impl2/b"])
        XCTAssertEqual(e.unexpectedlyPassing.map { "\($0.row.implementation)/\($0.row.caseID)" }, ["impl2/a"])

        for bad in ["s/a", "s/a\t", "nosuite\treason", "/a\treason", "s/\treason", "[x\ns/a\tr", "s/a\tr\ns/a\tr2"] {
            XCTAssertThrowsError(try ExpectedFailures.parse(bad), bad)
        }
    }

    func testSharedManifestFormAndStrictKeys() throws {
        let path = NSTemporaryDirectory() + "graticule-conform-manifest-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileIO.writeText(path, """
        {"implementation": "x", "command": ["sh"], "benchmarks": [],
         "conformance": {"suites": ["tile-cover"], "arguments": ["conform"], "timeout": 3, "outputs": false}}
        """)
        let m = try ExternalConformanceManifest.load(path: path)
        XCTAssertEqual(m, ExternalConformanceManifest(name: "x", command: ["sh", "conform"], suites: ["tile-cover"],
                                                      outputs: false, requires: "", timeout: 3))
        for (text, key) in [(#"{"name": "x", "command": ["sh"], "suites": ["s"], "suite": "s"}"#, "'suite'"),
                            (#"{"implementation": "x", "command": ["sh"], "conformance": {"suites": ["s"], "timout": 3}}"#, "'conformance.timout'"),
                            (#"{"name": "x", "suites": ["s"]}"#, "'command'"),
                            (#"{"name": "x", "command": ["/nonexistent/prog"], "suites": ["s"]}"#, "no program '/nonexistent/prog'"),
                            (#"{"implementation": "x", "command": ["sh"], "benchmarks": []}"#, "no conformance suite")] {
            try FileIO.writeText(path, text)
            XCTAssertThrowsError(try ExternalConformanceManifest.load(path: path)) { e in
                XCTAssertTrue("\(e)".contains(key) && "\(e)".contains(path), "\(e)")
            }
        }
    }
}
