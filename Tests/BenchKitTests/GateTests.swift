import GraticuleSupport
import XCTest
@testable import BenchKit

final class GateTests: XCTestCase {
    let key = CaseKey(benchmark: "b.op", implementation: "graticule", dataset: "d", parameters: "")

    func report(_ results: [MetricResult], build: String = "release") -> RunReport {
        var m = ReportTests.metadata
        m.buildConfiguration = build
        return RunReport(metadata: m, results: results)
    }

    func time(_ samples: [Double]) -> MetricResult {
        .measured(key, bytes: 100, items: 1, metric: .timeNs, iterations: 1, samples: samples)
    }

    func exact(_ metric: Metric, _ value: Double) -> MetricResult {
        .measured(key, bytes: 100, items: 1, metric: metric, iterations: 1, samples: [value, value, value])
    }

    /// Deterministic noisy samples around `center` with relative spread `spread`.
    func noisy(_ center: Double, spread: Double, n: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in center * (1 + spread * (Double(rng.next() >> 11) * 0x1.0p-53 - 0.5)) }
    }

    func verdict(_ base: [MetricResult], _ head: [MetricResult], metric: String = "time_ns") throws -> Gate.Verdict {
        let f = try Gate().compare(base: report(base), head: report(head))
        return f.first { $0.metric == metric }!.verdict
    }

    func testIdenticalDistributionsAreUnchanged() throws {
        XCTAssertEqual(try verdict([time(noisy(100, spread: 0.04, n: 30, seed: 1))],
                                   [time(noisy(100, spread: 0.04, n: 30, seed: 2))]), .unchanged)
    }

    func testClearSlowdownRegressesAndSpeedupImproves() throws {
        let base = [time(noisy(100, spread: 0.04, n: 30, seed: 1))]
        XCTAssertEqual(try verdict(base, [time(noisy(120, spread: 0.04, n: 30, seed: 2))]), .regressed)
        XCTAssertEqual(try verdict(base, [time(noisy(80, spread: 0.04, n: 30, seed: 3))]), .improved)
    }

    func testLargeButInsignificantChangeIsNoisy() throws {
        // Three wildly spread samples a side: the medians differ by > 5% but the test
        // cannot tell the sides apart.
        XCTAssertEqual(try verdict([time([50, 100, 300])], [time([60, 110, 280])]), .noisy)
    }

    func testSignificantButSmallChangeIsUnchanged() throws {
        XCTAssertEqual(try verdict([time(noisy(100, spread: 0.001, n: 40, seed: 1))],
                                   [time(noisy(102, spread: 0.001, n: 40, seed: 2))]), .unchanged)
    }

    func testExactMetricsCompareWithoutNoiseModel() throws {
        XCTAssertEqual(try verdict([exact(.instructions, 1000)], [exact(.instructions, 1030)],
                                   metric: "instructions"), .regressed)
        XCTAssertEqual(try verdict([exact(.instructions, 1000)], [exact(.instructions, 1019)],
                                   metric: "instructions"), .unchanged)
        XCTAssertEqual(try verdict([exact(.allocCount, 10)], [exact(.allocCount, 9)],
                                   metric: "alloc_count"), .improved)
        XCTAssertEqual(try verdict([exact(.allocCount, 0)], [exact(.allocCount, 1)],
                                   metric: "alloc_count"), .regressed)
        XCTAssertEqual(try verdict([exact(.allocCount, 0)], [exact(.allocCount, 0)],
                                   metric: "alloc_count"), .unchanged)
    }

    func testMissingOrUnsupportedSidesAreUnsupported() throws {
        let unsupported = MetricResult(key: key, datasetBytes: 100, datasetItems: 1, metric: "instructions",
                                       status: .unsupported, detail: "no valgrind")
        XCTAssertEqual(try verdict([time([1, 2, 3]), unsupported], [time([1, 2, 3]), exact(.instructions, 5)],
                                   metric: "instructions"), .unsupported)
        XCTAssertEqual(try verdict([time([1, 2, 3])], [time([1, 2, 3]), exact(.allocCount, 5)],
                                   metric: "alloc_count"), .unsupported)
    }

    func testThroughputIsNotGated() throws {
        let tp = MetricResult.measured(key, bytes: 100, items: 1, metric: .throughputMBPerS, iterations: 1,
                                       samples: [1, 2, 3])
        let f = try Gate().compare(base: report([time([1, 2, 3]), tp]), head: report([time([1, 2, 3]), tp]))
        XCTAssertFalse(f.contains { $0.metric == "throughput_mb_per_s" })
    }

    func testDebugBuildsAreRefused() {
        XCTAssertThrowsError(try Gate().compare(base: report([time([1])], build: "debug"), head: report([time([1])]))) {
            XCTAssertEqual($0 as? Gate.Failure, .debugBuild(side: "base"))
        }
        XCTAssertThrowsError(try Gate().compare(base: report([time([1])]), head: report([time([1])], build: "debug"))) {
            XCTAssertEqual($0 as? Gate.Failure, .debugBuild(side: "head"))
        }
    }

    func testDisjointReportsAreBadInput() {
        let other = CaseKey(benchmark: "x", implementation: "y", dataset: "z", parameters: "")
        let r = MetricResult.measured(other, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [1])
        XCTAssertThrowsError(try Gate().compare(base: report([time([1])]), head: report([r]))) {
            XCTAssertEqual($0 as? Gate.Failure, .noCommonCases)
        }
    }

    func testExitCodesAndThresholdOverride() throws {
        let base = [time(noisy(100, spread: 0.02, n: 30, seed: 1))]
        let head = [time(noisy(108, spread: 0.02, n: 30, seed: 2))]
        let strict = try Gate().compare(base: report(base), head: report(head))
        XCTAssertEqual(Gate.exitCode(strict), .regression)
        let lenient = try Gate(thresholds: ["time_ns": 0.10]).compare(base: report(base), head: report(head))
        XCTAssertEqual(Gate.exitCode(lenient), .ok)
        XCTAssertEqual(Gate.ExitCode.badInput.rawValue, 2)
    }

    func testMarkdownListsNotableFindings() throws {
        let f = try Gate().compare(base: report([time(noisy(100, spread: 0.02, n: 30, seed: 1))]),
                                   head: report([time(noisy(150, spread: 0.02, n: 30, seed: 2))]))
        let md = Gate.markdown(f, base: ReportTests.metadata, head: ReportTests.metadata)
        XCTAssertTrue(md.contains("| regressed | b.op | graticule | d | time_ns |"))
        XCTAssertTrue(md.contains("regressed: 1"))
        let csv = Gate.csv(f)
        XCTAssertTrue(csv.hasPrefix("benchmark,implementation,dataset,parameters,metric,verdict,"))
    }
}

