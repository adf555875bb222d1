import Foundation

/// A run's results in the JSON formats that benchmark trackers read.
///
/// Only measured results (`status` ok) are exported; a case that failed, was `wrong` or is
/// unsupported has no value to give. Case names are the case ids
/// (`benchmark|implementation|dataset|parameters`).
public enum BenchmarkExports {
    /// Bencher Metric Format (BMF): `{ CASE: { METRIC: { value, lower_value, upper_value } } }`,
    /// with the median as `value` and its bootstrap 95% interval as the bounds. Metric names
    /// are the report's (`time_ns`, `alloc_count`, ...), which carry their unit.
    public static func bencher(_ report: RunReport) -> String {
        var root: [String: [String: [String: Double]]] = [:]
        for r in report.results where r.status == .ok {
            guard let s = r.summary else { continue }
            root[r.key.description, default: [:]][r.metric] = ["value": s.median, "lower_value": s.ciLow, "upper_value": s.ciHigh]
        }
        return json(root)
    }

    /// github-action-benchmark's custom format: `[{name, unit, value, range, extra}]`, one
    /// entry per case and metric. The action takes one direction per file, so `lowerIsBetter`
    /// selects the metrics written: true gives the smaller-is-better ones (time, allocations,
    /// memory, instructions; tool `customSmallerIsBetter`), false the throughputs
    /// (`customBiggerIsBetter`).
    public static func githubActionBenchmark(_ report: RunReport, lowerIsBetter: Bool = true) -> String {
        var entries: [[String: Any]] = []
        for r in report.results where r.status == .ok {
            guard let s = r.summary, let metric = Metric(rawValue: r.metric), metric.lowerIsBetter == lowerIsBetter else { continue }
            entries.append([
                "name": "\(r.key.description) \(r.metric)",
                "unit": unit(metric),
                "value": s.median,
                "range": "\(format(s.ciLow))..\(format(s.ciHigh))",
                "extra": "median of \(s.count) samples, 95% interval \(format(s.ciLow))..\(format(s.ciHigh)); run \(report.metadata.runID), \(report.metadata.gitCommit)",
            ])
        }
        return json(entries)
    }

    static func unit(_ m: Metric) -> String {
        switch m {
        case .timeNs: return "ns"
        case .throughputMBPerS: return "MB/s"
        case .throughputItemsPerS: return "items/s"
        case .allocCount: return "allocations"
        case .allocBytes, .peakHeapBytes, .peakResidentBytes: return "bytes"
        case .instructions: return "instructions"
        }
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(format: "%.6g", v)
    }

    static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
