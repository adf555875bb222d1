import GraticuleTestSupport
import GraticuleSupport
import XCTest
@testable import BenchKit

/// Result digests, result checks before timing, and external programs that crash, hang or
/// answer wrongly.
final class ResultCheckTests: XCTestCase {
    func config() throws -> RunConfiguration {
        var c = RunConfiguration.quick
        c.warmupSeconds = 0.01
        c.minSamples = 3
        c.minSeconds = 0.01
        c.scratchDirectory = try newFolder("graticule-check-scratch")
        return c
    }

    /// FNV-1a 64 of "a" is af63dc4c8601ec8c (the published test vector); the digest adds
    /// the SplitMix64 finaliser, checked here against the reference constants by hand.
    func testHashIsFNV1aThenSplitMix() {
        var z: UInt64 = 0xaf63_dc4c_8601_ec8c &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        XCTAssertEqual(ResultDigest.hash(Array("a".utf8)), z ^ (z >> 31))
    }

    func testChecksumDoesNotDependOnOrder() {
        var a = ResultDigest.Accumulator(counts: ["n"]), b = a
        for s in ["x", "y", "z"] { a.count(0); a.add(element: Array(s.utf8)) }
        for s in ["z", "x", "y"] { b.count(0); b.add(element: Array(s.utf8)) }
        XCTAssertEqual(a.digest, b.digest)
        var c = ResultDigest.Accumulator(counts: ["n"])
        for s in ["x", "y", "w"] { c.count(0); c.add(element: Array(s.utf8)) }
        XCTAssertNotEqual(a.digest.checksum, c.digest.checksum)
    }

    func testTextFormRoundTripsAndRejectsGarbage() {
        let d = ResultDigest(counts: [.init(name: "tiles", value: 12)], checksum: 0xab)
        XCTAssertEqual(d.description, "tiles=12 checksum=00000000000000ab")
        XCTAssertEqual(ResultDigest(parsing: d.description), d)
        for bad in ["", "tiles=12", "tiles=x checksum=00000000000000ab", "checksum=ab", "tiles=-1 checksum=00000000000000ab",
                    "checksum=00000000000000ab tiles=1", "=3 checksum=00000000000000ab", "tiles checksum=00000000000000ab"] {
            XCTAssertNil(ResultDigest(parsing: bad), bad)
        }
    }

    func testMismatchNamesTheFirstDifference() {
        let ref = ResultCheck(digest: ResultDigest(counts: [.init(name: "tiles", value: 3)], checksum: 1), elements: ["1/0/0", "1/0/1", "1/1/1"])
        let short = ResultCheck(digest: ResultDigest(counts: [.init(name: "tiles", value: 2)], checksum: 2), elements: ["1/0/0", "1/1/1"])
        let why = try! XCTUnwrap(short.mismatch(against: ref))
        XCTAssertTrue(why.contains("tiles 2, reference 3"), why)
        XCTAssertTrue(why.contains("1/0/1 is missing"), why)
        XCTAssertNil(ref.mismatch(against: ref))
        let sameCount = ResultCheck(digest: ResultDigest(counts: [.init(name: "tiles", value: 3)], checksum: 9), elements: nil)
        XCTAssertTrue(try! XCTUnwrap(sameCount.mismatch(against: ref)).contains("checksum"))
    }

    /// A case whose result differs from the reference's is `wrong` and has no time; one
    /// that agrees is timed.
    func testWrongResultIsNotTimed() throws {
        let d = Dataset(name: "d", kind: "bin") { ([1, 2, 3], 3) }
        func digest(_ v: UInt64) -> (Dataset) throws -> ResultCheck {
            { _ in ResultCheck(digest: ResultDigest(counts: [.init(name: "n", value: 1)], checksum: v)) }
        }
        var suite = BenchmarkSuite(name: "t")
        for (name, v) in [("graticule", UInt64(7)), ("right", 7), ("wrong", 8)] {
            suite.add("op", implementation: name, dataset: d, check: digest(v)) { _ in Workload { n in for i in 0..<n { blackHole(i) } } }
        }
        let results = Runner(configuration: try config()).run(suite.cases)
        func time(_ impl: String) -> MetricResult? { results.first { $0.metric == "time_ns" && $0.key.implementation == impl } }
        XCTAssertEqual(time("graticule")?.status, .ok)
        XCTAssertEqual(time("right")?.status, .ok)
        XCTAssertEqual(time("wrong")?.status, .wrong)
        XCTAssertTrue(time("wrong")?.detail.contains("checksum") ?? false)
        XCTAssertTrue(results.filter { $0.key.implementation == "wrong" }.allSatisfy { $0.status == .wrong && $0.summary == nil })
    }

