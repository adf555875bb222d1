import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import Workloads

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the benchmark suite and write a CSV report.",
        discussion: """
        Writes the report (one row per case × metric) to --output and the raw samples to the \
        sibling .samples.csv, then prints a summary table. With --baseline, also gates this \
        run against a committed report (exit 1 on regression).
        """)

    @Flag(help: "Small datasets and short sampling (a few seconds): CI smoke runs, A/A checks.")
    var quick = false

    @Option(help: "Only cases whose id (benchmark|implementation|dataset|parameters) contains one of these comma-separated strings.")
    var filter: String?

    @Flag(help: "List the selected cases and exit.")
    var list = false

    @Option(help: "Report path; the samples go beside it as NAME.samples.csv.")
    var output = "reports/latest.csv"

    @Option(help: "Implementation the others are compared against.")
    var reference = "graticule"

    @Option(help: "Baseline report to gate this run against (exit 1 on regression).")
    var baseline: String?

    @Option(help: "Write the gate's Markdown summary here (with --baseline).")
    var markdown: String?

    @Option(help: "Also write the results in Bencher's metric format (BMF JSON) here.")
    var json: String?

    @Option(help: "Also write the results in github-action-benchmark's custom format here (smaller-is-better metrics; the throughputs go to NAME.bigger-is-better.json).")
    var gab: String?

    @Flag(help: "Also count instructions per operation under valgrind's callgrind.")
    var instructions = false

    @Option(help: "With --instructions: keep one callgrind profile per case in this folder (CASE-ID.callgrind.out, the measured region of the larger run; read it with callgrind_annotate).")
    var keepProfiles: String?

    @Option(help: "Corpora folder laid out like ../shared/corpora: adds its real-world tiles (mvt.decode) and GeoJSON files (json.parse) as datasets.")
    var data: String?

    @Option(name: .customLong("external"), help: "External implementation manifest (JSON); repeatable.")
    var externals: [String] = []

    @Option(name: .customLong("inject-slowdown"),
            help: ArgumentHelp("Benchmark-only hook: ID_SUBSTRING=FRACTION adds that fraction of extra operations to matching cases (for measuring the gate).", visibility: .hidden))
    var injections: [String] = []

    @Option(help: "Seed of the interleaving order.")
    var seed: UInt64 = 0x6752_6174_6963_756C

    @Option(help: "Override the minimum samples per case.")
    var minSamples: Int?

    @Option(help: "Override the minimum measured seconds per case.")
    var minTime: Double?

    @Option(help: "Override the maximum measured seconds per case.")
    var maxTime: Double?

    @Flag(help: "No progress line and no summary table.")
    var quiet = false

    @Option(help: ArgumentHelp("Internal: run one case inside the counted region (under callgrind).", visibility: .private))
    var callgrindChild: String?

    @Option(help: ArgumentHelp("Internal: iterations for --callgrind-child.", visibility: .private))
    var callgrindIterations: Int = 1

    func parsedInjections() throws -> [String: Double] {
        var d: [String: Double] = [:]
        for spec in injections {
            let parts = spec.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let v = Double(parts[1]), v >= 0 else {
                throw ValidationError("--inject-slowdown takes ID_SUBSTRING=FRACTION, got '\(spec)'")
            }
            d[String(parts[0])] = v
        }
        return d
    }

    func run() throws {
        var config = quick ? RunConfiguration.quick : RunConfiguration()
        config.reference = reference
        config.seed = seed
        config.injectedSlowdown = try parsedInjections()
        if let minSamples { config.minSamples = minSamples }
        if let minTime { config.minSeconds = minTime }
        if let maxTime { config.maxSeconds = maxTime }
        config.showProgress = !quiet

        let suite: BenchmarkSuite
        do { suite = try DefaultSuite.make(quick: quick, externalManifests: externals, dataDirectory: data,
                                                  implementations: GraticuleTool.added) } catch {
            fail("\(error)")
        }

        if let id = callgrindChild {
            guard let c = suite.cases.first(where: { $0.id.description == id }) else {
                fail("no case with id \(id)")
            }
            try Runner.runForInstructionCount(c, iterations: callgrindIterations,
                                              slowdown: config.slowdown(for: c.id))
            return
        }

        let cases = suite.selected(quick: quick, filter: filter)
        if list {
            for c in cases { print(c.id.description) }
            return
        }
        guard !cases.isEmpty else { fail("no benchmark matches the filter '\(filter ?? "")'") }

        if keepProfiles != nil && !instructions { fail("--keep-profiles needs --instructions") }
        for path in [output, json, gab, markdown, keepProfiles.map { $0 + "/x.callgrind.out" }].compactMap({ $0 }) {
            do { try FileIO.checkWritable(path) } catch { fail("\(error)") }
        }
        if RunEnvironment.buildConfiguration == "debug" {
            printErr("warning: this is a debug build; its timings do not reflect release performance and it cannot be gated")
        }
        if !RunEnvironment.allocationCountersActive {
            printErr("warning: malloc is not jemalloc here; allocation metrics are written as unsupported")
        }
        let metadata = RunEnvironment.collect()
        var results = Runner(configuration: config).run(cases)
        if instructions {
            results += countInstructions(cases, results: results, config: config)
            results = Runner.addingRatios(results.map { var r = $0; r.ratio = nil; return r },
                                          reference: reference)
        }
        let report = RunReport(metadata: metadata, results: results)
        do { try report.write(to: output) } catch { fail("cannot write report: \(error)") }
        do { try BenchExportFiles.write(report, json: json, gab: gab) } catch { fail("\(error)") }
        if !quiet {
            print(SummaryTable.render(report, reference: reference))
            print("report: \(output) (samples: \(RunReport.samplesPath(for: output)))")
        }
        let failed = results.filter { $0.status.isFailure && $0.metric == "time_ns" }
        for f in failed { printErr("\(f.status.rawValue): \(f.key): \(f.detail)") }

        if let baseline {
            let base: RunReport
            do { base = try RunReport.read(path: baseline) } catch { fail("\(error)") }
            let code = try gateAndPrint(base: base, head: report, gate: Gate(gatedImplementations: [reference]), markdown: markdown,
                                        verdictsPath: nil, quiet: quiet)
            if code != 0 { throw ExitCode(code) }
        }
    }

    /// Runs each in-process case twice under callgrind and records instructions per op.
    func countInstructions(_ cases: [BenchmarkCase], results: [MetricResult], config: RunConfiguration)
        -> [MetricResult]
    {
        let exe = CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        let valgrind = InstructionCounter.valgrindAvailable
        var out: [MetricResult] = []
        for (i, c) in cases.enumerated() {
            let key = c.id
            let timing = results.first { $0.key == key && $0.metric == "time_ns" }
            let bytes = timing?.datasetBytes ?? 0, items = timing?.datasetItems ?? 0
            func unsupported(_ why: String) -> MetricResult {
                MetricResult(key: key, datasetBytes: bytes, datasetItems: items,
                             metric: Metric.instructions.rawValue, status: .unsupported, detail: why)
            }
            guard valgrind else { out.append(unsupported("valgrind is not installed")); continue }
            guard case .inProcess = c.body else {
                out.append(unsupported("external program: instructions are counted in-process only"))
                continue
            }
            guard let t = timing, t.status == .ok, let median = t.summary?.median else {
                out.append(unsupported("case did not run")); continue
            }
            if !quiet { printErr("[graticule] instructions \(i + 1)/\(cases.count): \(key)") }
            // Enough operations for ≈ 10 ms of native time (callgrind runs ~50x slower).
            var k = max(2, min(1000, Int(1e7 / max(median, 1))))
            // With the slowdown hook, 100 counted operations make the injected fraction exact
            // (floor(101 × s) − floor(1 × s) = 100 × s for s in hundredths below 1).
            if config.slowdown(for: key) > 0 { k = max(k, 100) }
            var args = ["bench", "--callgrind-child", key.description, "--quiet"]
            if quick { args.append("--quick") }
            for e in externals { args += ["--external", e] }
            if let data { args += ["--data", data] }
            for j in injections { args += ["--inject-slowdown", j] }
            do {
                var keep: String?
                if let keepProfiles {
                    try? FileManager.default.createDirectory(atPath: keepProfiles, withIntermediateDirectories: true)
                    let name = key.description.map { $0.isLetter || $0.isNumber || "._=-".contains($0) ? $0 : "_" }
                    keep = keepProfiles + "/" + String(name) + ".callgrind.out"
                }
                let perOp = try InstructionCounter.perOperation(
                    executable: exe, small: 1, large: 1 + k, scratch: config.scratchDirectory, keepProfile: keep
                ) { n in args + ["--callgrind-iterations", String(n)] }
                out.append(.measured(key, bytes: bytes, items: items, metric: .instructions,
                                     iterations: k, samples: [perOp]))
            } catch {
                out.append(MetricResult(key: key, datasetBytes: bytes, datasetItems: items,
                                        metric: Metric.instructions.rawValue, status: .failed,
                                        detail: "\(error)"))
            }
        }
        return out
    }
}

/// Compares, prints the findings and writes the optional outputs; returns the exit code.
func gateAndPrint(base: RunReport, head: RunReport, gate: Gate, markdown: String?,
                  verdictsPath: String?, quiet: Bool) throws -> Int32 {
    let findings: [Gate.Finding]
    do { findings = try gate.compare(base: base, head: head) } catch { fail("\(error)") }
    let md = Gate.markdown(findings, base: base.metadata, head: head.metadata)
    if let markdown {
        do { try FileIO.writeText(markdown, md) } catch { fail("cannot write \(markdown): \(error)") }
    }
    if let verdictsPath {
        do { try FileIO.writeText(verdictsPath, Gate.csv(findings)) } catch { fail("cannot write \(verdictsPath): \(error)") }
    }
    if !quiet { print(md) }
    return Gate.exitCode(findings).rawValue
}
