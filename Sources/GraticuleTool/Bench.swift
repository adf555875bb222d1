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
        sibling .samples.csv, then prints a summary table. Before any case is timed, its \
        result is compared with the reference implementation's (computed untimed when the \
        filter leaves the reference's case out): a different result is wrong and not timed; \
        a result that cannot be compared (no digest on one side) is unchecked, never ok. \
        With --baseline, also gates this run against a committed report.

        Exit status: 0 every selected case measured and checked (and, with --baseline, no \
        gated regression); 1 a selected case is wrong, failed, crash, timeout or unchecked \
        (listed last; --allow-failures reports them and exits 0), or --baseline found a \
        gated regression; 2 bad input or usage (a manifest, a filter that selects nothing, \
        an output that cannot be written, a malformed baseline, a gate that compared nothing \
        or could not compare a gated case).
        """)

    @Flag(help: "Small datasets and short sampling (a few seconds): CI smoke runs, A/A checks.")
    var quick = false

    @Option(help: "Only cases whose id (benchmark|implementation|dataset|parameters) contains one of these comma-separated strings.")
    var filter: String?

    @Flag(help: "List the selected cases and exit.")
    var list = false

    @Option(help: "Report path; the samples go beside it as NAME.samples.csv.")
    var output = Bench.defaultOutput

    static let defaultOutput = "reports/latest.csv"

    @Option(help: "Implementation the others are compared against.")
    var reference = "graticule"

    @Option(help: "Baseline report to gate this run against (exit 1 on regression).")
    var baseline: String?

    @Option(help: "With --baseline: comma-separated implementations whose findings can fail the gate (default: graticule and every candidate in both reports).")
    var gate: String?

    @Option(help: "With --baseline: comma-separated metrics that can fail the gate (default: every metric with a threshold that this run measured).")
    var gateMetrics: String?

    @Flag(help: "Exit 0 even when selected cases are wrong, failed, crash, timeout or unchecked (they are still reported).")
    var allowFailures = false

    @Flag(help: "Keep the run's scratch folder (dataset files for external programs, under $TMPDIR) instead of removing it.")
    var keepScratch = false

    @Flag(help: "Check what each --external manifest requires (its 'requirements' probes) and exit without measuring: 0 when all is there, 2 naming what is missing and the command that installs it. A run checks the same first.")
    var check = false

    @Option(help: "Write a Markdown summary here (for $GITHUB_STEP_SUMMARY): the run's failures, speedups and all cases; with --baseline, the gate's regressions, improvements and all findings.")
    var markdown: String?

    @Flag(help: "Print every column of the summary table (by default it fits 120 columns).")
    var wide = false

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

    @Option(help: "Also decode this one source layer of every tile dataset, as mvt.decode [layer=NAME]; repeatable.")
    var mvtLayer: [String] = []

    @Option(name: .customLong("external"), help: "External implementation manifest (JSON); repeatable.")
    var externals: [String] = []

    @Option(name: .customLong("inject-slowdown"),
            help: ArgumentHelp("Benchmark-only hook: ID_SUBSTRING=FRACTION adds that fraction of extra operations to matching cases (for measuring the gate).", visibility: .hidden))
    var injections: [String] = []

    @Option(name: .customLong("inject-trap"),
            help: ArgumentHelp("Benchmark-only hook: isolated in-process cases whose id contains ID_SUBSTRING trap when first run (for testing the isolation).", visibility: .hidden))
    var trapInjections: [String] = []

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

    @Option(help: ArgumentHelp("Internal: measure the allocations of the cases this request file lists (in a child with jemalloc preloaded).", visibility: .private))
    var allocationChild: String?

    @Option(help: ArgumentHelp("Internal: serve this one in-process case over the external protocol (the isolation child).", visibility: .private))
    var serveCase: String?

    @Option(help: ArgumentHelp("Internal: the dataset path the external protocol passes (the isolation child builds its own).", visibility: .private))
    var dataset: String?

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

    /// Every --external manifest's requirements, probed: prints each implementation's state
    /// with --check; stops the run (exit 2) naming what is missing and how to install it.
    func checkRequirements() {
        var missing: [String] = []
        for path in externals {
            let manifest: ExternalManifest
            do { manifest = try ExternalManifest.load(path: path) } catch { fail("\(error)") }
            let absent = manifest.missingRequirements()
            missing += absent
            if check && absent.isEmpty {
                print("\(manifest.implementation): ready (\(manifest.requirements.map(\.need).joined(separator: ", ")))")
            }
        }
        if !missing.isEmpty { fail(missing.joined(separator: "\ngraticule: ")) }
        if check {
            if externals.isEmpty { fail("--check needs --external MANIFEST") }
            Foundation.exit(0)
        }
    }

    func run() throws {
        if callgrindChild == nil && allocationChild == nil && serveCase == nil { checkRequirements() }
        if let minSamples, minSamples < 1 { fail("--min-samples must be 1 or more, got \(minSamples)") }
        if let minTime, !(minTime.isFinite && minTime >= 0) { fail("--min-time must be 0 or more seconds, got \(minTime)") }
        if let maxTime, !(maxTime.isFinite && maxTime > 0) { fail("--max-time must be a positive number of seconds, got \(maxTime)") }
        if let minTime, let maxTime, minTime > maxTime { fail("--min-time \(minTime) is above --max-time \(maxTime)") }
        if let data {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: data, isDirectory: &isDir), isDir.boolValue else {
                fail(SharedFolders.missingCorpora(data, option: "--data DEST"))
            }
        }
        var config = quick ? RunConfiguration.quick : RunConfiguration()
        config.reference = reference
        config.seed = seed
        config.injectedSlowdown = try parsedInjections()
        if let minSamples { config.minSamples = minSamples }
        if let minTime { config.minSeconds = minTime }
        if let maxTime { config.maxSeconds = maxTime }
        config.showProgress = !quiet

        var suite: BenchmarkSuite
        do { suite = try DefaultSuite.make(quick: quick, externalManifests: externals, dataDirectory: data,
                                                  implementations: GraticuleTool.added, mvtLayers: mvtLayer) } catch {
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
        if let id = serveCase {
            guard let c = suite.cases.first(where: { $0.id.description == id }) else {
                print("error no case with id \(id)")
                throw ExitCode(2)
            }
            let trap = trapInjections.contains { id.contains($0) }
            let code = CaseIsolation.serve(c, trapOnRun: trap, readLine: { Swift.readLine() }) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
            if code != 0 { throw ExitCode(code) }
            return
        }
        if let requests = allocationChild {
            try Runner.serveAllocationRequests(requests, cases: suite.cases, configuration: config) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
            return
        }

        let cases = suite.selected(quick: quick, filter: filter)
        if list {
            for c in cases { print(c.id.description) }
            return
        }
        guard !cases.isEmpty else { fail("no benchmark matches the filter '\(filter ?? "")'") }

        if keepProfiles != nil && !instructions { fail("--keep-profiles needs --instructions") }
        if let keepProfiles {
            // The folder the profiles go to is made here, as the option says.
            do { try FileManager.default.createDirectory(atPath: keepProfiles, withIntermediateDirectories: true) } catch {
                fail("--keep-profiles \(keepProfiles): cannot create the folder: \(error.localizedDescription)")
            }
        }
        makeReportsFolder(if: output == Self.defaultOutput)
        for path in [output, json, gab, markdown, keepProfiles.map { $0 + "/x.callgrind.out" }].compactMap({ $0 }) {
            do { try FileIO.checkWritable(path) } catch { fail("\(error)") }
        }
        if RunEnvironment.buildConfiguration == "debug" {
            printErr("warning: this is a debug build; its timings do not reflect release performance and it cannot be gated")
        }
        if !AllocationCounter.isActiveInThisProcess {
            if AllocationCounter.jemallocLibrary() != nil {
                config.allocationChild = AllocationCounter.Child(
                    executable: Bench.executablePath, arguments: childArguments() + ["--allocation-child"])
            } else {
                printErr("warning: \(AllocationCounter.Failure.noLibrary); allocation metrics are written as unsupported")
            }
        }
        if baseline == nil && (gate != nil || gateMetrics != nil) { fail("--gate and --gate-metrics need --baseline") }
        let gateNames = GateOptions.implementations(gate, all: false)
        let gateMetricNames = GateOptions.metrics(gateMetrics)
        // The baseline is read (and refused when malformed) before anything is measured.
        var base: RunReport?
        if let baseline {
            do { base = try RunReport.read(path: baseline) } catch { fail("\(error)") }
        }
        // The run's scratch folder is this process's own; the measuring children share it.
        // Made before anything runs: a TMPDIR where it cannot be made stops the run here.
        if !ScratchFolder.inherited {
            do { try ScratchFolder.make(config.scratchDirectory) } catch { fail("\(error)") }
        }
        ScratchFolder.handDown()
        defer {
            if keepScratch { printErr("scratch folder kept: \(config.scratchDirectory)") } else { ScratchFolder.removeIfOwned() }
        }
        // Other implementations' in-process cases run in a child each: a trap there is a
        // `crash` verdict, not the end of the run.
        config.isolationChild = CaseIsolation.Child(executable: Bench.executablePath,
                                                    arguments: childArguments() + ["--serve-case"])
        var metadata = RunEnvironment.collect()
        let references = suite.unselectedReferences(for: cases, reference: reference)
        let outcome = Runner(configuration: config).measure(cases, references: references)
        metadata.allocator = outcome.allocators
        var results = outcome.results
        if instructions {
            results += InstructionCounter.measure(cases, results: results, configuration: config,
                                                  executable: Bench.executablePath, childArguments: childArguments(),
                                                  keepProfiles: keepProfiles, progress: RunProgress(enabled: !quiet))
            results = Runner.addingRatios(results.map { var r = $0; r.ratio = nil; return r },
                                          reference: reference)
        }
        let report = RunReport(metadata: metadata, results: results)
        do { try report.write(to: output) } catch { fail("cannot write report: \(error)") }
        do { try BenchExportFiles.write(report, json: json, gab: gab) } catch { fail("\(error)") }
        if let markdown, baseline == nil {
            do { try FileIO.writeText(markdown, BenchmarkExports.markdown(report, reference: reference)) } catch {
                fail("cannot write \(markdown): \(error)")
            }
        }
        if !quiet {
            print(SummaryTable.render(report, reference: reference, wide: wide))
            print(SummaryTable.statusLine(report))
            print("report: \(output) (samples: \(RunReport.samplesPath(for: output)))")
        }
        let failing = results.filter { $0.status.failsRun && $0.metric == "time_ns" }.sorted { $0.key < $1.key }
        if !failing.isEmpty {
            printErr("\(failing.count) of \(cases.count) selected cases failed or were not checked:")
            for f in failing { printErr("  \(f.status.rawValue): \(f.key): \(f.detail)") }
        }
        var exitCode: Int32 = failing.isEmpty || allowFailures ? 0 : 1

        if let baseline, let base {
            guard let selection = Gate.baselineSelection(base: base, head: report, selected: Set(cases.map { $0.id.description }),
                                                          requested: gateMetricNames, instructions: instructions) else {
                fail("no gated metric was measured in this run; the gate against \(baseline) cannot pass")
            }
            for m in selection.unmeasured { printErr("note: \(m) was not measured in this run; it is not gated against \(baseline)") }
            let code = try gateAndPrint(base: selection.base, head: report,
                                        gate: Gate(gatedImplementations: gateNames, gatedMetrics: selection.metrics),
                                        markdown: markdown, verdictsPath: nil, quiet: quiet)
            if code != 0 { exitCode = code == 2 ? 2 : max(exitCode, code) }
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// This executable, as an absolute path (children run it again): the running image
    /// (found through PATH, a relative path or a link alike), not argv[0] read against the
    /// working folder.
    static var executablePath: String {
        if let path = Bundle.main.executablePath, path.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: path) { return path }
        return CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
    }

    /// The arguments that make a child build the same suite as this run.
    func childArguments() -> [String] {
        var args = ["bench", "--quiet"]
        if quick { args.append("--quick") }
        for e in externals { args += ["--external", e] }
        if let data { args += ["--data", data] }
        for l in mvtLayer { args += ["--mvt-layer", l] }
        for j in injections { args += ["--inject-slowdown", j] }
        for t in trapInjections { args += ["--inject-trap", t] }
        return args
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
    let uncomparable = Gate.uncomparable(findings)
    let regressed = findings.contains(where: { $0.verdict == .regressed && $0.gated })
    if !regressed && Gate.compared(findings).isEmpty {
        FileHandle.standardError.write(Data("graticule: \(Gate.nothingComparedMessage(findings))\n".utf8))
    } else if !gate.allowUncomparable && !uncomparable.isEmpty && !regressed {
        FileHandle.standardError.write(Data("graticule: \(Gate.uncomparableMessage(uncomparable))\n".utf8))
    }
    return Gate.exitCode(findings, allowUncomparable: gate.allowUncomparable).rawValue
}
