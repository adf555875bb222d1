import GraticuleTestSupport
import Foundation
import XCTest
@testable import BenchKit

/// The JSON exports: structure and values, and what is left out.
final class ExportTests: XCTestCase {
    func report() -> RunReport {
        let key = CaseKey(benchmark: "geojson.parse", implementation: "graticule", dataset: "generated/points-2k",
                          parameters: "mode=whole")
        var time = MetricResult.measured(key, bytes: 100, items: 10, metric: .timeNs, iterations: 1, samples: [10, 12, 11, 13, 9])
        time.summary?.ciLow = 9.5
        time.summary?.ciHigh = 12.5
        let throughput = MetricResult.measured(key, bytes: 100, items: 10, metric: .throughputMBPerS, iterations: 1,
                                               samples: [5, 6, 7])
        let failed = MetricResult(key: CaseKey(benchmark: "geojson.parse", implementation: "x", dataset: "d", parameters: ""),
                                  datasetBytes: 1, datasetItems: 1, metric: "time_ns", status: .wrong, detail: "differs")
        return RunReport(metadata: ReportTests.metadata, results: [time, throughput, failed])
    }

    func testBencherMetricFormat() throws {
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(BenchmarkExports.bencher(report()).utf8)) as? [String: Any])
        XCTAssertEqual(json.keys.sorted(), ["geojson.parse|graticule|generated/points-2k|mode=whole"], "only ok results")
        let metrics = try XCTUnwrap(json.values.first as? [String: [String: Double]])
        XCTAssertEqual(metrics.keys.sorted(), ["throughput_mb_per_s", "time_ns"])
        XCTAssertEqual(metrics["time_ns"], ["value": 11, "lower_value": 9.5, "upper_value": 12.5])
    }

    func testGithubActionBenchmarkSplitsByDirection() throws {
        func entries(_ lower: Bool) throws -> [[String: Any]] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(BenchmarkExports.githubActionBenchmark(report(), lowerIsBetter: lower).utf8))
                as? [[String: Any]])
        }
        let smaller = try entries(true), bigger = try entries(false)
        XCTAssertEqual(smaller.map { $0["name"] as? String }, ["geojson.parse|graticule|generated/points-2k|mode=whole time_ns"])
        XCTAssertEqual(smaller.first?["unit"] as? String, "ns")
        XCTAssertEqual(smaller.first?["value"] as? Double, 11)
        XCTAssertEqual(smaller.first?["range"] as? String, "9.5..12.5")
        XCTAssertEqual(bigger.map { $0["unit"] as? String }, ["MB/s"])
        for e in smaller + bigger { XCTAssertEqual(Set(e.keys), ["name", "unit", "value", "range", "extra"]) }
    }
}

extension ExportTests {
    /// Both exports validate against the schemas in Benchmarks/Schemas (with Python's
    /// jsonschema, which CI installs; skipped where it is missing).
    func testExportsValidateAgainstTheirSchemas() throws {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import jsonschema"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { throw XCTSkip("python3 jsonschema is not installed") }
        let dir = try TestPaths.newFolder("graticule-exports")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try BenchmarkExports.bencher(report()).write(toFile: dir + "/b.json", atomically: true, encoding: .utf8)
        try BenchmarkExports.githubActionBenchmark(report()).write(toFile: dir + "/g.json", atomically: true, encoding: .utf8)
        try BenchmarkExports.githubActionBenchmark(report(), lowerIsBetter: false).write(toFile: dir + "/g2.json", atomically: true, encoding: .utf8)
        let root = TestPaths.repositoryRoot
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", root + "/Benchmarks/Schemas/check.py", "--bencher", dir + "/b.json",
                           "--gab", dir + "/g.json", "--gab", dir + "/g2.json"]
        try check.run()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0)
    }
}

