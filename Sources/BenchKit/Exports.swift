import Foundation

/// A run's results in the JSON formats that benchmark trackers read.
///
/// Only checked, measured results (`status` ok) are exported; a case that failed, was
/// `wrong`, is unsupported or `unchecked` (measured, its result never compared) has no
/// value a tracker should keep. Case names are the case ids
/// (`benchmark|implementation|dataset|parameters`).
public enum BenchmarkExports {
    /// Bencher Metric Format (BMF): `{ CASE: { METRIC: { value, lower_value, upper_value } } }`,
    /// with the median as `value` and its bootstrap 95% interval as the bounds. Metric names
    /// are the report's (`time_ns`, `alloc_count`, ...), which carry their unit. A case
    /// compared with the reference implementation also gets `speedup`: the reference's time
    /// ÷ this time, with its interval (the report's `speedup` column).
    public static func bencher(_ report: RunReport) -> String {
        var root: [String: [String: [String: Double]]] = [:]
        for r in report.results where r.status == .ok {
            guard let s = r.summary else { continue }
            root[r.key.description, default: [:]][r.metric] = ["value": s.median, "lower_value": s.ciLow, "upper_value": s.ciHigh]
            if let q = r.speedup {
                root[r.key.description, default: [:]]["speedup"] = ["value": q.value, "lower_value": q.low, "upper_value": q.high]
            }
        }
        return json(root)
    }

    /// "Graticule 0.1.0", or "Graticule (version not recorded)" for a run read from an older report.
    static func versionLabel(_ m: RunMetadata) -> String {
        m.toolVersion.isEmpty ? "Graticule (version not recorded)" : "Graticule \(m.toolVersion)"
    }

    /// github-action-benchmark's custom format: `[{name, unit, value, range, extra}]`, one
    /// entry per case and metric. The action takes one direction per file, so `lowerIsBetter`
    /// selects the metrics written: true gives the smaller-is-better ones (time, allocations,
    /// memory, instructions; tool `customSmallerIsBetter`), false the throughputs
    /// (`customBiggerIsBetter`), with each compared case's `speedup` over the reference.
    public static func githubActionBenchmark(_ report: RunReport, lowerIsBetter: Bool = true) -> String {
        var entries: [[String: Any]] = []
        for r in report.results where r.status == .ok && !lowerIsBetter {
            guard let q = r.speedup else { continue }
            entries.append([
                "name": "\(r.key.description) speedup",
                "unit": "x",
                "value": q.value,
                "range": "\(format(q.low))..\(format(q.high))",
                "extra": "\(q.reference) time ÷ this time, 95% interval \(format(q.low))..\(format(q.high)); run \(report.metadata.runID), \(report.metadata.gitCommit), \(versionLabel(report.metadata))",
            ])
        }
        for r in report.results where r.status == .ok {
            guard let s = r.summary, let metric = Metric(rawValue: r.metric), metric.lowerIsBetter == lowerIsBetter else { continue }
            entries.append([
                "name": "\(r.key.description) \(r.metric)",
                "unit": unit(metric),
                "value": s.median,
                "range": "\(format(s.ciLow))..\(format(s.ciHigh))",
                "extra": "median of \(s.count) samples, 95% interval \(format(s.ciLow))..\(format(s.ciHigh)); run \(report.metadata.runID), \(report.metadata.gitCommit), \(versionLabel(report.metadata))",
            ])
        }
        return json(entries)
    }

    /// A Markdown summary of one run, for `$GITHUB_STEP_SUMMARY`: what ran where, the cases
    /// that failed (wrong results, crashes, timeouts) first, then every case compared with
    /// the reference (its speedup with the interval), then all cases in a collapsed table.
    public static func markdown(_ report: RunReport, reference: String) -> String {
        let m = report.metadata
        var out = "## Graticule benchmark run\n\n"
        out += "\(versionLabel(m)), commit `\(m.gitCommit.prefix(12))`\(m.gitDirty ? " (dirty)" : "") at \(m.timestamp), \(m.buildConfiguration) build, "
        out += "\(cell(m.cpuModel)) × \(m.cpuCount), \(cell(m.allocator)).\n\n"
        var byCase: [CaseKey: [String: MetricResult]] = [:]
        for r in report.results { byCase[r.key, default: [:]][r.metric] = r }
        let keys = byCase.keys.sorted()
        func name(_ k: CaseKey) -> String { cell(k.parameters.isEmpty ? k.benchmark : "\(k.benchmark) [\(k.parameters)]") }

        let failed = keys.compactMap { k -> (CaseKey, MetricResult)? in
            guard let t = byCase[k]?[Metric.timeNs.rawValue], t.status.failsRun else { return nil }
            return (k, t)
        }
        let unchecked = failed.filter { $0.1.status == .unchecked }.count
        out += "\(SummaryTable.statusLine(report)). \(failed.count - unchecked) without a valid measurement, "
            + "\(unchecked) measured but not checked against the reference.\n\n"
        if !failed.isEmpty {
            out += "### Failed or not checked\n\n| status | benchmark | implementation | dataset | detail |\n|---|---|---|---|---|\n"
            for (k, t) in failed {
                out += "| \(t.status.rawValue) | \(name(k)) | \(cell(k.implementation)) | \(cell(k.dataset)) | \(cell(t.detail)) |\n"
            }
            out += "\n"
        }
        let compared = keys.compactMap { k -> (CaseKey, MetricResult.Ratio, Double)? in
            guard let t = byCase[k]?[Metric.timeNs.rawValue], t.speedup != nil, let q = t.ratio, let med = t.summary?.median else { return nil }
            return (k, q, med)
        }
        if !compared.isEmpty {
            // Said as the summary table says it: how much faster the reference is.
            out += "### \(cell(reference))'s speedup\n\n"
            out += "Each implementation's median time ÷ \(cell(reference))'s: above 1, \(cell(reference)) is faster; bootstrap 95% interval.\n\n"
            out += "| benchmark | dataset | implementation | median | \(cell(reference)) speedup | 95% interval |\n|---|---|---|---:|---:|---|\n"
            for (k, q, med) in compared {
                out += "| \(name(k)) | \(cell(k.dataset)) | \(cell(k.implementation)) | \(SummaryTable.formatDuration(med)) | "
                out += "\(SummaryTable.speedupWords(q.value)) | \(SummaryTable.formatRatio(q.low))–\(SummaryTable.formatRatio(q.high)) |\n"
            }
            out += "\n"
        }
        out += "<details><summary>All \(keys.count) cases</summary>\n\n"
        out += "| benchmark | implementation | dataset | median | 95% interval | MB/s | allocs/op | instr/op | status |\n"
        out += "|---|---|---|---:|---|---:|---:|---:|---|\n"
        for k in keys {
            let c = byCase[k]!
            func med(_ metric: Metric) -> String {
                guard let r = c[metric.rawValue], r.status == .ok, let s = r.summary else { return "" }
                return formatMetric(s.median)
            }
            let t = c[Metric.timeNs.rawValue]
            let time = t?.summary.map { SummaryTable.formatDuration($0.median) } ?? ""
            let ci = t?.summary.map { SummaryTable.formatDuration($0.ciLow) + "–" + SummaryTable.formatDuration($0.ciHigh) } ?? ""
            out += "| \(name(k)) | \(cell(k.implementation)) | \(cell(k.dataset)) | \(time) | \(ci) | \(med(.throughputMBPerS)) | "
            out += "\(med(.allocCount)) | \(med(.instructions)) | \(t?.status.rawValue ?? "") |\n"
        }
        out += "\n</details>\n"
        return out
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
