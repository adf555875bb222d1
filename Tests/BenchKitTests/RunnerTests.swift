import XCTest
@testable import BenchKit

final class RunnerTests: XCTestCase {
    final class Log: @unchecked Sendable { var entries: [String] = []; var ops = 0 }

    func fastConfig() -> RunConfiguration {
        var c = RunConfiguration.quick
        c.warmupSeconds = 0.001
        c.minSamples = 12
        c.minSeconds = 0.001
        c.maxSeconds = 0.5
        c.targetSampleSeconds = 0.0005
        c.allocationPasses = 1
        return c
    }

    func testEveryMetricIsWrittenAndSampleCountsHonoured() {
        let d = Dataset(name: "d", kind: "k") { ([UInt8](repeating: 1, count: 1000), 10) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("op", implementation: "graticule", dataset: d) { d in
            let b = try d.bytes()
            return Workload { n in for _ in 0..<n { blackHole(b.reduce(0, &+)) } }
        }
        let results = Runner(configuration: fastConfig()).run(suite.cases)
        XCTAssertEqual(Set(results.map(\.metric)),
                       Set(Metric.allCases.filter { $0 != .instructions }.map(\.rawValue)))
        let time = results.first { $0.metric == "time_ns" }!
        XCTAssertEqual(time.status, .ok)
        XCTAssertGreaterThanOrEqual(time.samples.count, 12)
        XCTAssertEqual(time.datasetBytes, 1000)
        XCTAssertEqual(time.datasetItems, 10)
        let tp = results.first { $0.metric == "throughput_mb_per_s" }!
        // Throughput is bytes / time: check one sample by hand.
        XCTAssertEqual(tp.samples[0], 1000 / time.samples[0] * 1e3, accuracy: 1e-9)
    }

    func testCasesAreInterleaved() {
        let log = Log()
        let d = Dataset(name: "d", kind: "k") { ([0], 1) }
        var suite = BenchmarkSuite(name: "t")
        for name in ["a", "b", "c"] {
            suite.add("op", implementation: name, dataset: d) { _ in
                Workload { n in log.entries.append(name); for _ in 0..<n { blackHole(name) } }
            }
        }
        var cfg = fastConfig()
        cfg.warmupSeconds = 0
        _ = Runner(configuration: cfg).run(suite.cases)
        // Warm-up runs each case once (warm-up time 0), in registration order. Then every
        // round samples each unfinished case once, in a shuffled order; all three stay active
        // for at least `minSamples` rounds, so each of those rounds is a permutation.
        XCTAssertEqual(Array(log.entries.prefix(3)), ["a", "b", "c"])
        var orders = Set<String>()
        for round in 0..<12 {
            let slice = Array(log.entries[(3 + 3 * round)..<(6 + 3 * round)])
            XCTAssertEqual(slice.sorted(), ["a", "b", "c"], "round \(round) must sample every case once")
            orders.insert(slice.joined())
        }
        XCTAssertGreaterThan(orders.count, 1, "the order changes between rounds")
    }

    func testInjectedSlowdownAddsKnownWork() {
        let log = Log()
        let d = Dataset(name: "d", kind: "k") { ([0], 1) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("slow.op", implementation: "graticule", dataset: d) { _ in
            Workload { n in log.ops += n }
        }
        let s = _InProcessSampler(workload: Workload { n in log.ops += n }, slowdown: 0.5)
        for _ in 0..<100 { _ = try? s.sample(10) }
        XCTAssertEqual(log.ops, 1500)
        var cfg = fastConfig()
        cfg.injectedSlowdown = ["slow.op": 0.25]
        XCTAssertEqual(cfg.slowdown(for: suite.cases[0].id), 0.25)
        XCTAssertEqual(cfg.slowdown(for: CaseKey(benchmark: "other", implementation: "g", dataset: "d", parameters: "")), 0)
    }

    func testSetupFailureIsReportedNotHidden() {
        struct Boom: Error {}
        let d = Dataset(name: "d", kind: "k") { ([0], 1) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("bad", implementation: "graticule", dataset: d) { _ in throw Boom() }
        let results = Runner(configuration: fastConfig()).run(suite.cases)
        XCTAssertFalse(results.isEmpty)
        XCTAssertTrue(results.allSatisfy { $0.status == .failed && $0.detail.contains("setup failed") })
    }

    func testRatiosAgainstReference() {
        let d = Dataset(name: "d", kind: "k") { ([0], 1) }
        let k1 = CaseKey(benchmark: "op", implementation: "graticule", dataset: d.name, parameters: "")
        let k2 = CaseKey(benchmark: "op", implementation: "peer", dataset: d.name, parameters: "")
        let k3 = CaseKey(benchmark: "op", implementation: "peer", dataset: "other", parameters: "")
        let rs = Runner.addingRatios([
            .measured(k1, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [10, 10, 10]),
            .measured(k2, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [30, 30, 30]),
            .measured(k3, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [30, 30, 30]),
        ], reference: "graticule")
        XCTAssertNil(rs[0].ratio)
        XCTAssertEqual(rs[1].ratio?.value, 3)
        XCTAssertEqual(rs[1].ratio?.reference, "graticule")
        XCTAssertNil(rs[2].ratio, "no reference on that dataset")
    }

    func testSelectionByQuickAndFilter() {
        let d = Dataset(name: "gen/a", kind: "k") { ([0], 1) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("x.one", implementation: "graticule", dataset: d) { _ in Workload { _ in } }
        suite.add("x.two", implementation: "peer", dataset: d, quick: false) { _ in Workload { _ in } }
        XCTAssertEqual(suite.selected(quick: true, filter: nil).map(\.name), ["x.one"])
        XCTAssertEqual(suite.selected(quick: false, filter: nil).count, 2)
        XCTAssertEqual(suite.selected(quick: false, filter: "peer").map(\.name), ["x.two"])
        XCTAssertEqual(suite.selected(quick: false, filter: "nothing,x.one").map(\.name), ["x.one"])
    }

    func testCallgrindTotalsParsing() {
        let text = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=foo\n3 10\nsummary: 123456\ntotals: 123456\n"
        XCTAssertEqual(InstructionCounter.totalInstructions(callgrindOutput: text), 123456)
        XCTAssertNil(InstructionCounter.totalInstructions(callgrindOutput: "events: Ir\n"))
    }
}

/// The bench isolation child's side of the protocol.
final class CaseIsolationTests: XCTestCase {
    func testServeAnswersDigestElementsAndRuns() {
        let d = Dataset(name: "t/d", kind: "bin") { ([1, 2, 3], 3) }
        var ran = 0
        let digest = ResultDigest(counts: [.init(name: "values", value: 3)], checksum: 42)
        let c = BenchmarkCase(name: "op", implementation: "theirs", dataset: d,
                              body: .inProcess(setup: { _ in Workload { n in ran += n } }),
                              check: { _ in ResultCheck(digest: digest, locatedElements: { ["a\t1", "b\t2"] }) },
                              role: .candidate)
        XCTAssertTrue(CaseIsolation.isolates(c))
        var input = ["digest", "elements", "run 5", "quit"].makeIterator()
        var out: [String] = []
        XCTAssertEqual(CaseIsolation.serve(c, readLine: { input.next() }, output: { out.append($0) }), 0)
        XCTAssertEqual(Array(out.prefix(5)), ["ready", "digest values=3 checksum=000000000000002a", "element a\t1", "element b\t2", "end"])
        XCTAssertTrue(out[5].hasPrefix("ns "), out[5])
        XCTAssertGreaterThanOrEqual(UInt64(out[5].dropFirst(3)) ?? 0, 1)
        XCTAssertEqual(ran, 5)
        // The project's own cases are never isolated.
        let own = BenchmarkCase(name: "op", implementation: "graticule", dataset: d, body: .inProcess(setup: { _ in Workload { _ in } }))
        XCTAssertFalse(CaseIsolation.isolates(own))
        var bad = ["run x"].makeIterator()
        XCTAssertEqual(CaseIsolation.serve(c, readLine: { bad.next() }, output: { _ in }), 2)
    }
}
