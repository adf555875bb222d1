import XCTest
@testable import BenchKit

/// What a run gates against a baseline: the selected cases' baseline rows, and the metrics
/// it measured; nothing measured is no gate at all.
final class BaselineSelectionTests: XCTestCase {
    func row(_ dataset: String, _ metric: String, _ status: MetricResult.Status = .ok) -> MetricResult {
        MetricResult(key: CaseKey(benchmark: "b", implementation: "graticule", dataset: dataset, parameters: ""),
                     datasetBytes: 1, datasetItems: 1, metric: metric, status: status)
    }

    func report(_ rows: [MetricResult]) -> RunReport { RunReport(metadata: ReportTests.metadata, results: rows) }

    func testOnlySelectedCasesAndMeasuredMetrics() throws {
        let base = report([row("a", "time_ns"), row("b", "time_ns"), row("a", "alloc_count")])
        let head = report([row("a", "time_ns"), row("a", "alloc_count", .unsupported)])
        let a = CaseKey(benchmark: "b", implementation: "graticule", dataset: "a", parameters: "").description
        let s = try XCTUnwrap(Gate.baselineSelection(base: base, head: head, selected: [a],
                                                     requested: ["time_ns", "alloc_count"], instructions: false))
        XCTAssertEqual(Set(s.base.results.map(\.key.dataset)), ["a"], "dataset b was not selected")
        XCTAssertEqual(s.metrics, ["time_ns"])
        XCTAssertEqual(s.unmeasured, ["alloc_count"], "asked for, never measured: said, not gated")
    }

    func testInstructionsOnlyWhenCounted() throws {
        let head = report([row("a", "time_ns"), row("a", "instructions")])
        let s = try XCTUnwrap(Gate.baselineSelection(base: head, head: head, selected: [], requested: nil, instructions: false))
        XCTAssertFalse(s.metrics.contains("instructions"))
        let counted = try XCTUnwrap(Gate.baselineSelection(base: head, head: head, selected: [], requested: ["instructions"], instructions: true))
        XCTAssertEqual(counted.metrics, ["instructions"])
    }

    /// A gate that could compare no metric is no gate: nil, and the caller fails.
    func testNothingMeasuredIsNoGate() {
        let head = report([row("a", "alloc_count", .unsupported)])
        XCTAssertNil(Gate.baselineSelection(base: head, head: head, selected: [], requested: ["alloc_count"], instructions: false))
    }
}