/// Ratios print readably at any magnitude.
final class RatioFormatTests: XCTestCase {
    func testRatiosAreNeverZeroAndReadable() {
        XCTAssertEqual(SummaryTable.formatRatio(4.3512), "4.35")
        XCTAssertEqual(SummaryTable.formatRatio(15.08), "15.1")
        XCTAssertEqual(SummaryTable.formatRatio(0.02291), "0.0229")
        XCTAssertEqual(SummaryTable.formatRatio(0.0000031), "3.1e-06")
        XCTAssertEqual(SummaryTable.formatRatio(323_000.4), "323,000")
        XCTAssertEqual(SummaryTable.formatRatio(1234.6), "1,235")
        XCTAssertEqual(SummaryTable.formatRatio(999.4), "999")
        XCTAssertEqual(SummaryTable.formatRatio(.infinity), "n/a")
    }
}

/// The speedup over the reference, under that one name, in every output.
final class SpeedupOutputTests: XCTestCase {
    /// graticule at 100 ns, a peer at 400 ns: the peer's speedup is 0.25 (interval 0.2–0.5).
    static func comparedReport(extraCases: Int = 0) -> RunReport {
        let mine = CaseKey(benchmark: "geojson.parse", implementation: "graticule", dataset: "generated/points-2k", parameters: "mode=whole")
        let peer = CaseKey(benchmark: "geojson.parse", implementation: "foundation.jsonserialization",
                           dataset: "generated/points-2k", parameters: "mode=whole")
        var results = [MetricResult.measured(mine, bytes: 1000, items: 10, metric: .timeNs, iterations: 1, samples: [100, 100, 100])]
        var p = MetricResult.measured(peer, bytes: 1000, items: 10, metric: .timeNs, iterations: 1, samples: [400, 400, 400])
        p.ratio = .init(reference: "graticule", value: 4, low: 2, high: 5)
        results.append(p)
        results.append(MetricResult(key: CaseKey(benchmark: "geojson.parse", implementation: "broken", dataset: "generated/points-2k",
                                                 parameters: "mode=whole"),
                                    datasetBytes: 1000, datasetItems: 10, metric: "time_ns", status: .wrong,
                                    detail: "feature count 9, reference 10"))
        for i in 0..<extraCases {
            let k = CaseKey(benchmark: "source.update.with.a.rather.long.name", implementation: "an-implementation-with-a-long-name-\(i)",
                            dataset: "generated/a-dataset-whose-name-goes-on-and-on-\(i)", parameters: "k=10000;pool=1000;mode=whole")
            results.append(.measured(k, bytes: 1000, items: 10, metric: .timeNs, iterations: 1, samples: [1e6, 1.1e6]))
            results.append(.measured(k, bytes: 1000, items: 10, metric: .allocCount, iterations: 1, samples: [123456]))
        }
        return RunReport(metadata: ReportTests.metadata, results: results)
    }

    func testJSONExportsCarrySpeedup() throws {
        let r = Self.comparedReport()
        let bmf = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(BenchmarkExports.bencher(r).utf8)) as? [String: [String: [String: Double]]])
        XCTAssertEqual(bmf["geojson.parse|foundation.jsonserialization|generated/points-2k|mode=whole"]?["speedup"],
                       ["value": 0.25, "lower_value": 0.2, "upper_value": 0.5])
        XCTAssertNil(bmf["geojson.parse|graticule|generated/points-2k|mode=whole"]?["speedup"], "the reference has none")
        let bigger = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(BenchmarkExports.githubActionBenchmark(r, lowerIsBetter: false).utf8)) as? [[String: Any]])
        let s = try XCTUnwrap(bigger.first { ($0["name"] as? String)?.hasSuffix(" speedup") ?? false })
        XCTAssertEqual(s["value"] as? Double, 0.25)
        XCTAssertEqual(s["unit"] as? String, "x")
    }

    func testRunMarkdownPutsFailuresFirstThenSpeedups() {
        let md = BenchmarkExports.markdown(Self.comparedReport(), reference: "graticule")
        let failed = md.range(of: "### Failed")!, speed = md.range(of: "### graticule's speedup")!
        let all = md.range(of: "<details><summary>All 3 cases</summary>")!
        XCTAssertTrue(failed.lowerBound < speed.lowerBound && speed.lowerBound < all.lowerBound)
        XCTAssertTrue(md.contains("| wrong | geojson.parse [mode=whole] | broken | generated/points-2k | feature count 9, reference 10 |"))
        XCTAssertTrue(md.contains("| geojson.parse [mode=whole] | generated/points-2k | foundation.jsonserialization | 400.0 ns | 4× faster | 2–5 |"))
        XCTAssertTrue(md.hasSuffix("</details>\n"))
    }

    func testHTMLShowsSpeedupColumn() {
        let html = HTMLReport.render(Self.comparedReport())
        XCTAssertTrue(html.contains("<th>speedup</th><th>ratio_to_reference</th>"))
        XCTAssertTrue(html.contains("<td>0.25×</td><td>4</td>"))
    }
}

