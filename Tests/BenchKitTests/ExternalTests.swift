import GraticuleTestSupport
import GraticuleSupport
import XCTest
@testable import BenchKit

/// The external protocol, exercised with small Python programs written here.
final class ExternalTests: XCTestCase {
    func write(_ name: String, _ source: String) throws -> String {
        let path = try newFolder("graticule-ext") + "/\(name).py"
        try FileIO.writeText(path, source)
        return path
    }

    func config() throws -> RunConfiguration {
        var c = RunConfiguration.quick
        c.warmupSeconds = 0.01
        c.minSamples = 5
        c.minSeconds = 0.01
        c.scratchDirectory = try newFolder("graticule-ext-scratch")
        return c
    }

    func testWellBehavedProgramIsMeasured() throws {
        let script = try write("ok", """
        import sys, time
        path = sys.argv[sys.argv.index("--dataset") + 1]
        data = open(path, "rb").read()
        print("ready", flush=True)
        for line in sys.stdin:
            cmd = line.split()
            if cmd[0] == "quit": break
            n = int(cmd[1]); t0 = time.perf_counter_ns()
            for _ in range(n): s = sum(data)
            print("ns", time.perf_counter_ns() - t0, flush=True)
        """)
        let d = Dataset(name: "ext/data", kind: "bin") { ([UInt8](repeating: 7, count: 2000), 2000) }
        let c = BenchmarkCase(name: "sum", implementation: "python.sum", dataset: d,
                              body: .external(ExternalProgram(command: ["python3", script])))
        let results = Runner(configuration: try config()).run([c])
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        // Measured, but without a digest its result was never compared: never `ok`.
        XCTAssertEqual(time.status, .unchecked, time.detail)
        XCTAssertTrue(time.detail.contains("no result digest"), time.detail)
        XCTAssertGreaterThanOrEqual(time.samples.count, 5)
        XCTAssertTrue(time.samples.allSatisfy { $0 > 0 })
        let allocs = try XCTUnwrap(results.first { $0.metric == "alloc_count" })
        XCTAssertEqual(allocs.status, .unsupported)
        let rss = try XCTUnwrap(results.first { $0.metric == "peak_resident_bytes" })
        XCTAssertEqual(rss.status, .unchecked)
        XCTAssertGreaterThan(rss.summary?.median ?? 0, 1_000_000, "a Python process holds megabytes")
    }

    func testProgramErrorsBecomeFailedRows() throws {
        let script = try write("err", """
        import sys
        print("error dataset format not understood", flush=True)
        sys.exit(3)
        """)
        let d = Dataset(name: "ext/data", kind: "bin") { ([1], 1) }
        let c = BenchmarkCase(name: "sum", implementation: "python.broken", dataset: d,
                              body: .external(ExternalProgram(command: ["python3", script])))
        let results = Runner(configuration: try config()).run([c])
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .failed)
        XCTAssertTrue(time.detail.contains("dataset format not understood"), time.detail)
    }

    func testProtocolViolationIsReported() throws {
        let script = try write("bad", """
        import sys
        print("ready", flush=True)
        for line in sys.stdin:
            print("elapsed: soon", flush=True)
        """)
        let d = Dataset(name: "ext/data", kind: "bin") { ([1], 1) }
        let c = BenchmarkCase(name: "sum", implementation: "python.bad", dataset: d,
                              body: .external(ExternalProgram(command: ["python3", script])))
        let results = Runner(configuration: try config()).run([c])
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .failed)
        XCTAssertTrue(time.detail.contains("expected ns T"), time.detail)
    }

    func testManifestRegistersOneCasePerMatchingDataset() throws {
        let path = try newFolder("graticule-manifest") + "/manifest.json"
        try FileIO.writeText(path, """
        {"benchmark": "json.parse", "implementation": "python.json", "datasetKinds": ["geojson"],
         "command": ["python3", "x.py"], "requires": "nothing"}
        """)
        let m = try ExternalManifest.load(path: path)
        let ds = [Dataset(name: "a", kind: "geojson") { ([], 0) }, Dataset(name: "b", kind: "pbf") { ([], 0) }]
        let cases = m.cases(datasets: ds)
        XCTAssertEqual(cases.map(\.id.description), ["json.parse|python.json|a"])
        try FileIO.writeText(path, "{\"benchmark\": 3}")
        XCTAssertThrowsError(try ExternalManifest.load(path: path))
    }

    /// Every benchmark manifest shipped in Benchmarks/Adapters loads, and its command names a
    /// file of the repository (the conformance manifests, `conform-*.json`, are checked by
    /// the conformance tests).
    func testManifestsInTheRepositoryLoad() throws {
        let root = TestPaths.repositoryRoot
        let dir = root + "/Benchmarks/Adapters"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("conform-") }.sorted()
        XCTAssertTrue(names.contains("protozero-mvt.json") && names.contains("vtzero-mvt.json"), "\(names)")
        for n in names {
            let m = try ExternalManifest.load(path: dir + "/" + n)
            XCTAssertFalse(m.benchmarks.isEmpty || m.implementation.isEmpty, n)
            XCTAssertFalse(m.benchmarks.contains { $0.benchmark.isEmpty || $0.datasetKinds.isEmpty }, n)
            let script = try XCTUnwrap(m.command.dropFirst().first, n)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + script), "\(n): \(script)")
            // Every shipped comparison is a peer whose results are checked: an adapter added
            // without `digest` (checksResult) would be timed unchecked.
            XCTAssertEqual(m.role, .peer, "\(n): a shipped adapter says \"role\": \"peer\"")
            for b in m.benchmarks {
                XCTAssertTrue(b.checksResult, "\(n): \(b.benchmark) does not answer digest (checksResult)")
            }
            // It runs from the repository root wherever graticule is started.
            XCTAssertEqual(m.workingDirectory, URL(fileURLWithPath: root).standardizedFileURL.path, n)
            // What it needs is checkable, with the command that installs it, and starts
            // with its command's program.
            XCTAssertFalse(m.requirements.isEmpty, "\(n): no requirements")
            XCTAssertTrue(m.requirements.contains { $0.probe.first == m.command.first || m.command.first == "sh" }, n)
            for r in m.requirements {
                XCTAssertTrue(r.install.hasPrefix("apt-get install -y ") || r.install.hasPrefix("python3 -m pip install ")
                              || r.install.hasPrefix("corpora/fetch "), "\(n): \(r.install)")
            }
        }
        let vtzero = try ExternalManifest.load(path: dir + "/vtzero-mvt.json")
        XCTAssertEqual(vtzero.benchmarks.map(\.parameters), [["mode": "validating"]], "compared with the validating decode")
    }
}

