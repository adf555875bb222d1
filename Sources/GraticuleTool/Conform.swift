import GraticuleSupport
import ArgumentParser
import BenchKit
import Conformance
import Foundation

struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run conformance suites against implementations; write CSV verdicts, a per-rule summary and an implementation × suite table.",
        discussion: """
        With no --suite, every registered suite whose fixtures are present is run (shared suites \
        from --corpora, the project's own from corpora/conformance). Besides --output (the verdicts), \
        two files are written next to it: NAME.rules.csv (every rule of the catalogue with the cases \
        that exercise it; rules with no case are listed on the terminal too) and NAME.matrix.csv \
        (implementation × suite pass counts, which `graticule report --conformance` renders).
        Exit status: 0 when every case of the implementations named with --implementation passes \
        (graticule by default; an external program is gated when --implementation names it too; \
        implementations reached only through `all` or --external are compared, not gated) or \
        fails as --expected lists, 1 when a case fails that the file does not list or when an \
        external program given with --external never starts (no `ready`), 2 bad usage, \
        an unreadable manifest or expected-failures file, or unreadable fixtures. \
        An external program that crashes or hangs on a case (--timeout) gets `crash` or `timeout` \
        for that case and is started again for the next.
        """)

    @Option(help: "Suite name (\(ConformanceRegistry.names.joined(separator: ", "))); all present suites when omitted.")
    var suite: String?

    @Option(help: "Directory holding the suite's fixtures (with --suite; default: its registered folder).")
    var path: String?

    @Option(help: "Shared corpora directory for the default suite folders (default: $GRATICULE_CORPORA, else ../shared/corpora from here, else beside Graticule's checkout).")
    var corpora: String?

    @Option(help: "In-process implementation to run (repeatable); `all` runs every one each suite has.")
    var implementation: [String] = []

    @Option(help: "External implementation manifest (repeatable; Benchmarks/Adapters/conform-*.json).")
    var external: [String] = []

    @Option(help: "Expected failures: one SUITE/CASE-ID per line, a tab, the reason; [IMPLEMENTATION] lines scope the lines after them. Only failures not listed fail the run; listed cases that pass are reported.")
    var expected: String?

    @Option(help: "Seconds an external program may take on one case (default: the manifest's, else \(Int(ExternalConformanceManifest.defaultTimeout))).")
    var timeout: Double?

    @Option(help: "Rule catalogue (default: the one shipped with Graticule, corpora/conformance/rules.tsv).")
    var rules: String?

    @Option(help: "Verdict CSV path (the rule summary and the table go beside it).")
    var output = Conform.defaultOutput

    static let defaultOutput = "reports/conformance.csv"

    @Option(help: "Also write the verdicts as JUnit XML here (one testsuite per suite and implementation).")
    var junit: String?

    @Option(help: "Also write a Markdown summary here (the table, then the failing cases), e.g. $GITHUB_STEP_SUMMARY.")
    var markdown: String?

    @Flag(help: "Print only the totals.")
    var quiet = false

    @Option(help: ArgumentHelp("Internal: serve this in-process implementation of --suite over the conformance protocol (the isolation child).", visibility: .private))
    var serveImplementation: String?

    func run() throws {
        if let name = serveImplementation {
            guard let suite, let entry = ConformanceRegistry.entry(named: suite),
                  let make = (entry.implementations + Self.extraImplementations(suite: suite)).first(where: { $0.0 == name })?.1 else {
                print("error no in-process implementation '\(name)' for suite '\(suite ?? "")'")
                throw ExitCode(2)
            }
            let code = ConformanceIsolation.serve(make(), readLine: { Swift.readLine() }) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
            if code != 0 { throw ExitCode(code) }
            return
        }
        if let timeout, !(timeout.isFinite && timeout > 0) { fail("--timeout must be a positive number of seconds, got \(timeout)") }
        let catalogue: [SpecRule]
        do { catalogue = try RuleCatalog.load(path: rules ?? RuleCatalog.defaultPath) } catch { fail("\(error)") }
        let rulesPath = rules ?? "Graticule's catalogue"
        let corpora = self.corpora ?? SharedFolders.corpora()

        makeReportsFolder(if: output == Self.defaultOutput)
        for p in [output, junit, markdown].compactMap({ $0 }) {
            do { try FileIO.checkWritable(p) } catch { fail("\(error)") }
        }
        let selected: [ConformanceSession.SelectedSuite]
        do {
            let chosen = try ConformanceSession.suites(named: suite, folder: path, corpora: corpora,
                                                       missing: SharedFolders.missingCorpora(corpora))
            selected = chosen.selected
            if !chosen.skipped.isEmpty && !quiet {
                print("skip \(chosen.skipped.joined(separator: ", ")): \(SharedFolders.missingCorpora(corpora))")
            }
        } catch { fail("\(error)") }

        let wanted = implementation.isEmpty ? ["graticule"] : implementation
        var manifests: [ExternalConformanceManifest] = []
        for m in external {
            do {
                var manifest = try ExternalConformanceManifest.load(path: m)
                if let timeout {
                    guard timeout > 0 else { fail("--timeout must be positive") }
                    manifest.timeout = timeout
                }
                if let unknown = manifest.suites.first(where: { ConformanceRegistry.entry(named: $0) == nil }) {
                    fail("\(m): unknown suite '\(unknown)'; known: \(ConformanceRegistry.names.joined(separator: ", "))")
                }
                let absent = manifest.missingRequirements()
                if !absent.isEmpty { fail(absent.joined(separator: "\ngraticule: ")) }
                manifests.append(manifest)
            } catch { fail("\(error)") }
        }
        var expectedFailures = ExpectedFailures(entries: [])
        if let expected {
            do { expectedFailures = try ExpectedFailures.load(path: expected) } catch { fail("\(error)") }
        }
        let externalNames = Set(manifests.map(\.name))
        let gated = Set(wanted.filter { $0 != "all" })

        var outcome = ConformanceSession.Outcome()
        for selection in selected {
            let cases: [ConformanceCase]
            do { cases = try selection.entry.make().loadCases(from: selection.folder) } catch { fail("\(selection.entry.name): \(error)") }
            guard !cases.isEmpty else { fail("\(selection.entry.name): no cases found under \(selection.folder)") }
            let impls: [ConformanceImplementation]
            do {
                impls = try ConformanceSession.implementations(
                    for: selection.entry.name, wanted: wanted,
                    available: selection.entry.implementations + Self.extraImplementations(suite: selection.entry.name),
                    externalNames: externalNames, strict: suite != nil)
            } catch { fail("\(error)") }
            ConformanceSession.run(selection, cases: cases, implementations: impls, externals: manifests,
                                   executable: Bench.executablePath, timeout: timeout ?? ExternalConformanceManifest.defaultTimeout,
                                   into: &outcome) { printErr("graticule: \($0)") }
        }
        let rows = outcome.rows, startFailures = outcome.startFailures

        let stem = output.hasSuffix(".csv") ? String(output.dropLast(4)) : output
        let coverage = RuleCatalog.coverage(rules: catalogue, rows: rows)
        let tally = ConformanceTally.tally(rows)
        // The verdicts, rules, table, JUnit and Markdown, all or none; a failure names its file.
        var files: [(path: String, bytes: [UInt8])] = [
            (output, Array(ConformanceRunner.csv(rows).utf8)),
            (stem + ".rules.csv", Array(RuleCatalog.csv(coverage.rules).utf8)),
            (stem + ".matrix.csv", Array(ConformanceTally.csv(tally).utf8))]
        if let junit { files.append((junit, Array(VerdictExports.junit(rows).utf8))) }
        if let markdown { files.append((markdown, Array(VerdictExports.markdown(rows).utf8))) }
        writeOutputs(files)

        let evaluation = expectedFailures.evaluate(rows, gated: gated)
        let failedGated = evaluation.unexpected
        if !quiet {
            for r in failedGated { print("FAIL \(r.suite)/\(r.caseID) [\(r.rule)] \(r.implementation): expected \(r.expected), got \(r.actual) \(r.detail)") }
        }
        if expected != nil {
            print("expected failures: \(evaluation.expected.count) failed as listed, \(failedGated.count) failed unlisted, "
                  + "\(evaluation.unexpectedlyPassing.count) listed but passing")
            for (r, e) in evaluation.unexpectedlyPassing {
                print("unexpectedly passing: \(r.suite)/\(r.caseID) \(r.implementation) (line \(e.line) of \(expected!): \(e.reason)); remove the line")
            }
        }
        let table = tally.map { t in
            [t.suite, t.implementation, "\(t.pass)/\(t.cases)", String(t.fail), String(t.unsupported), t.verdictOnly ? "verdict only" : "full"]
        }
        print(TextTable.render(header: ["suite", "implementation", "pass", "fail", "unsupported", "judged on"], rows: table))
        let exercised = coverage.rules.filter { !$0.cases.isEmpty }
        let missing = coverage.rules.filter { $0.cases.isEmpty }
        print("rules: \(catalogue.count) in \(rulesPath); \(exercised.count) exercised by graticule's cases, \(missing.count) by none")
        if !quiet, !missing.isEmpty {
            print("rules no case exercises yet: " + missing.map(\.rule.id).joined(separator: " "))
        }
        if !coverage.unknown.isEmpty {
            printErr("graticule: cases cite rules missing from \(rulesPath): \(coverage.unknown.joined(separator: " "))")
        }
        print("verdicts: \(output); rules: \(stem).rules.csv; table: \(stem).matrix.csv")
        if !startFailures.isEmpty {
            printErr("graticule: \(startFailures.count) external program\(startFailures.count == 1 ? "" : "s") did not start, so \(startFailures.count == 1 ? "its" : "their") cases were never judged:")
            for f in startFailures { printErr("  \(f)") }
        }
        if !failedGated.isEmpty || !startFailures.isEmpty { throw ExitCode(1) }
    }
}