extension GateTests {
    /// The heap peak is sampled by jemalloc every 64 KiB, so it moves between identical runs:
    /// it must be reported but never gated.
    func testSampledHeapPeakIsNotGated() throws {
        let base = MetricResult.measured(key, bytes: 1, items: 1, metric: .peakHeapBytes, iterations: 1, samples: [2930])
        let head = MetricResult.measured(key, bytes: 1, items: 1, metric: .peakHeapBytes, iterations: 1, samples: [7260])
        let f = try Gate().compare(base: report([time([1, 2, 3]), base]), head: report([time([1, 2, 3]), head]))
        XCTAssertFalse(f.contains { $0.metric == "peak_heap_bytes" })
        XCTAssertEqual(Gate.exitCode(f), .ok)
    }

    func testMarkdownShowsParameters() throws {
        let k = CaseKey(benchmark: "mvt.decode", implementation: "graticule", dataset: "d", parameters: "mode=tolerant")
        let b = MetricResult.measured(k, bytes: 1, items: 1, metric: .allocCount, iterations: 1, samples: [1])
        let h = MetricResult.measured(k, bytes: 1, items: 1, metric: .allocCount, iterations: 1, samples: [5])
        let f = try Gate().compare(base: report([b]), head: report([h]))
        XCTAssertTrue(Gate.markdown(f, base: ReportTests.metadata, head: ReportTests.metadata)
            .contains("| regressed | mvt.decode [mode=tolerant] | graticule |"))
    }
}