/// The summary table fits 120 columns unless asked for every column, and never cuts what
/// tells two lines apart.
final class SummaryTableWidthTests: XCTestCase {
    func testDefaultTableFits120ColumnsWithNothingCut() {
        let report = SpeedupOutputTests.comparedReport(extraCases: 3)
        let text = SummaryTable.render(report, reference: "graticule")
        let lines = text.split(separator: "\n").map(String.init)
        for line in lines.dropLast() {  // the last line is the note
            XCTAssertLessThanOrEqual(line.count, 120, line)
        }
        XCTAssertTrue(text.contains("graticule speedup"))
        XCTAssertTrue(text.contains("4× faster [2–5]"), text)
        XCTAssertFalse(text.contains("…"), "nothing is cut")
        XCTAssertFalse(text.contains("ceiling MB/s"))
        // Every case reads apart: its group's heading (benchmark, parameters, dataset) in
        // full, then a line per implementation; no (heading, line) pair repeats.
        var heading = "", seen = Set<String>(), cases = 0
        for line in lines.dropFirst(2).dropLast() {
            if line.hasPrefix("  ") {
                let name = String(line.dropFirst(2).prefix { $0 != " " })
                XCTAssertTrue(seen.insert(heading + "|" + name).inserted, "\(heading): \(name) twice")
                cases += 1
            } else {
                heading = line
            }
        }
        let keys = Set(report.results.map(\.key))
        XCTAssertEqual(cases, keys.count)
        for k in keys {
            XCTAssertTrue(lines.contains((k.parameters.isEmpty ? k.benchmark : "\(k.benchmark) [\(k.parameters)]") + " · " + k.dataset),
                          "no heading for \(k)")
        }
    }

    func testWideTableHasEveryColumnInFull() {
        let text = SummaryTable.render(SpeedupOutputTests.comparedReport(extraCases: 3), reference: "graticule", wide: true)
        XCTAssertTrue(text.contains("ceiling MB/s") && text.contains("bytes/op") && text.contains("items/s"))
        XCTAssertTrue(text.contains("generated/a-dataset-whose-name-goes-on-and-on-2"))
        XCTAssertFalse(text.contains("…"))
    }
}

/// Progress without a terminal: a line per phase, and within a phase at most one per interval.
final class RunProgressTests: XCTestCase {
    func testLogModeWritesOneLinePerPhase() {
        var lines: [String] = []
        let p = RunProgress(enabled: true, terminal: false, logIntervalSeconds: 3600) { lines.append($0) }
        for i in 1...50 { p.update("setup \(i)/50: case") }
        for i in 1...50 { p.update("warm-up \(i)/50: case") }
        for i in 1...200 { p.update("sampling round \(i): 3 of 50 cases still sampling") }
        p.finish()
        XCTAssertEqual(lines, ["[graticule] setup 1/50: case\n", "[graticule] warm-up 1/50: case\n",
                               "[graticule] sampling round 1: 3 of 50 cases still sampling\n"])
    }

    func testLogModeRepeatsAPhaseAfterTheInterval() {
        var lines: [String] = []
        let p = RunProgress(enabled: true, terminal: false, logIntervalSeconds: 0) { lines.append($0) }
        p.update("sampling round 1")
        p.update("sampling round 2")
        XCTAssertEqual(lines.count, 2)
    }

    func testQuietWritesNothing() {
        var lines: [String] = []
        let p = RunProgress(enabled: false, terminal: false) { lines.append($0) }
        p.update("setup 1/1: x")
        p.finish()
        XCTAssertTrue(lines.isEmpty)
    }
}
