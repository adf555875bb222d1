import GraticuleSupport
/// The table `graticule bench` prints: one line per case, with the median time, the
/// throughputs, allocations, the ceiling set by `baseline.memscan` on the same dataset, and
/// the ratio to the reference implementation.
public enum SummaryTable {
    public static func render(_ report: RunReport, reference: String) -> String {
        var byCase: [CaseKey: [String: MetricResult]] = [:]
        for r in report.results { byCase[r.key, default: [:]][r.metric] = r }
        var ceiling: [String: Double] = [:]
        for (k, m) in byCase where k.benchmark == "baseline.memscan" {
            if let t = m[Metric.throughputMBPerS.rawValue]?.summary?.median { ceiling[k.dataset] = t }
        }
        let header = ["benchmark", "implementation", "dataset", "median", "±ci", "MB/s", "ceiling MB/s",
                      "items/s", "allocs/op", "bytes/op", "instr/op", "vs " + reference]
        var rows: [[String]] = []
        for key in byCase.keys.sorted() {
            let m = byCase[key]!
            func med(_ metric: Metric) -> String {
                guard let r = m[metric.rawValue] else { return "" }
                if r.status != .ok { return r.status.isFailure ? r.status.rawValue : "n/a" }
                return r.summary.map { formatMetric($0.median) } ?? ""
            }
            var timeText = ""
            var ci = ""
            if let t = m[Metric.timeNs.rawValue], t.status == .ok, let s = t.summary {
                timeText = formatDuration(s.median)
                ci = s.median > 0 ? "±" + format1((s.ciHigh - s.ciLow) / 2 / s.median * 100) + "%" : ""
            } else if let t = m[Metric.timeNs.rawValue] {
                timeText = t.status.rawValue
            }
            var ratio = ""
            if let t = m[Metric.timeNs.rawValue], let q = t.ratio {
                // Time ratio inverted: "2.0x faster" reads better than "0.5".
                ratio = q.value > 0 ? format2(1 / q.value) + "x [" + format2(1 / q.high) + "–"
                    + format2(1 / q.low) + "]" : ""
            } else if key.implementation == reference, byCase.keys.contains(where: {
                $0.comparisonGroup == key.comparisonGroup && $0.implementation != reference }) {
                ratio = "(reference)"
            }
            let name = key.parameters.isEmpty ? key.benchmark : "\(key.benchmark) [\(key.parameters)]"
            rows.append([name, key.implementation, key.dataset, timeText, ci,
                         med(.throughputMBPerS), ceiling[key.dataset].map(formatMetric) ?? "",
                         med(.throughputItemsPerS), med(.allocCount), med(.allocBytes),
                         med(.instructions), ratio])
        }
        var out = table(header: header, rows: rows)
        out += "ratio: reference time / this time (higher is faster), bootstrap 95% interval in brackets\n"
        return out
    }

    /// Fixed-width text table.
    static func table(header: [String], rows: [[String]]) -> String {
        TextTable.render(header: header, rows: rows)
    }

    /// Nanoseconds as a readable duration.
    public static func formatDuration(_ ns: Double) -> String {
        if ns >= 1e9 { return format2(ns / 1e9) + " s" }
        if ns >= 1e6 { return format2(ns / 1e6) + " ms" }
        if ns >= 1e3 { return format2(ns / 1e3) + " µs" }
        return format2(ns) + " ns"
    }
}