extension GateTests {
    /// On a hosted runner the gate fails on counts and only reports time.
    func testGatedMetricsReportTimeWithoutFailing() throws {
        let base = report([time(noisy(100, spread: 0.02, n: 30, seed: 1)), exact(.instructions, 1000)])
        let head = report([time(noisy(150, spread: 0.02, n: 30, seed: 2)), exact(.instructions, 1000)])
        let countsOnly = Gate(gatedMetrics: ["instructions", "alloc_count", "alloc_bytes"])
        let f = try countsOnly.compare(base: base, head: head)
        let t = try XCTUnwrap(f.first { $0.metric == "time_ns" })
        XCTAssertEqual(t.verdict, .regressed)
        XCTAssertFalse(t.gated)
        XCTAssertEqual(Gate.exitCode(f), .ok)
        let worse = report([time(noisy(150, spread: 0.02, n: 30, seed: 2)), exact(.instructions, 1100)])
        XCTAssertEqual(Gate.exitCode(try countsOnly.compare(base: base, head: worse)), .regression)
    }

    /// Regressions, then improvements, then every finding in a collapsed table.
    func testMarkdownOrdersRegressionsImprovementsThenAll() throws {
        let base = report([time(noisy(100, spread: 0.02, n: 30, seed: 1)), exact(.instructions, 1000), exact(.allocCount, 10)])
        let head = report([time(noisy(150, spread: 0.02, n: 30, seed: 2)), exact(.instructions, 900), exact(.allocCount, 10)])
        let md = Gate.markdown(try Gate().compare(base: base, head: head), base: ReportTests.metadata, head: ReportTests.metadata)
        let r = try XCTUnwrap(md.range(of: "### Regressions")), i = try XCTUnwrap(md.range(of: "### Improvements"))
        let d = try XCTUnwrap(md.range(of: "<details><summary>All 3 findings"))
        XCTAssertTrue(r.lowerBound < i.lowerBound && i.lowerBound < d.lowerBound)
        let regressions = md[r.upperBound..<i.lowerBound], improvements = md[i.upperBound..<d.lowerBound]
        XCTAssertTrue(regressions.contains("| regressed | b.op |") && !regressions.contains("improved"))
        XCTAssertTrue(improvements.contains("| improved | b.op | graticule | d | instructions |"))
        XCTAssertTrue(md[d.upperBound...].contains("| unchanged | b.op | graticule | d | alloc_count |"))
        XCTAssertTrue(md.hasSuffix("</details>\n"))
    }
}

extension GateTests {
    /// The gate fails closed: a 3× slowdown whose samples are missing is not a pass; nor
    /// is a gated case absent from head, failed there, or unmeasured.
    func testGateFailsClosedOnWhatItCannotCompare() throws {
        let base = report([time(noisy(100, spread: 0.02, n: 30, seed: 1))])
        var slowerWithoutSamples = time(noisy(300, spread: 0.02, n: 30, seed: 2))
        slowerWithoutSamples.samples = []
        let f = try Gate().compare(base: base, head: report([slowerWithoutSamples]))
        XCTAssertEqual(f.first?.verdict, .unsupported)
        XCTAssertTrue(f.first?.detail.contains("head side") ?? false, f.first?.detail ?? "")
        XCTAssertEqual(Gate.exitCode(f), .badInput)
        // Letting the uncomparable through still leaves a gate that compared nothing.
        XCTAssertEqual(Gate.exitCode(f, allowUncomparable: true), .badInput)
        let withCounts = try Gate().compare(base: report([time(noisy(100, spread: 0.02, n: 30, seed: 1)), exact(.allocCount, 1)]),
                                            head: report([slowerWithoutSamples, exact(.allocCount, 1)]))
        XCTAssertEqual(Gate.exitCode(withCounts, allowUncomparable: true), .ok)
        XCTAssertTrue(Gate.uncomparableMessage(Gate.uncomparable(f)).contains("1 gated finding cannot be compared"))

        // Failed in head.
        let failed = MetricResult(key: key, datasetBytes: 100, datasetItems: 1, metric: "time_ns", status: .failed, detail: "setup failed")
        XCTAssertEqual(Gate.exitCode(try Gate().compare(base: base, head: report([failed, exact(.allocCount, 1)]))), .badInput)
        // Absent from head (another gated case keeps the reports comparable).
        let other = CaseKey(benchmark: "b.other", implementation: "graticule", dataset: "d", parameters: "")
        let otherTime = MetricResult.measured(other, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [5, 5, 5])
        let absent = try Gate().compare(base: report([time([1, 2, 3]), otherTime]), head: report([otherTime]))
        XCTAssertEqual(absent.first { $0.key == key }?.detail, "absent from head")
        XCTAssertEqual(Gate.exitCode(absent), .badInput)
        // A case new in head is not uncomparable; a peer's missing case is not gated.
        let added = try Gate().compare(base: report([otherTime]), head: report([otherTime, time([1, 2, 3])]))
        XCTAssertEqual(Gate.exitCode(added), .ok)
        let peer = CaseKey(benchmark: "b.op", implementation: "peer", dataset: "d", parameters: "")
        let peerTime = MetricResult.measured(peer, bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [5, 5, 5])
        XCTAssertEqual(Gate.exitCode(try Gate().compare(base: report([otherTime, peerTime]), head: report([otherTime]))), .ok)
        // A regression still says regression.
        let regressed = try Gate().compare(base: report([exact(.instructions, 100), time([1, 2, 3])]),
                                           head: report([exact(.instructions, 200), failed]))
        XCTAssertEqual(Gate.exitCode(regressed), .regression)
    }

