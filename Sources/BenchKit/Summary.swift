import Foundation
import GraticuleSupport
/// The table `graticule bench` prints: one line per case, with the median time and its
/// interval, throughput, allocations and the speedup over the reference implementation.
/// By default it fits 120 columns (names are cut with `…` where needed, and the ceiling,
/// items/s and bytes/op columns are left out); `wide` prints every column in full.
public enum SummaryTable {
    /// The default width of the table, in characters.
    public static let defaultWidth = 120

    public static func render(_ report: RunReport, reference: String, wide: Bool = false) -> String {
        var byCase: [CaseKey: [String: MetricResult]] = [:]
        for r in report.results { byCase[r.key, default: [:]][r.metric] = r }
        var ceiling: [String: Double] = [:]
        for (k, m) in byCase where k.benchmark == "baseline.memscan" {
            if let t = m[Metric.throughputMBPerS.rawValue]?.summary?.median { ceiling[k.dataset] = t }
        }
        let hasInstructions = report.results.contains { $0.metric == Metric.instructions.rawValue && $0.status == .ok }
        let header = ["benchmark", "implementation", "dataset", "median", "±ci", "MB/s", "ceiling MB/s",
                      "items/s", "allocs/op", "bytes/op", "instr/op", "speedup vs " + reference]
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
            var speedup = ""
            if let q = m[Metric.timeNs.rawValue]?.speedup {
                speedup = formatRatio(q.value) + "× [" + formatRatio(q.low) + "–" + formatRatio(q.high) + "]"
            } else if key.implementation == reference, byCase.keys.contains(where: {
                $0.comparisonGroup == key.comparisonGroup && $0.implementation != reference }) {
                speedup = "(reference)"
            }
            let name = key.parameters.isEmpty ? key.benchmark : "\(key.benchmark) [\(key.parameters)]"
            rows.append([name, key.implementation, key.dataset, timeText, ci,
                         med(.throughputMBPerS), ceiling[key.dataset].map(formatMetric) ?? "",
                         med(.throughputItemsPerS), med(.allocCount), med(.allocBytes),
                         med(.instructions), speedup])
        }
        let note = "speedup: \(reference)'s time ÷ this time (above 1 is faster), bootstrap 95% interval in brackets"
        if wide {
            return table(header: header, rows: rows) + note + "\n"
        }
        // The narrow table: name, implementation, dataset, median, ±ci, MB/s, allocs/op,
        // instr/op when counted, speedup.
        var keep = [0, 1, 2, 3, 4, 5, 8]
        if hasInstructions { keep.append(10) }
        keep.append(11)
        let narrowRows = rows.map { r in keep.map { r[$0] } }
        return TextTable.render(header: keep.map { header[$0] }, rows: narrowRows, maxWidth: defaultWidth,
                                shrinkable: [0, 1, 2])
            + note + "; --wide for every column\n"
    }

    /// One line counting the cases by the status of their time: `52 cases: 49 ok,
    /// 2 unchecked, 1 wrong` (statuses in a fixed order, zeros left out).
    public static func statusLine(_ report: RunReport) -> String {
        let times = report.results.filter { $0.metric == Metric.timeNs.rawValue }
        let order: [MetricResult.Status] = [.ok, .unchecked, .wrong, .failed, .crash, .timeout, .unsupported]
        let parts = order.compactMap { st -> String? in
            let n = times.filter { $0.status == st }.count
            return n == 0 ? nil : "\(n) \(st.rawValue)"
        }
        return "\(times.count) case\(times.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
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
