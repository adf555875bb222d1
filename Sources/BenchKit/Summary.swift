import Foundation
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
                ratio = q.value > 0 ? formatRatio(1 / q.value) + "x [" + formatRatio(1 / q.high) + "–"
                    + formatRatio(1 / q.low) + "]" : ""
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

    /// A ratio readable at any magnitude: three significant digits (`0.0229`, `4.35`,
    /// `15.1`), thousands grouped from 1,000 up (`323,000`), and below 0.001 in exponent
    /// form (`3.1e-06`); never rounded to zero.
    public static func formatRatio(_ x: Double) -> String {
        guard x.isFinite, x > 0 else { return x == 0 ? "0" : "n/a" }
        if x >= 999.5 {
            let digits = String(Int64(x.rounded()))
            var out = ""
            for (i, c) in digits.enumerated() {
                if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
                out.append(c)
            }
            return out
        }
        if x < 0.001 { return String(format: "%.2g", x) }
        return String(format: "%.3g", x)
    }

    /// Nanoseconds as a readable duration.
    public static func formatDuration(_ ns: Double) -> String {
        if ns >= 1e9 { return format2(ns / 1e9) + " s" }
        if ns >= 1e6 { return format2(ns / 1e6) + " ms" }
        if ns >= 1e3 { return format2(ns / 1e3) + " µs" }
        return format2(ns) + " ns"
    }
}