    /// A samples file written by another run is refused when the report is read: its
    /// samples would be tested against another run's summary.
    func testSamplesOfAnotherRunAreRefused() throws {
        let r = report([time([1, 2, 3])])
        var other = r
        other.metadata.runID = "another-run"
        XCTAssertNoThrow(try RunReport.parse(csv: r.csv(), samples: r.samplesCSV()))
        XCTAssertThrowsError(try RunReport.parse(csv: r.csv(), samples: other.samplesCSV(), path: "x.csv")) {
            guard case .samplesFromAnotherRun(let path, _, let found)? = $0 as? ReportError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, "x.samples.csv")
            XCTAssertEqual(found, "another-run")
        }
    }
}

/// Who is gated: graticule and every candidate by default, peers never unless asked; a
/// gate that compared nothing, or was told to gate a name no report holds, never passes.
final class GateRoleTests: XCTestCase {
    func row(_ impl: String, _ role: MetricResult.Role, instructions: Double, status: MetricResult.Status = .ok) -> MetricResult {
        let key = CaseKey(benchmark: "b.op", implementation: impl, dataset: "d", parameters: "")
        var r = MetricResult.measured(key, role: role, bytes: 1, items: 1, metric: .instructions, iterations: 1,
                                      samples: [instructions])
        if status != .ok { r.status = status; r.detail = "result differs from the reference: checksum" }
        return r
    }

    func report(_ rows: [MetricResult]) -> RunReport { RunReport(metadata: ReportTests.metadata, results: rows) }

    func testCandidatesAreGatedByDefaultAndPeersAreNot() throws {
        let base = report([row("graticule", .project, instructions: 1000), row("mine", .candidate, instructions: 1000),
                           row("theirs", .peer, instructions: 1000)])
        // The candidate and the peer both 19% slower.
        let head = report([row("graticule", .project, instructions: 1000), row("mine", .candidate, instructions: 1190),
                           row("theirs", .peer, instructions: 1190)])
        let f = try Gate().compare(base: base, head: head)
        XCTAssertEqual(f.first { $0.key.implementation == "mine" }?.verdict, .regressed)
        XCTAssertEqual(f.first { $0.key.implementation == "mine" }?.gated, true)
        XCTAssertEqual(f.first { $0.key.implementation == "theirs" }?.gated, false)
        XCTAssertEqual(Gate.exitCode(f), .regression)
        // Narrowed to graticule: the candidate's regression is reported, not gated.
        let narrowed = try Gate(gatedImplementations: ["graticule"]).compare(base: base, head: head)
        XCTAssertEqual(Gate.exitCode(narrowed), .ok)
        // Every role: the peer fails it too.
        let all = try Gate(gatedRoles: Set(MetricResult.Role.allCases)).compare(base: base, head: head)
        XCTAssertEqual(all.filter { $0.gated && $0.verdict == .regressed }.count, 2)
    }

