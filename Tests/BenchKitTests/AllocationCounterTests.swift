import XCTest
import Foundation
@testable import BenchKit
#if canImport(Glibc)
import Glibc
#endif

/// The allocation pass: timing runs under the system allocator, counts come from a child
/// with jemalloc preloaded. These tests run in the plain test process (no jemalloc); the
/// readings themselves are checked by ``PreloadedJemallocTests`` in a preloaded copy of
/// this test binary.
final class AllocationCounterTests: XCTestCase {
    static let preloadedMarker = "GRATICULE_TEST_PRELOADED"

    func testTimingProcessDoesNotAllocateWithJemalloc() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[Self.preloadedMarker] == "1", "preloaded copy")
        XCTAssertFalse(AllocationCounter.isActiveInThisProcess, "nothing may link jemalloc into the timing process")
        XCTAssertNil(_Jemalloc.snapshot())
        XCTAssertFalse(RunEnvironment.allocator.hasPrefix("jemalloc"), RunEnvironment.allocator)
    }

    func testLibraryLookup() {
        XCTAssertEqual(AllocationCounter.jemallocLibrary(environment: ["GRATICULE_JEMALLOC": "/x/libj.so"], exists: { _ in true }),
                       "/x/libj.so")
        XCTAssertNil(AllocationCounter.jemallocLibrary(environment: ["GRATICULE_JEMALLOC": ""], exists: { _ in true }),
                     "an empty GRATICULE_JEMALLOC turns the pass off")
        XCTAssertNil(AllocationCounter.jemallocLibrary(environment: ["GRATICULE_JEMALLOC": "/missing.so"], exists: { _ in false }))
        XCTAssertNil(AllocationCounter.jemallocLibrary(environment: [:], exists: { _ in false }))
        #if os(Linux)
        XCTAssertEqual(AllocationCounter.jemallocLibrary(environment: [:], exists: { $0 == "/usr/lib64/libjemalloc.so.2" }),
                       "/usr/lib64/libjemalloc.so.2")
        #endif
    }

    func testProtocolLinesRoundTrip() {
        let s = AllocationCounter.Samples(counts: [2, 2.5], bytes: [64, 80], peaks: [1024, 2048])
        let text = ["allocator\tjemalloc 5.3.0",
                    AllocationCounter.line(id: "a|graticule|d|", s),
                    AllocationCounter.line(id: "b|x|d|", .init(counts: [0], bytes: [0], peaks: [])),
                    AllocationCounter.errorLine(id: "c|x|d|", "setup failed:\tno\nfile"),
                    "ok\tbroken\t1,2\t3\t",          // counts and bytes disagree: ignored
                    "ok\tneg\t-1\t3\t",              // negative: ignored
                    "garbage"].joined(separator: "\n")
        let r = AllocationCounter.parse(text)
        XCTAssertEqual(r.allocator, "jemalloc 5.3.0")
        XCTAssertEqual(r.measured["a|graticule|d|"], s)
        XCTAssertEqual(r.measured["b|x|d|"]?.peaks, [])
        XCTAssertEqual(r.errors["c|x|d|"], "setup failed: no file")
        XCTAssertNil(r.measured["broken"])
        XCTAssertNil(r.measured["neg"])
        XCTAssertEqual(r.measured.count, 2)
    }

    /// A child that answers one case and dies: that case keeps its samples, the others get
    /// the exit status and the child's last words.
    func testChildThatDiesPartWayKeepsWhatItReported() throws {
        let script = "printf 'allocator\\tjemalloc test\\nok\\tone\\t1\\t16\\t\\n'; echo 'out of luck' >&2; exit 3"
        let child = AllocationCounter.Child(executable: "/bin/sh", arguments: ["-c", script, "sh"],
                                            library: AllocationCounter.jemallocLibrary() ?? "/nonexistent-jemalloc.so")
        let r = try AllocationCounter.measure([("one", 10), ("two", 10)], child: child, scratch: try newFolder("graticule-alloc-test"))
        XCTAssertEqual(r.measured["one"], .init(counts: [1], bytes: [16], peaks: []))
        let why = try XCTUnwrap(r.errors["two"])
        XCTAssertTrue(why.contains("exit 3") && why.contains("out of luck"), why)
    }

    /// A child that never says its allocator is not trusted, whatever it prints.
    func testChildWithoutJemallocIsNotTrusted() throws {
        let child = AllocationCounter.Child(executable: "/bin/sh", arguments: ["-c", "printf 'ok\\tone\\t1\\t16\\t\\n'", "sh"],
                                            library: "/nonexistent-jemalloc.so")
        let r = try AllocationCounter.measure([("one", 10)], child: child, scratch: try newFolder("graticule-alloc-test"))
        XCTAssertTrue(r.measured.isEmpty)
        XCTAssertTrue(r.errors["one"]?.contains("not jemalloc") ?? false, "\(r.errors)")
    }

    func testMissingLibraryIsATypedError() {
        let child = AllocationCounter.Child(executable: "/bin/true", arguments: [], library: nil)
        setenv("GRATICULE_JEMALLOC", "", 1)
        defer { unsetenv("GRATICULE_JEMALLOC") }
        XCTAssertThrowsError(try AllocationCounter.measure([("one", 1)], child: child, scratch: try newFolder("graticule-alloc-test"))) {
            XCTAssertEqual($0 as? AllocationCounter.Failure, .noLibrary)
        }
    }

    /// Without jemalloc and without a child, the runner times the case and says once, in
    /// each allocation row, why those metrics are missing.
    func testRunnerWithoutAChildWritesUnsupported() throws {
        try XCTSkipIf(AllocationCounter.isActiveInThisProcess, "preloaded copy measures in-process")
        var suite = BenchmarkSuite(name: "t")
        suite.add("alloc.op", implementation: "graticule", dataset: Dataset(name: "tiny", kind: "test") { ([1], 1) }) { _ in
            Workload { n in for i in 0..<n { blackHole([UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 64)) } }
        }
        var cfg = RunConfiguration.quick
        cfg.minSamples = 3
        cfg.minSeconds = 0.01
        let outcome = Runner(configuration: cfg).measure(suite.cases)
        for m in [Metric.allocCount, .allocBytes, .peakHeapBytes] {
            let row = try XCTUnwrap(outcome.results.first { $0.metric == m.rawValue })
            XCTAssertEqual(row.status, .unsupported)
            XCTAssertTrue(row.detail.contains("jemalloc"), row.detail)
        }
        XCTAssertEqual(outcome.results.first { $0.metric == "time_ns" }?.status, .ok)
        XCTAssertTrue(outcome.allocators.contains("allocation metrics not measured"), outcome.allocators)
    }

    /// Runs ``PreloadedJemallocTests`` in a copy of this test binary with jemalloc preloaded,
    /// and requires that they ran (not skipped) and passed.
    func testReadingsInAPreloadedCopyOfThisBinary() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[Self.preloadedMarker] == "1", "preloaded copy")
        let library = try XCTUnwrap(AllocationCounter.jemallocLibrary(), "libjemalloc2 must be installed (.ci/setup)")
        let binary = CommandLine.arguments[0]
        try XCTSkipUnless(binary.hasSuffix(".xctest") && FileManager.default.isExecutableFile(atPath: binary),
                          "the test binary cannot be run again here (\(binary))")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["BenchKitTests.PreloadedJemallocTests"]
        var env = ProcessInfo.processInfo.environment
        env["LD_PRELOAD"] = library
        env[Self.preloadedMarker] = "1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Executed \(PreloadedJemallocTests.count) tests, with 0 failures"), text)
        XCTAssertFalse(text.contains("skipped"), text)
    }
}

