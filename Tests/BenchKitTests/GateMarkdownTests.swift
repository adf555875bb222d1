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