    func testGateNamingNobodyIsRefused() {
        let r = report([row("graticule", .project, instructions: 1000)])
        XCTAssertThrowsError(try Gate(gatedImplementations: ["nobody"]).compare(base: r, head: r)) { e in
            XCTAssertEqual(e as? Gate.Failure, .unknownImplementations(["nobody"], known: ["graticule"]))
        }
    }

    func testGateThatComparedNothingDoesNotPass() throws {
        // Only a peer in the reports: nothing is gated.
        let r = report([row("theirs", .peer, instructions: 1000)])
        let f = try Gate().compare(base: r, head: r)
        XCTAssertTrue(Gate.compared(f).isEmpty)
        XCTAssertEqual(Gate.exitCode(f), .badInput)
        XCTAssertTrue(Gate.nothingComparedMessage(f).contains("no finding is gated"))
    }

    func testWrongInHeadIsARegression() throws {
        let base = report([row("mine", .candidate, instructions: 1000)])
        let head = report([row("mine", .candidate, instructions: 1000, status: .wrong)])
        let f = try Gate().compare(base: base, head: head)
        XCTAssertEqual(f.first?.verdict, .regressed)
        XCTAssertTrue(f.first?.detail.hasPrefix("head: wrong") ?? false)
        XCTAssertEqual(Gate.exitCode(f), .regression)
    }

    /// A case whose HEAD result turned wrong: every metric of it is that regression (the
    /// metrics not measured because of it too), and the Markdown gives it a section of its own
    /// with the first difference and writes "wrong", never a row of empty medians.
    func testWrongInHeadHasItsOwnSection() throws {
        func time(_ impl: String, status: MetricResult.Status = .ok) -> MetricResult {
            let key = CaseKey(benchmark: "b.op", implementation: impl, dataset: "d", parameters: "")
            var r = MetricResult.measured(key, role: .candidate, bytes: 1, items: 1, metric: .timeNs, iterations: 1,
                                          samples: [100, 101, 102])
            if status != .ok { r.status = status; r.detail = "result differs from the reference: feature 3 position 1" }
            return r
        }
        var unmeasured = row("mine", .candidate, instructions: 1000)
        unmeasured.status = .unsupported
        unmeasured.detail = "not measured"
        let base = report([time("mine"), row("mine", .candidate, instructions: 1000)])
        let head = report([time("mine", status: .wrong), unmeasured])
        let f = try Gate().compare(base: base, head: head)
        XCTAssertEqual(f.count, 2)
        XCTAssertTrue(f.allSatisfy { $0.verdict == .regressed && $0.headWrong }, "\(f)")
        XCTAssertTrue(f.allSatisfy { $0.detail == "head: wrong result differs from the reference: feature 3 position 1" })
        XCTAssertEqual(Gate.exitCode(f), .regression)
        let md = Gate.markdown(f, base: ReportTests.metadata, head: ReportTests.metadata)
        XCTAssertTrue(md.contains("### Wrong results"), md)
        XCTAssertTrue(md.contains("| b.op | mine | d | result differs from the reference: feature 3 position 1 |"), md)
        XCTAssertTrue(md.contains("None beyond the thresholds besides the wrong results above."), md)
        XCTAssertTrue(md.contains("| wrong | b.op | mine | d |"), md)
        XCTAssertFalse(md.contains("| regressed |"), md)
        XCTAssertFalse(md.contains("| unsupported |"), md)
    }

    func testUncheckedCannotBeCompared() throws {
        let base = report([row("graticule", .project, instructions: 1000), row("mine", .candidate, instructions: 1000)])
        let head = report([row("graticule", .project, instructions: 1000), row("mine", .candidate, instructions: 1000, status: .unchecked)])
        let f = try Gate().compare(base: base, head: head)
        XCTAssertEqual(f.first { $0.key.implementation == "mine" }?.verdict, .unsupported)
        XCTAssertEqual(Gate.exitCode(f), .badInput)
    }
}
