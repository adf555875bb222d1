import GraticuleSupport
/// Gating: decides, metric by metric, whether HEAD regressed against BASE.
///
/// A time regression needs both a relative change of the median beyond the metric's
/// threshold and a significant Mann–Whitney U test (p below `alpha`) over the two sides'
/// samples; a change beyond the threshold that is not significant is `noisy`. Exact
/// metrics (instructions, allocations) have no noise, so they compare medians directly.
public struct Gate: Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        case regressed, improved, unchanged, noisy, unsupported
    }

    public struct Finding: Equatable, Sendable {
        public var key: CaseKey
        public var metric: String
        public var verdict: Verdict
        public var baseMedian: Double?
        public var headMedian: Double?
        /// (head − base) / base, signed so that positive is worse.
        public var change: Double?
        public var pValue: Double?
        public var threshold: Double?
        public var detail: String
        /// Whether this finding can fail the gate (see `Gate.gatedImplementations`).
        public var gated: Bool = true
        /// The implementation's role (HEAD's, or BASE's for a case absent from HEAD).
        public var role: MetricResult.Role = .project
        /// HEAD's result turned `wrong` (BASE's was not): the verdict is `regressed`, no
        /// median is compared, and `detail` holds the first difference.
        public var headWrong: Bool = false
    }

    /// Exit codes of `graticule compare` and `graticule bench --baseline`.
    public enum ExitCode: Int32 {
        case ok = 0, regression = 1, badInput = 2
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case debugBuild(side: String)
        case noCommonCases
        /// `--gate` names implementations neither report holds.
        case unknownImplementations([String], known: [String])

        public var description: String {
            switch self {
            case .debugBuild(let side):
                return "refusing to gate: the \(side) report comes from a debug build; benchmark a release build (swift build -c release)"
            case .noCommonCases: return "the two reports share no benchmark case"
            case .unknownImplementations(let names, let known):
                return "--gate names \(names.map { "'\($0)'" }.joined(separator: ", ")), which neither report holds "
                    + "(the reports hold \(known.joined(separator: ", ")))"
            }
        }
    }

    /// Relative thresholds per metric name; metrics absent here are not gated.
    public var thresholds: [String: Double]
    /// Significance level of the Mann–Whitney test.
    public var alpha: Double = 0.01
    /// Implementations whose findings can fail the gate, by name; nil gates by role
    /// (`gatedRoles`). By default the project's own code (`graticule`) and every candidate
    /// (an implementation a user brought) are gated: a peer (Foundation, Python, the
    /// adapters the project ships) moving between two runs is not a regression of anyone's
    /// code, and `baseline.*` benchmarks measure the machine, so they are never gated. Their
    /// verdicts are still computed and reported.
    public var gatedImplementations: Set<String>?
    /// With `gatedImplementations` nil: the roles whose findings can fail the gate.
    public var gatedRoles: Set<MetricResult.Role> = [.project, .candidate]
    /// Metrics whose findings can fail the gate; nil gates every metric with a threshold.
    /// The others are compared and reported only (on hosted CI runners, where time moves
    /// with the neighbours: `["instructions", "alloc_count", "alloc_bytes"]`).
    public var gatedMetrics: Set<String>?
    /// Whether gated findings that cannot be compared are let through. By default the
    /// gate fails closed: a gated case and metric whose comparison is impossible (absent
    /// from head, failed or unmeasured on a side, time without samples) is an error, since
    /// a regression could hide there. A case only in head (new) is never one.
    public var allowUncomparable = false

    /// Whether findings of this case can fail the gate.
    public func isGated(_ key: CaseKey, role: MetricResult.Role) -> Bool {
        !key.benchmark.hasPrefix("baseline.")
            && (gatedImplementations.map { $0.contains(key.implementation) } ?? gatedRoles.contains(role))
    }

    /// Whether this finding can fail the gate: its case and its metric are gated.
    public func isGated(_ key: CaseKey, role: MetricResult.Role, metric: String) -> Bool {
        isGated(key, role: role) && (gatedMetrics.map { $0.contains(metric) } ?? true)
    }

    /// `gatedImplementations` names the implementations whose findings can fail the gate
    /// (nil: by role); with it nil, `gatedRoles` says which roles are gated (all three gate
    /// every implementation, peers included).
    public init(thresholds: [String: Double]? = nil, alpha: Double = 0.01,
                gatedImplementations: Set<String>? = nil,
                gatedRoles: Set<MetricResult.Role> = [.project, .candidate], gatedMetrics: Set<String>? = nil,
                allowUncomparable: Bool = false) {
        self.gatedImplementations = gatedImplementations
        self.gatedRoles = gatedRoles
        self.gatedMetrics = gatedMetrics
        self.allowUncomparable = allowUncomparable
        var t: [String: Double] = [:]
        for m in Metric.allCases { if let d = m.defaultThreshold { t[m.rawValue] = d } }
        if let thresholds { for (k, v) in thresholds { t[k] = v } }
        self.thresholds = t
        self.alpha = alpha
    }

    /// Compares two reports.
    ///
    ///   Findings that cannot be compared are `unsupported` with the reason in `detail`;
    ///   `uncomparable(_:)` lists those that fail a closed gate. A case whose HEAD result
    ///   turned `wrong` is `regressed`: a wrong answer is worse than any slowdown. A side
    ///   measured but `unchecked` cannot be compared (its time may be a wrong answer's).
    ///
    /// - Throws: `Failure.debugBuild` when either side is a debug build,
    ///   `Failure.noCommonCases` when nothing can be compared,
    ///   `Failure.unknownImplementations` when `gatedImplementations` names one neither
    ///   report holds.
    public func compare(base: RunReport, head: RunReport) throws -> [Finding] {
        if base.metadata.buildConfiguration != "release" { throw Failure.debugBuild(side: "base") }
        if head.metadata.buildConfiguration != "release" { throw Failure.debugBuild(side: "head") }
        if let names = gatedImplementations {
            let known = Set(base.results.map(\.key.implementation)).union(head.results.map(\.key.implementation))
            let unknown = names.subtracting(known).sorted()
            if !unknown.isEmpty { throw Failure.unknownImplementations(unknown, known: known.sorted()) }
        }
        func index(_ r: RunReport) -> [String: MetricResult] {
            var d: [String: MetricResult] = [:]
            for x in r.results { d[x.key.description + "#" + x.metric] = x }
            return d
        }
        let b = index(base), h = index(head)
        // Cases whose HEAD result is wrong, with the first difference: every metric of such a
        // case is that regression (a metric that was not measured because of it included).
        var wrongInHead: [CaseKey: String] = [:]
        for r in head.results where r.status == .wrong { wrongInHead[r.key] = wrongInHead[r.key] ?? r.detail }
        let keys = Set(b.keys).union(h.keys).filter { k in
            thresholds[String(k.split(separator: "#").last ?? "")] != nil
        }
        guard !Set(b.keys).intersection(h.keys).isEmpty else { throw Failure.noCommonCases }
        var findings: [Finding] = []
        for k in keys {
            let bm = b[k], hm = h[k]
            let any = (bm ?? hm)!
            let metric = any.metric
            let role = (hm ?? bm)!.role
            var f = Finding(key: any.key, metric: metric, verdict: .unsupported, baseMedian: nil,
                            headMedian: nil, change: nil, pValue: nil, threshold: thresholds[metric],
                            detail: "", gated: isGated(any.key, role: role, metric: metric), role: role)
            guard let bm, let hm else {
                f.detail = bm == nil ? "absent from base" : "absent from head"
                findings.append(f); continue
            }
            if let difference = wrongInHead[hm.key], bm.status != .wrong {
                f.verdict = .regressed
                f.headWrong = true
                f.detail = "head: wrong \(hm.status == .wrong ? hm.detail : difference)"
                findings.append(f); continue
            }
            guard bm.status == .ok, hm.status == .ok, let bs = bm.summary, let hs = hm.summary else {
                f.detail = bm.status != .ok ? "base: \(bm.status.rawValue) \(bm.detail)"
                    : "head: \(hm.status.rawValue) \(hm.detail)"
                findings.append(f); continue
            }
            findings.append(judge(f, base: bm, head: hm, baseSummary: bs, headSummary: hs))
        }
        return findings.sorted { ($0.key, $0.metric) < ($1.key, $1.metric) }
    }

    private func judge(_ finding: Finding, base: MetricResult, head: MetricResult,
                       baseSummary bs: SampleSummary, headSummary hs: SampleSummary) -> Finding {
        var f = finding
        let metric = Metric(rawValue: base.metric)
        let lowerIsBetter = metric?.lowerIsBetter ?? true
        let threshold = thresholds[base.metric] ?? 0.05
        f.baseMedian = bs.median
        f.headMedian = hs.median
        let worse: Double
        if bs.median == 0 {
            worse = hs.median == 0 ? 0 : (lowerIsBetter ? .infinity : -.infinity)
        } else {
            let rel = (hs.median - bs.median) / bs.median
            worse = lowerIsBetter ? rel : -rel
        }
        f.change = worse
        if metric?.isExact ?? false {
            f.verdict = worse > threshold ? .regressed : worse < -threshold ? .improved : .unchanged
            f.detail = "exact comparison of medians"
            return f
        }
        guard !base.samples.isEmpty, !head.samples.isEmpty else {
            f.verdict = .unsupported
            f.detail = "no samples to test on the \(base.samples.isEmpty ? "base" : "head") side (its .samples.csv is missing or lacks this case)"
            return f
        }
        let p = Statistics.mannWhitneyP(base.samples, head.samples)
        f.pValue = p
        if abs(worse) <= threshold {
            f.verdict = .unchanged
        } else if p < alpha {
            f.verdict = worse > 0 ? .regressed : .improved
        } else {
            f.verdict = .noisy
            f.detail = "change beyond threshold but not significant"
        }
        return f
    }

    /// The gated findings that could not be compared (a case only in head, a new case, is
    /// not one of them): each one could hide a regression.
    public static func uncomparable(_ findings: [Finding]) -> [Finding] {
        findings.filter { $0.gated && $0.verdict == .unsupported && $0.detail != "absent from base" }
    }

    /// Why a closed gate refuses these findings: a count and the first few with reasons.
    public static func uncomparableMessage(_ findings: [Finding]) -> String {
        var text = "\(findings.count) gated finding\(findings.count == 1 ? "" : "s") cannot be compared, so the gate cannot pass:"
        for f in findings.prefix(5) { text += "\n  \(f.key) \(f.metric): \(f.detail)" }
        if findings.count > 5 { text += "\n  ... and \(findings.count - 5) more" }
        text += "\n(gate only what both runs measured with --gate-metrics, or accept this with --allow-uncomparable)"
        return text
    }

    /// The gated findings that were compared (regressed, improved, unchanged or noisy).
    public static func compared(_ findings: [Finding]) -> [Finding] {
        findings.filter { $0.gated && $0.verdict != .unsupported }
    }

    /// Why a gate that compared nothing cannot pass.
    public static func nothingComparedMessage(_ findings: [Finding]) -> String {
        let gated = findings.filter(\.gated)
        if gated.isEmpty {
            let impls = Set(findings.map(\.key.implementation)).sorted()
            return "the gate compared nothing: no finding is gated (implementations in the reports: "
                + impls.joined(separator: ", ") + "; name one with --gate, or gate peers with --gate-all)"
        }
        return "the gate compared nothing: all \(gated.count) gated findings are unsupported"
    }

    /// The exit code for a set of findings: a gated regression is 1; otherwise 2 when no
    /// gated finding was compared (a gate that compared nothing never passes) or, with a
    /// closed gate (`allowUncomparable` false), when a gated finding cannot be compared.
    public static func exitCode(_ findings: [Finding], allowUncomparable: Bool = false) -> ExitCode {
        if findings.contains(where: { $0.verdict == .regressed && $0.gated }) { return .regression }
        if compared(findings).isEmpty { return .badInput }
        if !allowUncomparable && !uncomparable(findings).isEmpty { return .badInput }
        return .ok
    }

    /// Findings as CSV (`benchmark,implementation,dataset,parameters,metric,verdict,...`).
    public static func csv(_ findings: [Finding]) -> String {
        var out = CSV.record(["benchmark", "implementation", "dataset", "parameters", "metric",
                              "verdict", "base_median", "head_median", "change", "p_value",
                              "threshold", "gated", "detail"])
        for f in findings {
            out += CSV.record([f.key.benchmark, f.key.implementation, f.key.dataset, f.key.parameters,
                               f.metric, f.verdict.rawValue, f.baseMedian.map(CSV.number) ?? "",
                               f.headMedian.map(CSV.number) ?? "", f.change.map(CSV.number) ?? "",
                               f.pValue.map(CSV.number) ?? "", f.threshold.map(CSV.number) ?? "",
                               f.gated ? "true" : "false", f.detail])
        }
        return out
    }

    /// A Markdown summary for CI job pages (`$GITHUB_STEP_SUMMARY`): the gated counts, the
    /// gated regressions, then the gated improvements, then every finding in a collapsed
    /// table (`<details>`), the informational ones (peers, machine baselines, metrics
    /// reported only) marked as not gated.
    /// A run as the report records it: its commit (`abc123def456`, "dirty" when so) and
    /// time, or its run id when no commit was recorded (a run outside a git checkout).
    static func runLabel(_ m: RunMetadata) -> String {
        let known = !m.gitCommit.isEmpty && m.gitCommit != "unknown"
        let what = known ? "`\(m.gitCommit.prefix(12))`" + (m.gitDirty ? " (dirty)" : "")
            : "run `\(m.runID)` (no git commit recorded)"
        return what + " (\(m.timestamp)" + (m.toolVersion.isEmpty ? "" : ", Graticule \(m.toolVersion)") + ")"
    }

    public static func markdown(_ findings: [Finding], base: RunMetadata, head: RunMetadata) -> String {
        var out = "## Graticule benchmark comparison\n\n"
        out += "Base " + runLabel(base) + " → head " + runLabel(head) + "\n\n"
        let gatedNames = Set(findings.filter(\.gated).map(\.key.implementation)).sorted()
        out += "Gated implementations: " + (gatedNames.isEmpty ? "none" : gatedNames.map { "`\($0)`" }.joined(separator: ", ")) + "\n\n"
        let gated = findings.filter(\.gated)
        let counts = Verdict.allCases.map { v in "\(v.rawValue): \(gated.filter { $0.verdict == v }.count)" }
        out += "Gated: " + counts.joined(separator: " · ") + "\n\n"
        func table(_ rows: [Finding], gatedColumn: Bool = false) -> String {
            var t = "| verdict | benchmark | implementation | dataset | metric | base | head | change | p |"
                + (gatedColumn ? " gated |" : "") + "\n"
            t += "|---|---|---|---|---|---:|---:|---:|---:|" + (gatedColumn ? "---|" : "") + "\n"
            for f in rows {
                let change = f.change.map { $0.isFinite ? String(roundedText(places: 2, $0 * 100)) + "%" : "new" } ?? ""
                let name = f.key.parameters.isEmpty ? f.key.benchmark : "\(f.key.benchmark) [\(f.key.parameters)]"
                // An ungated finding is reported, never called a regression of the gate.
                let word = f.headWrong ? "wrong" : f.verdict.rawValue
                let verdict = f.gated ? word : "\(word) (not gated)"
                t += "| \(verdict) | \(cell(name)) | \(cell(f.key.implementation)) | \(cell(f.key.dataset)) | \(f.metric) | \(f.baseMedian.map(formatMetric) ?? "") | \(f.headMedian.map(formatMetric) ?? "") | \(change) | \(f.pValue.map { String(roundedText(places: 4, $0)) } ?? "") |"
                    + (gatedColumn ? (f.gated ? " yes |" : " no |") : "") + "\n"
            }
            return t
        }
        // A wrong result is one line per case with its first difference, not a row of empty
        // medians per metric.
        let wrong = gated.filter(\.headWrong)
        if !wrong.isEmpty {
            var seen = Set<CaseKey>()
            out += "### Wrong results\n\nHEAD's result differs from the reference's, so it was not timed; each is a regression.\n\n"
            out += "| benchmark | implementation | dataset | first difference |\n|---|---|---|---|\n"
            for f in wrong where seen.insert(f.key).inserted {
                let name = f.key.parameters.isEmpty ? f.key.benchmark : "\(f.key.benchmark) [\(f.key.parameters)]"
                let difference = f.detail.hasPrefix("head: wrong ") ? String(f.detail.dropFirst("head: wrong ".count)) : f.detail
                out += "| \(cell(name)) | \(cell(f.key.implementation)) | \(cell(f.key.dataset)) | \(cell(difference)) |\n"
            }
            out += "\n"
        }
        let regressions = gated.filter { $0.verdict == .regressed && !$0.headWrong }
        let improvements = gated.filter { $0.verdict == .improved }
        out += "### Regressions\n\n" + (regressions.isEmpty ? (wrong.isEmpty ? "None beyond the thresholds.\n" : "None beyond the thresholds besides the wrong results above.\n") : table(regressions)) + "\n"
        out += "### Improvements\n\n" + (improvements.isEmpty ? "None beyond the thresholds.\n" : table(improvements)) + "\n"
        let order: [Verdict: Int] = [.regressed: 0, .improved: 1, .noisy: 2, .unsupported: 3, .unchanged: 4]
        let all = findings.sorted { (order[$0.verdict]!, !$0.gated ? 1 : 0) < (order[$1.verdict]!, !$1.gated ? 1 : 0) }
        out += "<details><summary>All \(findings.count) findings (\(gated.count) gated; peers, machine baselines and report-only metrics are not)</summary>\n\n"
        out += table(all, gatedColumn: true) + "\n</details>\n"
        return out
    }
}

/// A Markdown table cell: pipes escaped, line breaks flattened.
func cell(_ s: String) -> String {
    var out = ""
    for c in s {
        switch c {
        case "|": out += "\\|"
        case "\n", "\r": out += " "
        default: out.append(c)
        }
    }
    return out
}


/// Human formatting of a metric value (3 significant digits, SI suffix).
public func formatMetric(_ x: Double) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    let a = abs(x)
    let (v, s): (Double, String) = a >= 1e9 ? (x / 1e9, "G") : a >= 1e6 ? (x / 1e6, "M")
        : a >= 1e3 ? (x / 1e3, "k") : (x, "")
    let digits = abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2
    let p = Double(pow10(digits))
    let rounded = (v * p).rounded() / p
    let text = digits == 0 ? (abs(rounded) < 1e15 ? String(Int64(rounded)) : "\(rounded)") : String(rounded)
    return text + s
}

private func pow10(_ n: Int) -> Int { n == 0 ? 1 : 10 * pow10(n - 1) }