/// Checks of jemalloc's readings. They run only in a copy of the test binary started with
/// jemalloc preloaded (``AllocationCounterTests/testReadingsInAPreloadedCopyOfThisBinary``).
final class PreloadedJemallocTests: XCTestCase {
    static let count = 4

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment[AllocationCounterTests.preloadedMarker] == "1",
                          "runs in the preloaded copy")
    }

    func testJemallocIsTheAllocator() {
        XCTAssertTrue(_Jemalloc.isActive)
        XCTAssertTrue(RunEnvironment.allocator.hasPrefix("jemalloc 5."), RunEnvironment.allocator)
    }

    /// The counters count: 1000 blocks of 1000 bytes show up as at least 1000 allocations
    /// and 1,000,000 bytes, and a reading allocates nothing itself.
    func testCountersSeeKnownAllocations() throws {
        let a = try XCTUnwrap(_Jemalloc.snapshot())
        let b = try XCTUnwrap(_Jemalloc.snapshot())
        XCTAssertEqual(b.allocationCount, a.allocationCount)
        XCTAssertEqual(b.allocatedBytes, a.allocatedBytes)
        var blocks: [UnsafeMutableRawPointer?] = []
        blocks.reserveCapacity(1000)
        let mid = try XCTUnwrap(_Jemalloc.snapshot())
        for _ in 0..<1000 { blocks.append(malloc(1000)) }
        let after = try XCTUnwrap(_Jemalloc.snapshot())
        for b in blocks { free(b) }
        let freed = try XCTUnwrap(_Jemalloc.snapshot())
        XCTAssertGreaterThanOrEqual(after.allocationCount - mid.allocationCount, 1000)
        XCTAssertLessThan(after.allocationCount - mid.allocationCount, 1010)
        XCTAssertGreaterThanOrEqual(after.allocatedBytes - mid.allocatedBytes, 1_000_000)
        XCTAssertGreaterThanOrEqual(freed.deallocatedBytes - after.deallocatedBytes, 1_000_000)
    }

    /// Through the runner in this process: a workload that allocates one 1 MiB array per
    /// operation reports at least 1 allocation and 1 MiB per operation and a heap peak of at
    /// least 1 MiB (jemalloc updates the peak every 64 KiB allocated, so the block is large).
    func testRunnerReportsAllocationsOfAWorkload() throws {
        let results = Runner(configuration: Self.config).run(Self.suite.cases)
        func median(_ m: Metric) -> Double? { results.first { $0.metric == m.rawValue }?.summary?.median }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.allocCount)), 1)
        XCTAssertLessThan(try XCTUnwrap(median(.allocCount)), 1.5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.allocBytes)), 1_048_576)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.peakHeapBytes)), 1_048_576)
        XCTAssertGreaterThan(try XCTUnwrap(median(.peakResidentBytes)), 0)
    }

    /// The child's side of the protocol: the same workload through a request file, read
    /// back by the parser the parent uses; an unknown id gets an error line.
    func testServingRequests() throws {
        let path = try newFolder("graticule-alloc-requests") + "/requests.tsv"
        let id = Self.suite.cases[0].id.description
        try (("7\t" + id + "\n") + "3\tno|such|case|\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines: [String] = []
        try Runner.serveAllocationRequests(path, cases: Self.suite.cases, configuration: Self.config) { lines.append($0) }
        let r = AllocationCounter.parse(lines.joined(separator: "\n"))
        XCTAssertTrue(r.allocator?.hasPrefix("jemalloc 5.") ?? false)
        let s = try XCTUnwrap(r.measured[id])
        XCTAssertEqual(s.counts.count, Self.config.allocationPasses)
        XCTAssertTrue(s.counts.allSatisfy { $0 >= 1 && $0 < 1.5 }, "\(s.counts)")
        XCTAssertTrue(s.bytes.allSatisfy { $0 >= 1_048_576 }, "\(s.bytes)")
        XCTAssertNotNil(r.errors["no|such|case|"])
    }

    static var config: RunConfiguration {
        var cfg = RunConfiguration.quick
        cfg.minSamples = 3
        cfg.minSeconds = 0.01
        return cfg
    }

    static var suite: BenchmarkSuite {
        var suite = BenchmarkSuite(name: "t")
        suite.add("alloc.op", implementation: "graticule", dataset: Dataset(name: "tiny", kind: "test") { ([1, 2, 3], 3) }) { _ in
            Workload { n in
                for i in 0..<n {
                    let a = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 1 << 20)
                    blackHole(a)
                }
            }
        }
        return suite
    }
}
