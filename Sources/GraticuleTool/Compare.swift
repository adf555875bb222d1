import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Gate HEAD against BASE: per benchmark and metric, regressed / improved / unchanged / noisy / unsupported.",
        discussion: """
        Gated by default: graticule and every candidate (an implementation you registered in \
        process or through your own manifest) present in the reports; --gate NAME,... narrows \
        it to those names, --gate-all adds the peers. Peers (Foundation, swift-protobuf, the \
        adapters in Benchmarks/Adapters) and baseline.* benchmarks are reported, not gated. \
        Time regresses when its median moves beyond the threshold and a Mann-Whitney U test \
        over both sides' samples gives p < alpha; instructions and allocations compare \
        medians exactly; a case whose HEAD result is wrong is a regression.

        Exit status: 0 the gate compared at least one gated finding and none regressed; \
        1 a gated finding regressed (HEAD wrong included); 2 bad input or usage: a report \
        that is missing, malformed or holds an impossible value (non-finite, zero or \
        negative time, duplicate rows), a debug build, samples from another run, --gate \
        naming no implementation of the reports, an empty --gate-metrics, an unknown \
        --threshold metric, a gate that compared nothing, and a gated case that cannot be \
        compared (absent from HEAD, failed, unchecked or unmeasured on a side, time without \
        samples; --allow-uncomparable lets these pass).
        """)

    @Argument(help: "Base report CSV (its .samples.csv must sit beside it).")
    var base: String

    @Argument(help: "Head report CSV.")
    var head: String

    @Option(name: .customLong("threshold"), help: "METRIC=FRACTION, e.g. time_ns=0.05; repeatable.")
    var thresholds: [String] = []

    @Option(help: "Significance level for time metrics.")
    var alpha = 0.01

    @Option(help: "Comma-separated implementations whose findings can fail the gate (default: graticule and every candidate in the reports).")
    var gate: String?

    @Flag(help: "Gate every implementation, peers included.")
    var gateAll = false

    @Option(help: "Comma-separated metrics that can fail the gate (default: every metric with a threshold); the others are reported only. On hosted CI runners: instructions,alloc_count,alloc_bytes.")
    var gateMetrics: String?

    @Option(help: "Write the findings as CSV here.")
    var output: String?

    @Option(help: "Write the Markdown summary here (for CI job summaries).")
    var markdown: String?

    @Option(help: "Also write HEAD's results in Bencher's metric format (BMF JSON) here.")
    var json: String?

    @Option(help: "Also write HEAD's results in github-action-benchmark's custom format here (throughputs go to NAME.bigger-is-better.json).")
    var gab: String?

    @Flag(help: "Let gated findings that cannot be compared pass (by default they exit 2: the gate fails closed).")
    var allowUncomparable = false

    @Flag(help: "Print nothing; only the exit status speaks.")
    var quiet = false

    func run() throws {
        guard alpha > 0 && alpha < 1 else { fail("--alpha must be between 0 and 1, got \(alpha)") }
        let t = GateOptions.thresholds(thresholds)
        let metrics = GateOptions.metrics(gateMetrics)
        let names = GateOptions.implementations(gate, all: gateAll)
        for path in [json, gab, markdown, output].compactMap({ $0 }) {
            do { try FileIO.checkWritable(path) } catch { fail("\(error)") }
        }
        let b: RunReport, h: RunReport
        do {
            b = try RunReport.read(path: base)
            h = try RunReport.read(path: head)
        } catch { fail("\(error)") }
        let gate = Gate(thresholds: t, alpha: alpha, gatedImplementations: names,
                        gatedRoles: gateAll ? Set(MetricResult.Role.allCases) : [.project, .candidate],
                        gatedMetrics: metrics, allowUncomparable: allowUncomparable)
        let result = GateRun(base: b, head: h, gate: gate)
        // Every output at once: the exports, --markdown and --output, all or none.
        writeOutputs(BenchExportFiles.files(h, json: json, gab: gab) + result.files(markdown: markdown, verdicts: output))
        let code = result.finish(quiet: quiet)
        if code != 0 { throw ExitCode(code) }
    }
}

/// The gate options `compare` and `bench --baseline` share, checked (exit 2 on anything
/// that would make the gate gate less than was asked).
enum GateOptions {
    /// `--threshold METRIC=FRACTION` values: a known metric, a finite fraction of 0 or more.
    static func thresholds(_ specs: [String]) -> [String: Double] {
        var t: [String: Double] = [:]
        let known = Set(Metric.allCases.map(\.rawValue))
        for spec in specs {
            let p = spec.split(separator: "=", maxSplits: 1)
            guard p.count == 2, let v = Double(p[1]), v.isFinite, v >= 0 else {
                fail("--threshold takes METRIC=FRACTION, got '\(spec)'")
            }
            guard known.contains(String(p[0])) else {
                fail("--threshold: unknown metric '\(p[0])' (one of \(known.sorted().joined(separator: ", ")))")
            }
            t[String(p[0])] = v
        }
        return t
    }

    /// `--gate-metrics`: nil when not given; never empty; known metrics only.
    static func metrics(_ list: String?) -> Set<String>? {
        guard let list else { return nil }
        let names = Set(list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let known = Set(Metric.allCases.map(\.rawValue))
        guard !names.isEmpty else { fail("--gate-metrics is empty: a gate that gates no metric cannot pass (one or more of \(known.sorted().joined(separator: ", ")))") }
        if let bad = names.subtracting(known).sorted().first {
            fail("--gate-metrics: unknown metric '\(bad)' (one of \(known.sorted().joined(separator: ", ")))")
        }
        return names
    }

    /// `--gate NAME,...`: nil (by role) when not given; never empty.
    static func implementations(_ list: String?, all: Bool) -> Set<String>? {
        guard let list else { return nil }
        if all { fail("give --gate or --gate-all, not both") }
        let names = Set(list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        guard !names.isEmpty else { fail("--gate is empty: name one implementation or more") }
        return names
    }
}

/// The JSON exports `bench` and `compare` write beside their reports.
enum BenchExportFiles {
    /// `gab` gets the smaller-is-better metrics; the throughputs go to
    /// `STEM.bigger-is-better.json` beside it.
    static func files(_ report: RunReport, json: String?, gab: String?) -> [(path: String, bytes: [UInt8])] {
        var out: [(path: String, bytes: [UInt8])] = []
        if let json { out.append((json, Array(BenchmarkExports.bencher(report).utf8))) }
        if let gab {
            out.append((gab, Array(BenchmarkExports.githubActionBenchmark(report, lowerIsBetter: true).utf8)))
            let stem = gab.hasSuffix(".json") ? String(gab.dropLast(5)) : gab
            out.append((stem + ".bigger-is-better.json", Array(BenchmarkExports.githubActionBenchmark(report, lowerIsBetter: false).utf8)))
        }
        return out
    }
}
