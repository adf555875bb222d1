import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Gate HEAD against BASE: per benchmark and metric, regressed / improved / unchanged / noisy / unsupported.",
        discussion: """
        Exit status: 0 no regression (improvements included), 1 at least one regression, \
        2 bad input or usage, including a report from a debug build, samples from another \
        run, and a gated case that cannot be compared (absent from HEAD, failed or \
        unmeasured on a side, time without samples; --allow-uncomparable lets these pass). Time regresses when \
        its median moves beyond the threshold and a Mann-Whitney U test over both sides' \
        samples gives p < alpha; instructions and allocations compare medians exactly. Only \
        the project's own implementation (--gate, default graticule) can fail the gate; \
        peers and baseline.* benchmarks are reported for information.
        """)

    @Argument(help: "Base report CSV (its .samples.csv must sit beside it).")
    var base: String

    @Argument(help: "Head report CSV.")
    var head: String

    @Option(name: .customLong("threshold"), help: "METRIC=FRACTION, e.g. time_ns=0.05; repeatable.")
    var thresholds: [String] = []

    @Option(help: "Significance level for time metrics.")
    var alpha = 0.01

    @Option(help: "Comma-separated implementations whose findings can fail the gate.")
    var gate = "graticule"

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
        var t: [String: Double] = [:]
        for spec in thresholds {
            let p = spec.split(separator: "=", maxSplits: 1)
            guard p.count == 2, let v = Double(p[1]), v.isFinite, v >= 0 else {
                fail("--threshold takes METRIC=FRACTION, got '\(spec)'")
            }
            t[String(p[0])] = v
        }
        for path in [json, gab, markdown, output].compactMap({ $0 }) {
            do { try FileIO.checkWritable(path) } catch { fail("\(error)") }
        }
        let b: RunReport, h: RunReport
        do {
            b = try RunReport.read(path: base)
            h = try RunReport.read(path: head)
        } catch { fail("\(error)") }
        do { try BenchExportFiles.write(h, json: json, gab: gab) } catch { fail("\(error)") }
        var metrics: Set<String>?
        if let gateMetrics {
            let names = Set(gateMetrics.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
            let known = Set(Metric.allCases.map(\.rawValue))
            if let bad = names.subtracting(known).sorted().first {
                fail("--gate-metrics: unknown metric '\(bad)' (one of \(known.sorted().joined(separator: ", ")))")
            }
            metrics = names
        }
        let code = try gateAndPrint(base: b, head: h, gate: Gate(thresholds: t, alpha: alpha,
                                                               gatedImplementations: gateAll ? nil : Set(gate.split(separator: ",").map(String.init)),
                                                               gatedMetrics: metrics, allowUncomparable: allowUncomparable),
                                    markdown: markdown, verdictsPath: output, quiet: quiet)
        if code != 0 { throw ExitCode(code) }
    }
}

/// The JSON exports `bench` and `compare` write beside their reports.
enum BenchExportFiles {
    /// `gab` gets the smaller-is-better metrics; the throughputs go to
    /// `STEM.bigger-is-better.json` beside it.
    static func write(_ report: RunReport, json: String?, gab: String?) throws {
        if let json { try FileIO.writeText(json, BenchmarkExports.bencher(report)) }
        if let gab {
            try FileIO.writeText(gab, BenchmarkExports.githubActionBenchmark(report, lowerIsBetter: true))
            let stem = gab.hasSuffix(".json") ? String(gab.dropLast(5)) : gab
            try FileIO.writeText(stem + ".bigger-is-better.json", BenchmarkExports.githubActionBenchmark(report, lowerIsBetter: false))
        }
    }
}
