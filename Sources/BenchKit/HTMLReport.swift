import GraticuleSupport
/// A self-contained HTML page for a report: inline SVG bar charts of throughput per
/// benchmark and implementation, ratio charts for comparisons, and the full table. No
/// script, no external resources, so it can be opened offline or attached to CI.
public enum HTMLReport {
    /// An extra table for the page (for example the implementation × suite conformance
    /// table): a title, a header row and body rows.
    public struct Table: Equatable, Sendable {
        public var title: String
        public var note: String
        public var header: [String]
        public var rows: [[String]]
        public init(title: String, note: String = "", header: [String], rows: [[String]]) {
            self.title = title
            self.note = note
            self.header = header
            self.rows = rows
        }
    }

    /// The page for `report`, with a history section when earlier runs are given (oldest
    /// first; the medians of every case across the runs, with a line per case) and extra
    /// tables (the conformance table) after the charts.
    public static func render(_ report: RunReport, history: [RunReport] = [], tables: [Table] = []) -> String {
        var extra = ""
        if !history.isEmpty { extra += historySection(history + [report]) }
        for t in tables {
            extra += "<h2>\(HTML.escape(t.title))</h2>\n"
            if !t.note.isEmpty { extra += "<p>\(HTML.escape(t.note))</p>\n" }
            extra += "<table><tr>" + t.header.map { "<th>\(HTML.escape($0))</th>" }.joined() + "</tr>\n"
            for r in t.rows { extra += "<tr>" + r.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>\n" }
            extra += "</table>\n"
        }
        return render(report, beforeTable: extra)
    }

    /// Runs side by side: the runs' metadata, then for every case measured in more than one
    /// run the time medians per run, the change from the first run, and a line of them.
    static func historySection(_ runs: [RunReport]) -> String {
        var html = "<h2>History across runs</h2>\n<table><tr><th>#</th><th>run</th><th>time</th><th>commit</th><th>cpu</th><th>load</th></tr>\n"
        for (i, r) in runs.enumerated() {
            let m = r.metadata
            html += "<tr>" + ["\(i + 1)", m.runID, m.timestamp, String(m.gitCommit.prefix(10)), "\(m.cpuModel) × \(m.cpuCount)", m.loadAverage]
                .map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</table>\n"
        var keys: [CaseKey] = []
        var medians: [CaseKey: [Double?]] = [:]
        for (i, r) in runs.enumerated() {
            for x in r.results where x.metric == Metric.timeNs.rawValue && x.status == .ok {
                guard let med = x.summary?.median else { continue }
                if medians[x.key] == nil { keys.append(x.key); medians[x.key] = Array(repeating: nil, count: runs.count) }
                medians[x.key]![i] = med
            }
        }
        keys = keys.filter { medians[$0]!.compactMap { $0 }.count > 1 }.sorted()
        guard !keys.isEmpty else { return html + "<p>No case was measured in more than one run.</p>\n" }
        html += "<p>Time medians per run (ns per operation); change is last against first. Runs on different machines differ in more than the code.</p>\n"
        html += "<table><tr><th>benchmark</th><th>implementation</th><th>dataset</th>"
            + (1...runs.count).map { "<th>run \($0)</th>" }.joined() + "<th>change</th><th>trend</th></tr>\n"
        for k in keys {
            let v = medians[k]!
            let present = v.compactMap { $0 }
            let change = present.count > 1 ? (present.last! / present.first! - 1) * 100 : 0
            var cells = [k.benchmark, k.implementation, k.dataset + (k.parameters.isEmpty ? "" : " (\(k.parameters))")]
            cells += v.map { $0.map(formatMetric) ?? "" }
            cells.append((change >= 0 ? "+" : "") + roundedText(places: 2, change) + "%")
            html += "<tr>" + cells.map { "<td>\(HTML.escape($0))</td>" }.joined() + "<td>\(sparkline(v))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// A small SVG polyline of the values (gaps skipped), scaled to its own range.
    static func sparkline(_ values: [Double?]) -> String {
        let w = 120.0, h = 22.0
        let present = values.compactMap { $0 }
        guard let lo = present.min(), let hi = present.max(), values.count > 1 else { return "" }
        let span = hi > lo ? hi - lo : 1
        var pts: [String] = []
        for (i, v) in values.enumerated() {
            guard let v else { continue }
            let x = 4 + Double(i) / Double(values.count - 1) * (w - 8)
            let y = 3 + (1 - (v - lo) / span) * (h - 6)
            pts.append("\(Int(x)),\(Int(y))")
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\"><polyline fill=\"none\" stroke=\"#4a7fb5\" stroke-width=\"1.5\" points=\"\(pts.joined(separator: " "))\"/></svg>"
    }

    public static func render(_ report: RunReport) -> String { render(report, beforeTable: "") }

    /// The page, with `beforeTable` (HTML) placed before the full result table.
    static func render(_ report: RunReport, beforeTable: String) -> String {
        let m = report.metadata
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Graticule benchmark report \(HTML.escape(m.runID))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
        table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
        td:nth-child(-n+3),th{text-align:left}h2{margin-top:2em}.meta td{text-align:left}
        svg text{font-size:12px;font-family:system-ui,sans-serif}
        </style></head><body>
        <h1>Graticule benchmark report</h1>
        <table class="meta">
        """
        let meta: [(String, String)] = [
            ("run", m.runID), ("time", m.timestamp), ("graticule", m.toolVersion.isEmpty ? "not recorded" : m.toolVersion), ("commit", m.gitCommit + (m.gitDirty ? " (dirty)" : "")),
            ("build", m.buildConfiguration), ("toolchain", m.toolchain), ("cpu", "\(m.cpuModel) × \(m.cpuCount)"),
            ("os", "\(m.os), kernel \(m.kernel)"), ("load", m.loadAverage), ("allocator", m.allocator),
        ]
        for (k, v) in meta { html += "<tr><th>\(HTML.escape(k))</th><td>\(HTML.escape(v))</td></tr>\n" }
        html += "</table>\n"

        // Throughput charts, one per benchmark × dataset.
        let tp = report.results.filter { $0.metric == Metric.throughputMBPerS.rawValue && $0.status == .ok }
        let groups = Dictionary(grouping: tp) { "\($0.key.benchmark) — \($0.key.dataset)" + ($0.key.parameters.isEmpty ? "" : " (\($0.key.parameters))") }
        var ceilings: [String: Double] = [:]
        for r in tp where r.key.benchmark == "baseline.memscan" { ceilings[r.key.dataset] = r.summary?.median }
        html += "<h2>Throughput (MB/s, median with 95% interval)</h2>\n"
        for name in groups.keys.sorted() {
            let rows = groups[name]!.sorted { $0.key.implementation < $1.key.implementation }
            let bars = rows.map { r in
                Bar(label: r.key.implementation, value: r.summary!.median,
                    low: r.summary!.ciLow, high: r.summary!.ciHigh)
            }
            let ceiling = rows.first.flatMap { ceilings[$0.key.dataset] }
            html += "<h3>\(HTML.escape(name))</h3>\n" + barChart(bars, unit: "MB/s",
                                                          ceiling: rows.first?.key.benchmark == "baseline.memscan" ? nil : ceiling)
        }

        // Speedup charts: how much faster the reference is than each implementation (its
        // time ÷ the reference's), as the summary table says it; one chart per benchmark and
        // dataset, every bar labelled with its implementation and parameters.
        let compared = report.results.filter { $0.metric == Metric.timeNs.rawValue && $0.status == .ok && $0.ratio != nil }
        if !compared.isEmpty {
            let reference = compared[0].ratio!.reference
            html += "<h2>\(HTML.escape(reference))'s speedup (each implementation's median time ÷ \(HTML.escape(reference))'s; "
                + "above 1: \(HTML.escape(reference)) is faster), with its 95% interval</h2>\n"
            let byGroup = Dictionary(grouping: compared) { "\($0.key.benchmark) — \($0.key.dataset)" }
            for name in byGroup.keys.sorted() {
                let bars = byGroup[name]!.sorted { ($0.key.parameters, $0.key.implementation) < ($1.key.parameters, $1.key.implementation) }.map { r in
                    let q = r.ratio!
                    return Bar(label: r.key.implementation + (r.key.parameters.isEmpty ? "" : " [\(r.key.parameters)]"),
                               value: q.value, low: q.low, high: q.high)
                }
                html += "<h3>\(HTML.escape(name))</h3>\n" + HTML.barChart(bars, unit: "×", ceiling: 1, format: SummaryTable.formatRatio)
            }
        }

        // Table.
        html += beforeTable
        html += "<h2>All results</h2>\n<table><tr>"
        for h in ["benchmark", "implementation", "dataset", "metric", "status", "median", "p25", "p75", "cv", "samples", "speedup", "ratio_to_reference", "detail"] {
            html += "<th>\(h)</th>"
        }
        html += "</tr>\n"
        for r in report.results {
            let s = r.summary
            var cells: [String] = [r.key.benchmark, r.key.implementation, r.key.dataset, r.metric, r.status.rawValue]
            if let s {
                cells += [formatMetric(s.median), formatMetric(s.p25), formatMetric(s.p75),
                          roundedText(places: 2, s.cv * 100) + "%", String(s.count)]
            } else {
                cells += ["", "", "", "", ""]
            }
            cells.append(r.speedup.map { SummaryTable.formatRatio($0.value) + "×" } ?? "")
            cells.append(r.ratio.map { SummaryTable.formatRatio($0.value) } ?? "")
            cells.append(r.detail)
            html += "<tr>" + cells.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</table>\n</body></html>\n"
        return html
    }

    typealias Bar = HTML.Bar

    static func barChart(_ bars: [Bar], unit: String, ceiling: Double?) -> String {
        HTML.barChart(bars, unit: unit, ceiling: ceiling, format: formatMetric)
    }

}
