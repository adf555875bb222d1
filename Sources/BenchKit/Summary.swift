import Foundation
import GraticuleSupport
/// The table `graticule bench` prints. By default (120 columns): a heading per compared
/// group (benchmark, parameters and dataset, never cut), then one line per implementation
/// with the median time and its interval, throughput, allocations, instructions when
/// counted, and how much faster the reference is. `wide` prints one line per case with
/// every column (ceiling, items/s, bytes/op too).
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
        let speedupHeader = reference + " speedup"
        // Within a group the reference comes first, then the others by name.
        let keys = byCase.keys.sorted { a, b in
            if a.comparisonGroup != b.comparisonGroup { return a < b }
            if (a.implementation == reference) != (b.implementation == reference) { return a.implementation == reference }
            return a.implementation < b.implementation
        }
        var rows: [(key: CaseKey, cells: [String: String])] = []
        for key in keys {
            let m = byCase[key]!
            func med(_ metric: Metric) -> String {
                guard let r = m[metric.rawValue] else { return "" }
                if r.status != .ok { return r.status.isFailure ? r.status.rawValue : "n/a" }
                return r.summary.map { formatMetric($0.median) } ?? ""
            }
            var cells: [String: String] = [:]
            if let t = m[Metric.timeNs.rawValue], t.status == .ok, let s = t.summary {
                cells["median"] = formatDuration(s.median)
                cells["±ci"] = s.median > 0 ? "±" + roundedText(places: 1, (s.ciHigh - s.ciLow) / 2 / s.median * 100) + "%" : ""
            } else if let t = m[Metric.timeNs.rawValue] {
                cells["median"] = t.status.rawValue
            }
            if let q = m[Metric.timeNs.rawValue]?.ratio {
                cells[speedupHeader] = speedupText(q)
            } else if key.implementation == reference, byCase.keys.contains(where: {
                $0.comparisonGroup == key.comparisonGroup && $0.implementation != reference }) {
                cells[speedupHeader] = "(reference)"
            }
            cells["MB/s"] = med(.throughputMBPerS)
            cells["ceiling MB/s"] = ceiling[key.dataset].map(formatMetric) ?? ""
            cells["items/s"] = med(.throughputItemsPerS)
            cells["allocs/op"] = med(.allocCount)
            cells["bytes/op"] = med(.allocBytes)
            cells["instr/op"] = med(.instructions)
            rows.append((key, cells))
        }
        let note = "\(speedupHeader): that line's median time ÷ \(reference)'s, 95% bootstrap interval"
        if wide {
            let header = ["benchmark", "implementation", "dataset", "median", "±ci", "MB/s", "ceiling MB/s",
                          "items/s", "allocs/op", "bytes/op", "instr/op", speedupHeader]
            let body = rows.map { r in
                [r.key.parameters.isEmpty ? r.key.benchmark : "\(r.key.benchmark) [\(r.key.parameters)]",
                 r.key.implementation, r.key.dataset] + header.dropFirst(3).map { r.cells[$0] ?? "" }
            }
            return table(header: header, rows: body) + note + "\n"
        }
        var columns = ["median", "±ci", "MB/s", "allocs/op"]
        if hasInstructions { columns.append("instr/op") }
        columns.append(speedupHeader)
        let header = ["implementation"] + columns
        let body = rows.map { r in ["  " + r.key.implementation] + columns.map { r.cells[$0] ?? "" } }
        var lines = TextTable.render(header: header, rows: body, leftAligned: 1)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Headings before each group's first line (lines 0 and 1 are the header and its rule).
        var out = lines[0] + "\n" + lines[1] + "\n"
        lines.removeFirst(2)
        var group = ""
        for (i, r) in rows.enumerated() {
            if r.key.comparisonGroup != group {
                group = r.key.comparisonGroup
                out += heading(r.key) + "\n"
            }
            out += lines[i] + "\n"
        }
        return out + note + "; --wide: a line per case, every column\n"
    }

    /// A group's heading: `geojson.parse [mode=whole] · generated/points-20k`.
    static func heading(_ k: CaseKey) -> String {
        (k.parameters.isEmpty ? k.benchmark : "\(k.benchmark) [\(k.parameters)]") + " · " + k.dataset
    }

    /// How much faster the reference is than an implementation, from that
    /// implementation's `ratio_to_reference` (its time ÷ the reference's): `3.10× faster
    /// [2.90–3.30]`, or below 1 `0.610× (slower) [0.550–0.660]`.
    public static func speedupText(_ q: MetricResult.Ratio) -> String {
        speedupWords(q.value) + " [" + formatRatio(q.low) + "–" + formatRatio(q.high) + "]"
    }

    /// `3.1× faster`, or below 1 `0.61× (slower)`: a speedup said in words.
    public static func speedupWords(_ value: Double) -> String {
        formatRatio(value) + "×" + (value >= 1 ? " faster" : " (slower)")
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
        if ns >= 1e9 { return roundedText(places: 2, ns / 1e9) + " s" }
        if ns >= 1e6 { return roundedText(places: 2, ns / 1e6) + " ms" }
        if ns >= 1e3 { return roundedText(places: 2, ns / 1e3) + " µs" }
        return roundedText(places: 2, ns) + " ns"
    }
}
