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
        let dir = NSTemporaryDirectory() + "graticule-exports-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try BenchmarkExports.bencher(report()).write(toFile: dir + "/b.json", atomically: true, encoding: .utf8)
        try BenchmarkExports.githubActionBenchmark(report()).write(toFile: dir + "/g.json", atomically: true, encoding: .utf8)
        try BenchmarkExports.githubActionBenchmark(report(), lowerIsBetter: false).write(toFile: dir + "/g2.json", atomically: true, encoding: .utf8)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
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