/// Programs that misbehave in the ways that used to hang a run or leave processes behind:
/// each gets its verdict within its timeout, the run finishes, and no process it started is
/// left (checked in the process table).
final class ExternalIsolationTests: XCTestCase {
    func program(_ name: String, _ body: String) throws -> (script: String, pidFile: String) {
        let dir = try newFolder("graticule-isolation")
        let pidFile = dir + "/pids"
        let script = dir + "/\(name).py"
        try FileIO.writeText(script, """
        import os, sys, time
        PIDS = \(String(reflecting: pidFile))
        def note(pid):
            with open(PIDS, "a") as f: f.write(str(pid) + "\\n")
        note(os.getpid())
        print("ready", flush=True)
        for line in sys.stdin:
            cmd = line.split()
            if cmd[0] == "quit": break
        \(body)
        """)
        return (script, pidFile)
    }

    func run(_ script: String, timeout: Double = 1.5) throws -> [MetricResult] {
        var c = RunConfiguration.quick
        c.warmupSeconds = 0.01
        c.minSamples = 3
        c.minSeconds = 0.01
        c.maxSeconds = 0.5
        c.scratchDirectory = try newFolder("graticule-isolation-scratch")
        let d = Dataset(name: "ext/data", kind: "bin") { ([1, 2, 3], 3) }
        let bcase = BenchmarkCase(name: "op", implementation: "misbehaving", dataset: d,
                                  body: .external(ExternalProgram(command: ["python3", script], sampleTimeout: timeout)))
        return Runner(configuration: c).run([bcase])
    }

    /// Every process id the program wrote is gone (a zombie being reaped counts as gone
    /// after a short wait).
    func assertNoneLeft(_ pidFile: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let pids = try FileIO.readText(pidFile).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertFalse(pids.isEmpty, file: file, line: line)
        for pid in pids {
            var alive = true
            for _ in 0..<200 {
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
                alive = stat.map { !$0.contains(") Z ") } ?? false
                if !alive { break }
                usleep(10_000)
            }
            XCTAssertFalse(alive, "process \(pid) outlived the run", file: file, line: line)
        }
    }

    func testChildHoldingTheOutputIsStoppedWithItsGroup() throws {
        let (script, pids) = try program("fork", """
            pid = os.fork()
            if pid == 0:
                note(os.getpid())
                time.sleep(300)
                os._exit(0)
            os._exit(0)
        """)
        let start = Date()
        let results = try run(script)
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .timeout, time.detail)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        try assertNoneLeft(pids)
    }

    func testClosedOutputThatKeepsRunningIsACrash() throws {
        let (script, pids) = try program("closes", """
            os.close(1)
            time.sleep(300)
        """)
        let results = try run(script)
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .crash, time.detail)
        XCTAssertTrue(time.detail.contains("kept running"), time.detail)
        try assertNoneLeft(pids)
    }

    func testZeroNanosecondsIsAProtocolViolation() throws {
        let (script, pids) = try program("zero", """
            print("ns 0", flush=True)
            for line in sys.stdin:
                if line.startswith("quit"): break
                print("ns 0", flush=True)
        """)
        let results = try run(script)
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .failed, time.detail)
        XCTAssertTrue(time.detail.contains("1 or more"), time.detail)
        try assertNoneLeft(pids)
    }

    /// A program whose clock claims one nanosecond for any loop is ended by the wall clock.
    func testClockThatReportsNoTimeCannotHangSampling() throws {
        let (script, pids) = try program("onens", """
            print("ns 1", flush=True)
            for line in sys.stdin:
                if line.startswith("quit"): break
                print("ns 1", flush=True)
        """)
        let start = Date()
        let results = try run(script)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        let time = try XCTUnwrap(results.first { $0.metric == "time_ns" })
        XCTAssertEqual(time.status, .unchecked, time.detail)
        try assertNoneLeft(pids)
    }
}