    /// External programs: one that dies mid-run is `crash` with its stderr, one that hangs
    /// is `timeout` within the ceiling, one with a wrong digest is `wrong`, and the others
    /// still run.
    func testExternalCrashHangAndWrongDigestAreIsolated() throws {
        let script = try newFolder("graticule-check") + "/program.py"
        try FileIO.writeText(script, """
        import sys, time
        mode = sys.argv[1]
        print("ready", flush=True)
        runs = 0
        for line in sys.stdin:
            cmd = line.split()
            if cmd[0] == "quit": break
            if cmd[0] == "digest":
                print("digest n=1 checksum=" + ("0000000000000007" if mode != "wrong" else "0000000000000008"), flush=True)
                continue
            runs += 1
            if mode == "crash" and runs == 3:
                print("something broke inside", file=sys.stderr, flush=True); sys.exit(9)
            if mode == "hang" and runs == 3: time.sleep(60)
            print("ns", 1000 * int(cmd[1]), flush=True)
        """)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let d = Dataset(name: "d", kind: "bin") { ([1, 2, 3], 3) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("op", implementation: "graticule", dataset: d,
                  check: { _ in ResultCheck(digest: ResultDigest(counts: [.init(name: "n", value: 1)], checksum: 7)) }) { _ in
            Workload { n in for i in 0..<n { blackHole(i) } }
        }
        for mode in ["ok", "crash", "hang", "wrong"] {
            suite.add(BenchmarkCase(name: "op", implementation: "py." + mode, dataset: d,
                                    body: .external(ExternalProgram(command: ["python3", script, mode], sampleTimeout: 1,
                                                                    checksResult: true))))
        }
        let start = Date()
        let results = Runner(configuration: try config()).run(suite.cases)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "a hang must be cut off by the sample ceiling")
        func time(_ impl: String) -> MetricResult? { results.first { $0.metric == "time_ns" && $0.key.implementation == impl } }
        XCTAssertEqual(time("py.ok")?.status, .ok)
        XCTAssertEqual(time("py.crash")?.status, .crash)
        XCTAssertTrue(time("py.crash")?.detail.contains("something broke inside") ?? false, time("py.crash")?.detail ?? "")
        XCTAssertEqual(time("py.hang")?.status, .timeout)
        XCTAssertEqual(time("py.wrong")?.status, .wrong)
    }

    /// A program with a known difference that does not know the optional `elements`
    /// request (it ends on it, as tile-cover.js used to) is started again and timed: `ok`
    /// with the difference noted, never a crash.
    func testProgramWithoutElementsIsStartedAgainAndTimed() throws {
        let script = try newFolder("graticule-no-elements") + "/program.py"
        try FileIO.writeText(script, """
        import sys
        print("ready", flush=True)
        for line in sys.stdin:
            cmd = line.split()
            if cmd[0] == "quit": break
            if cmd[0] == "digest": print("digest n=2 checksum=0000000000000009", flush=True); continue
            if cmd[0] != "run": print("error unexpected command", cmd[0], flush=True); sys.exit(2)
            print("ns", 1000 * int(cmd[1]), flush=True)
        """)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let d = Dataset(name: "d", kind: "bin") { ([1, 2, 3], 3) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("op", implementation: "graticule", dataset: d,
                  check: { _ in ResultCheck(digest: ResultDigest(counts: [.init(name: "n", value: 1)], checksum: 7),
                                            elements: ["a"]) }) { _ in
            Workload { n in for i in 0..<n { blackHole(i) } }
        }
        suite.add(BenchmarkCase(name: "op", implementation: "py.noelements", dataset: d,
                                body: .external(ExternalProgram(command: ["python3", script], sampleTimeout: 5,
                                                                checksResult: true, knownDifference: "counts differ by design"))))
        let results = Runner(configuration: try config()).run(suite.cases)
        let t = try XCTUnwrap(results.first { $0.metric == "time_ns" && $0.key.implementation == "py.noelements" })
        XCTAssertEqual(t.status, .ok, t.detail)
        XCTAssertTrue(t.detail.contains("known difference (counts differ by design)"), t.detail)
        XCTAssertTrue(t.detail.contains("does not answer 'elements'"), t.detail)
        XCTAssertGreaterThan(t.samples.count, 0)
    }

    func testManifestWithSeveralBenchmarksAndStrictKeys() throws {
        let path = try newFolder("graticule-manifest") + "/manifest.json"
        try FileIO.writeText(path, """
        {"implementation": "x", "command": ["sh"], "sampleTimeout": 5,
         "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"], "arguments": ["1"], "checksResult": true},
                        {"benchmark": "b", "datasetKinds": ["k"], "datasetNames": ["two"]}],
         "conformance": {"suites": ["s"]}}
        """)
        let m = try ExternalManifest.load(path: path)
        let ds = [Dataset(name: "one", kind: "k") { ([], 0) }, Dataset(name: "two", kind: "k") { ([], 0) }]
        XCTAssertEqual(m.cases(datasets: ds).map(\.id.description), ["a|x|one", "a|x|two", "b|x|two"])
        guard case .external(let p) = m.cases(datasets: ds)[0].body else { return XCTFail() }
        XCTAssertEqual(p.command, ["sh", "1"])
        XCTAssertEqual(p.sampleTimeout, 5)
        XCTAssertTrue(p.checksResult)
        XCTAssertEqual(m.unknownBenchmarks(known: ["a"]), ["b"])

        let bad: [(String, String)] = [
            (#"{"implementation": "x", "command": ["sh"], "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"], "datasetKind": 1}]}"#, "'benchmarks[0].datasetKind'"),
            (#"{"implementation": "x", "command": ["sh"], "benchmarks": [], "colour": 1}"#, "'colour'"),
            (#"{"implementation": "x", "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"]}]}"#, "'command'"),
            (#"{"implementation": "graticule", "command": ["sh"], "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"]}]}"#, "graticule"),
            (#"{"implementation": "x", "command": ["sh"], "conformance": {"suites": ["s"]}}"#, "no benchmark"),
            (#"{"implementation": "x", "command": ["graticule-no-such-program"], "requires": "apt-get install it", "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"]}]}"#, "'command': no program 'graticule-no-such-program' on PATH (needs: apt-get install it)"),
            (#"{"implementation": "x", "command": ["sh"], "sampleTimeout": 0, "benchmarks": [{"benchmark": "a", "datasetKinds": ["k"]}]}"#, "sampleTimeout"),
        ]
        for (text, key) in bad {
            try FileIO.writeText(path, text)
            XCTAssertThrowsError(try ExternalManifest.load(path: path), text) { e in
                XCTAssertTrue("\(e)".contains(path) && "\(e)".contains(key), "\(e)")
            }
        }
    }
}
