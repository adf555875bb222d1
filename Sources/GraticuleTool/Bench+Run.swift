import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import Workloads

extension Bench {
    /// Runs the selected cases (or, in a child process, the one case or request it was
    /// started for), writes the reports, prints the summary and gates against --baseline.
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
        guard !cases.isEmpty else {
            fail("no benchmark matches the filter '\(filter ?? "")'; 'graticule bench --list' lists the cases"
                 + (data == nil ? " (with --data DIR, the corpora's too)" : " (give it the same --data)"))
        }

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
        var gateRun: GateRun?
        if let baseline, let base {
            guard let selection = Gate.baselineSelection(base: base, head: report, selected: Set(cases.map { $0.id.description }),
                                                          requested: gateMetricNames, instructions: instructions) else {
                fail("no gated metric was measured in this run; the gate against \(baseline) cannot pass")
            }
            for m in selection.unmeasured { printErr("note: \(m) was not measured in this run; it is not gated against \(baseline)") }
            gateRun = GateRun(base: selection.base, head: report,
                              gate: Gate(gatedImplementations: gateNames, gatedMetrics: selection.metrics))
        }
        // The report, its samples, the exports and the Markdown, all or none.
        var files = report.files(at: output) + BenchExportFiles.files(report, json: json, gab: gab)
        if let gateRun {
            files += gateRun.files(markdown: markdown, verdicts: nil)
        } else if let markdown {
            files.append((markdown, Array(BenchmarkExports.markdown(report, reference: reference).utf8)))
        }
        writeOutputs(files)
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

        if let gateRun {
            let code = gateRun.finish(quiet: quiet)
            if code != 0 { exitCode = code == 2 ? 2 : max(exitCode, code) }
        }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
