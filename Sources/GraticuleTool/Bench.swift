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

    @Option(help: "Corpora folder laid out like ../shared/corpora: adds its real-world tiles (mvt.decode) and GeoJSON files (geojson.parse) as datasets.")
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
            GraticuleTool.exitCheckingOutput(0)
        }
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
