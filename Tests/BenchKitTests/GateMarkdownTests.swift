import XCTest
@testable import BenchKit

/// The comparison's Markdown: ungated findings are marked as such, and runs without a
/// recorded commit are named by their run id.
final class GateMarkdownTests: XCTestCase {
    func finding(_ implementation: String, gated: Bool, verdict: Gate.Verdict) -> Gate.Finding {
        Gate.Finding(key: CaseKey(benchmark: "geojson.parse", implementation: implementation, dataset: "generated/points-2k",
                                  parameters: "mode=whole"),
                     metric: "time_ns", verdict: verdict, baseMedian: 100, headMedian: 363.5, change: 2.635, pValue: 0.0001,
                     threshold: 0.05, detail: "", gated: gated, role: gated ? .project : .peer)
    }

    func testUngatedFindingsAreMarkedAndRunsWithoutCommitsNamedByRunID() {
        var base = ReportTests.metadata
        base.gitCommit = "unknown"
        base.runID = "r-base"
        var head = ReportTests.metadata
        head.gitCommit = "0123456789abcdef0123"
        head.gitDirty = false
        let md = Gate.markdown([finding("foundation.jsonserialization", gated: false, verdict: .regressed),
                                finding("graticule", gated: true, verdict: .unchanged)], base: base, head: head)
        XCTAssertTrue(md.contains("Base run `r-base` (no git commit recorded) (2026-01-02T03:04:05Z, Graticule 9.8.7) → head `0123456789ab` (2026-01-02T03:04:05Z, Graticule 9.8.7)"), md)
        XCTAssertTrue(md.contains("| regressed (not gated) | geojson.parse [mode=whole] | foundation.jsonserialization |"), md)
        XCTAssertFalse(md.contains("| regressed | "), "an ungated finding is never listed as a regression")
        XCTAssertTrue(md.contains("### Regressions\n\nNone beyond the thresholds."), md)
    }
}

/// The HTML report's speedup charts: every bar names its implementation and parameters,
/// and ratios print with three significant digits as in the table.
final class HTMLSpeedupChartTests: XCTestCase {
    func testBarsAreLabelledAndRatiosReadable() {
        func time(_ impl: String, _ zoom: String, ratio: Double) -> MetricResult {
            var r = MetricResult.measured(CaseKey(benchmark: "tilecover.polygon", implementation: impl, dataset: "geojson/canada",
                                                  parameters: "zoom=" + zoom),
                                          bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [1, 1])
            r.summary = SampleSummary(count: 2, min: 1, p25: 1, median: 1, p75: 1, p90: 1, p99: 1, max: 1, mean: 1,
                                      stddev: 0, cv: 0, ciLow: 1, ciHigh: 1)
            if impl != "graticule" { r.ratio = .init(reference: "graticule", value: ratio, low: ratio * 0.9, high: ratio * 1.1) }
            return r
        }
        let report = RunReport(metadata: ReportTests.metadata,
                               results: [time("graticule", "6", ratio: 1), time("tile-cover.js", "6", ratio: 43.71),
                                         time("graticule", "12", ratio: 1), time("tile-cover.js", "12", ratio: 0.02291)])
        let html = HTMLReport.render(report)
        XCTAssertTrue(html.contains(">tile-cover.js [zoom=6]</text>"), "bars name their parameters")
        XCTAssertTrue(html.contains(">tile-cover.js [zoom=12]</text>"))
        XCTAssertTrue(html.contains(">43.7 ×</text>"))
        XCTAssertTrue(html.contains(">0.0229 ×</text>"), "not 0.02")
        XCTAssertTrue(html.contains("graticule's speedup"))
    }
}
