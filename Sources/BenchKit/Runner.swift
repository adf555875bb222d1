import GraticuleSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something that can take timed samples of one case.
protocol _Sampler: AnyObject {
    /// Runs `iterations` operations and returns the elapsed nanoseconds.
    func sample(_ iterations: Int) throws -> UInt64
    /// Allocation count, allocated bytes (both for `iterations` operations) and the peak
    /// heap growth of one operation, or nil when they cannot be measured.
    func allocations(_ iterations: Int) -> (count: Double, bytes: Double, peak: Double?)?
    /// Peak resident bytes while the case ran, or nil.
    func peakResident(_ iterations: Int) -> Double?
    var allocationsUnsupportedReason: String { get }
    func close()
}

/// Runs a workload in this process, adding the injected slowdown if any.
final class _InProcessSampler: _Sampler {
    let workload: Workload
    let slowdown: Double
    /// Fractional extra operations owed by the slowdown hook.
    var debt = 0.0

    init(workload: Workload, slowdown: Double) {
        self.workload = workload
        self.slowdown = slowdown
    }

    @inline(__always)
    private func runWithInjection(_ n: Int) {
        workload.run(n)
        if slowdown > 0 {
            debt += Double(n) * slowdown
            let extra = Int(debt)
            debt -= Double(extra)
            if extra > 0 { workload.run(extra) }
        }
    }

    func sample(_ iterations: Int) throws -> UInt64 {
        let t0 = _SystemProbe.nowNanoseconds()
        runWithInjection(iterations)
        return _SystemProbe.nowNanoseconds() &- t0
    }

    func allocations(_ iterations: Int) -> (count: Double, bytes: Double, peak: Double?)? {
        guard let before = _Jemalloc.snapshot() else { return nil }
        runWithInjection(iterations)
        guard let after = _Jemalloc.snapshot() else { return nil }
        var peak: Double? = nil
        if _Jemalloc.resetPeak() {
            runWithInjection(1)
            peak = _Jemalloc.readPeak().map { Double($0) }
        }
        return (Double(after.allocationCount &- before.allocationCount),
                Double(after.allocatedBytes &- before.allocatedBytes), peak)
    }

    func peakResident(_ iterations: Int) -> Double? {
        guard _SystemProbe.resetPeakResident() else { return nil }
        runWithInjection(iterations)
        return ProcessStatus.peakResidentBytes().map { Double($0) }
    }

    /// Runs `n` operations inside the region that instruction counting collects.
    func runMeasuredRegion(_ n: Int) {
        graticuleMeasuredRegion(self, n)
    }

    fileprivate func _runForRegion(_ n: Int) { runWithInjection(n) }

    var allocationsUnsupportedReason: String { "this process does not allocate with jemalloc" }
    func close() {}
}

/// The one function whose cost `--instructions` counts: callgrind runs with
/// `--collect-atstart=no --toggle-collect=*graticuleMeasuredRegion*`, so only this call and
/// what it calls are counted. Never inlined, so the symbol exists in release builds.
@inline(never)
func graticuleMeasuredRegion(_ sampler: _InProcessSampler, _ n: Int) {
    sampler._runForRegion(n)
}

/// Runs benchmark cases and measures them.
public struct Runner {
    public var configuration: RunConfiguration

    public init(configuration: RunConfiguration) {
        self.configuration = configuration
    }

    private struct Slot {
        /// Records why the case stopped, with the status the error calls for, and ends its sampler.
        mutating func fail(_ message: String, _ error: Error) {
            failure = message
            failureStatus = (error as? ExternalError)?.status ?? .failed
            sampler?.close()
            sampler = nil
        }

        let bcase: BenchmarkCase
        var sampler: _Sampler?
        var failure: String?
        /// The status the case's rows get when `failure` is set.
        var failureStatus = MetricResult.Status.failed
        var check: ResultCheck?
        /// Why the case's result could not be compared with the reference's; its measured
        /// rows are then `unchecked` with this detail, never `ok`.
        var unchecked: String?
        /// Written to the detail of the case's rows (a known difference from the reference).
        var note = ""
        var bytes = 0
        var items = 0
        var iterations = 1
        var times: [Double] = []   // ns per operation
        var measuredNs: UInt64 = 0
        /// Wall-clock nanoseconds spent taking the samples (bounds a program whose own
        /// clock claims no time passes).
        var wallNs: UInt64 = 0
        var done = false
    }

    /// Measures every case and returns its metric results, with ratios against the
    /// reference implementation where a comparison group has one.
    ///
    /// Order: all setups (untimed); warm-up of each case; interleaved rounds in which every
    /// unfinished case takes one sample, in an order shuffled per round; then, case by case,
    /// the allocation and resident-memory passes (which flush allocator caches and so are
    /// kept out of the timed samples).
    public func run(_ cases: [BenchmarkCase], references: [BenchmarkCase] = []) -> [MetricResult] {
        measure(cases, references: references).results
    }

    /// What ``measure(_:references:)`` returns: the results and the allocators they were measured with.
    public struct Outcome: Sendable {
        public var results: [MetricResult]
        /// The allocator of the timed samples, and where the allocation metrics came from,
        /// in words (the report's `allocator` column).
        public var allocators: String
    }

    /// As ``run(_:references:)``, and also says which allocators the results were measured with.
    ///
    /// - Parameters:
    ///   - cases: the cases to measure.
    ///   - references: cases of the reference implementation that `cases` are compared
    ///     with but that were not selected: their results are computed (untimed) only to
    ///     check the others (``BenchmarkSuite/unselectedReferences(for:reference:)``).
    public func measure(_ cases: [BenchmarkCase], references: [BenchmarkCase] = []) -> Outcome {
        let cfg = configuration
        let progress = RunProgress(enabled: cfg.showProgress)
        var slots = cases.map { Slot(bcase: $0) }
        func isolated(_ c: BenchmarkCase) -> Bool { cfg.isolationChild != nil && CaseIsolation.isolates(c) }
        func needsScratch(_ c: BenchmarkCase) -> Bool {
            if case .external = c.body { return true }
            return isolated(c)
        }
        var scratchFailure: Error?
        if cases.contains(where: needsScratch) {
            do { try ScratchFolder.make(cfg.scratchDirectory) } catch { scratchFailure = error }
        }

        for i in slots.indices {
            progress.update("setup \(i + 1)/\(slots.count): \(slots[i].bcase.id)")
            do {
                let c = slots[i].bcase
                if let scratchFailure, needsScratch(c) { throw scratchFailure }
                slots[i].bytes = try c.dataset.bytes().count
                slots[i].items = try c.dataset.items()
                switch c.body {
                case .inProcess(let setup):
                    if let child = cfg.isolationChild, CaseIsolation.isolates(c) {
                        // Someone else's code: set up, checked and timed in a child process.
                        let sampler = try _ExternalSampler(program: CaseIsolation.program(for: c, child: child), datasetPath: "-",
                                                           slowdown: cfg.slowdown(for: c.id),
                                                           scratchDirectory: cfg.scratchDirectory)
                        slots[i].sampler = sampler
                        if c.check != nil {
                            slots[i].check = ResultCheck(digest: try sampler.digest(), locatedElements: { try sampler.elements() })
                        }
                        continue
                    }
                    slots[i].sampler = _InProcessSampler(workload: try setup(c.dataset),
                                                        slowdown: cfg.slowdown(for: c.id))
                case .external(let program):
                    let path = try c.dataset.path(in: cfg.scratchDirectory)
                    let sampler = try _ExternalSampler(program: program, datasetPath: path,
                                                       slowdown: cfg.slowdown(for: c.id),
                                                       scratchDirectory: cfg.scratchDirectory)
                    slots[i].sampler = sampler
                    if program.checksResult {
                        // Its elements are asked for only if its digest differs (`elements`).
                        slots[i].check = ResultCheck(digest: try sampler.digest(), locatedElements: { try sampler.elements() })
                    }
                }
                if let check = c.check { slots[i].check = try check(c.dataset) }
            } catch {
                slots[i].fail("setup failed: \(error)", error)
            }
        }
        checkResults(&slots, reference: cfg.reference, unselected: references, progress: progress)

        // Warm-up and iteration scaling.
        for i in slots.indices {
            guard let sampler = slots[i].sampler else { continue }
            progress.update("warm-up \(i + 1)/\(slots.count): \(slots[i].bcase.id)")
            do {
                let deadline = Double(_SystemProbe.nowNanoseconds()) + cfg.warmupSeconds * 1e9
                var n = 1
                var perOp = 0.0
                repeat {
                    let ns = try sampler.sample(n)
                    perOp = Double(ns) / Double(n)
                    // Grow geometrically so cheap operations reach a measurable sample fast
                    // (bounded: an operation that reports no time must not overflow n).
                    if Double(ns) < cfg.targetSampleSeconds * 1e9 / 4, n < 1 << 40 { n *= 2 }
                } while Double(_SystemProbe.nowNanoseconds()) < deadline
                slots[i].iterations = max(1, min(1 << 40, Int(cfg.targetSampleSeconds * 1e9 / max(perOp, 1e-3))))
            } catch {
                slots[i].fail("warm-up failed: \(error)", error)
            }
        }

        // Interleaved sampling.
        var rng = SplitMix64(seed: cfg.seed)
        var round = 0
        let start = _SystemProbe.nowNanoseconds()
        while true {
            var active = slots.indices.filter { slots[$0].sampler != nil && !slots[$0].done }
            if active.isEmpty { break }
            active.shuffle(using: &rng)
            round += 1
            progress.update("sampling round \(round): \(active.count) of \(slots.count) cases still sampling, "
                + "\(String(roundedText(places: 1, (Double(_SystemProbe.nowNanoseconds() - start)) / 1e9)))s")
            for i in active {
                do {
                    let w0 = _SystemProbe.nowNanoseconds()
                    let ns = try slots[i].sampler!.sample(slots[i].iterations)
                    slots[i].wallNs &+= _SystemProbe.nowNanoseconds() &- w0
                    slots[i].times.append(Double(ns) / Double(slots[i].iterations))
                    slots[i].measuredNs &+= ns
                    let measured = Double(slots[i].measuredNs) / 1e9
                    let wall = Double(slots[i].wallNs) / 1e9
                    let n = slots[i].times.count
                    // The wall clock also ends a case: a program whose own clock reports
                    // (almost) no time would otherwise be sampled for ever.
                    if (n >= cfg.minSamples && measured >= cfg.minSeconds)
                        || (n >= 3 && max(measured, wall) >= cfg.maxSeconds) {
                        slots[i].done = true
                    }
                } catch {
                    slots[i].fail("sampling failed: \(error)", error)
                    slots[i].times = []
                }
            }
        }

        // Allocation metrics: in this process when it allocates with jemalloc (a run started
        // with jemalloc preloaded), otherwise in one jemalloc child for every in-process case.
        var childResult: AllocationCounter.ChildResult?
        var childFailure: String?
        if !_Jemalloc.isActive, let child = cfg.allocationChild {
            let requests = slots.filter { s in
                guard case .inProcess = s.bcase.body else { return false }
                return s.failure == nil && !s.times.isEmpty
            }
                .map { (id: $0.bcase.id.description, iterations: $0.bcase.wholePeriods($0.iterations)) }
            if !requests.isEmpty {
                progress.update("allocations: \(requests.count) cases in a jemalloc child process")
                do {
                    childResult = try AllocationCounter.measure(requests, child: child, scratch: cfg.scratchDirectory)
                } catch {
                    childFailure = "\(error)"
                }
            }
        }

        // Memory passes, then results.
        var results: [MetricResult] = []
        for i in slots.indices {
            let s = slots[i]
            let key = s.bcase.id
            let role = s.bcase.role
            guard let sampler = s.sampler, s.failure == nil, !s.times.isEmpty else {
                for metric in Metric.allCases where metric != .instructions {
                    results.append(MetricResult(key: key, role: role, datasetBytes: s.bytes, datasetItems: s.items,
                                                metric: metric.rawValue, status: s.failure == nil ? .failed : s.failureStatus,
                                                detail: s.failure ?? "no samples"))
                }
                continue
            }
            progress.update("memory \(i + 1)/\(slots.count): \(key)")
            let firstRow = results.count
            defer {
                for j in firstRow..<results.count where results[j].status == .ok {
                    if let why = s.unchecked {
                        results[j].status = .unchecked
                        results[j].detail = why
                    } else if !s.note.isEmpty {
                        results[j].detail = s.note
                    }
                }
            }
            let it = s.iterations
            results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .timeNs,
                                     iterations: it, samples: s.times))
            results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .throughputMBPerS,
                                     iterations: it, samples: s.times.map { Double(s.bytes) / $0 * 1e3 }))
            results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .throughputItemsPerS,
                                     iterations: it, samples: s.times.map { Double(s.items) / $0 * 1e9 }))

            switch allocationSamples(for: s, sampler: sampler, child: childResult, childFailure: childFailure) {
            case .success(let a):
                results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .allocCount,
                                         iterations: it, samples: a.counts))
                results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .allocBytes,
                                         iterations: it, samples: a.bytes))
                if a.peaks.count == a.counts.count {
                    results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .peakHeapBytes,
                                             iterations: 1, samples: a.peaks))
                } else {
                    results.append(MetricResult(key: key, role: role, datasetBytes: s.bytes, datasetItems: s.items,
                                                metric: Metric.peakHeapBytes.rawValue, status: .unsupported,
                                                detail: "jemalloc has no thread.peak (needs 5.3)"))
                }
            case .failure(let why):
                for m in [Metric.allocCount, .allocBytes, .peakHeapBytes] {
                    results.append(MetricResult(key: key, role: role, datasetBytes: s.bytes, datasetItems: s.items,
                                                metric: m.rawValue, status: why.status, detail: why.detail))
                }
            }
            if let rss = sampler.peakResident(it) {
                results.append(.measured(key, role: role, bytes: s.bytes, items: s.items, metric: .peakResidentBytes,
                                         iterations: it, samples: [rss]))
            } else {
                results.append(MetricResult(key: key, role: role, datasetBytes: s.bytes, datasetItems: s.items,
                                            metric: Metric.peakResidentBytes.rawValue, status: .unsupported,
                                            detail: "peak resident set cannot be read or reset here"))
            }
            sampler.close()
        }
        progress.finish()
        let timing = RunEnvironment.allocator
        let allocators: String
        if _Jemalloc.isActive {
            allocators = timing
        } else if let v = childResult?.allocator {
            allocators = "\(timing) (timing); \(v) in a child process (allocation metrics)"
        } else {
            allocators = "\(timing) (timing); allocation metrics not measured"
        }
        return Outcome(results: Runner.addingRatios(results, reference: cfg.reference), allocators: allocators)
    }

    /// Why a case has no allocation metrics, and the status its rows get.
    struct AllocationGap: Error {
        var status: MetricResult.Status
        var detail: String
    }

    /// A case's allocation samples: measured here when this process allocates with jemalloc,
    /// otherwise taken from the child's answer.
    private func allocationSamples(for s: Slot, sampler: _Sampler, child: AllocationCounter.ChildResult?,
                                   childFailure: String?) -> Result<AllocationCounter.Samples, AllocationGap> {
        guard case .inProcess = s.bcase.body else {
            return .failure(AllocationGap(status: .unsupported, detail: sampler.allocationsUnsupportedReason))
        }
        if _Jemalloc.isActive {
            guard sampler is _InProcessSampler else {
                return .failure(AllocationGap(status: .unsupported,
                                              detail: "timed in an isolation child; its allocations are measured only by the jemalloc child"))
            }
            guard let a = Runner.allocationPasses(sampler, iterations: s.bcase.wholePeriods(s.iterations),
                                                  passes: configuration.allocationPasses) else {
                return .failure(AllocationGap(status: .failed, detail: "jemalloc's counters stopped answering"))
            }
            return .success(a)
        }
        if let child {
            let id = s.bcase.id.description
            if let a = child.measured[id] { return .success(a) }
            return .failure(AllocationGap(status: .failed, detail: child.errors[id] ?? "not measured"))
        }
        if let childFailure { return .failure(AllocationGap(status: .unsupported, detail: childFailure)) }
        return .failure(AllocationGap(status: .unsupported,
                                      detail: "no jemalloc in this process and no allocation child configured"))
    }

    /// `passes` allocation samples of `iterations` operations each, per operation.
    static func allocationPasses(_ sampler: _Sampler, iterations it: Int, passes: Int) -> AllocationCounter.Samples? {
        var out = AllocationCounter.Samples(counts: [], bytes: [], peaks: [])
        for _ in 0..<max(1, passes) {
            guard let a = sampler.allocations(it) else { return nil }
            out.counts.append(a.count / Double(it))
            out.bytes.append(a.bytes / Double(it))
            if let p = a.peak { out.peaks.append(p) }
        }
        if out.peaks.count != out.counts.count { out.peaks = [] }
        return out
    }

    /// The allocation child's side: measures the cases that `requestPath` lists (lines of
    /// `ITERATIONS<tab>CASE-ID`) and writes the protocol lines of ``AllocationCounter`` to
    /// `output`, one per case, as each finishes. Each case is set up, runs one operation
    /// untimed, then takes the configured passes.
    public static func serveAllocationRequests(_ requestPath: String, cases: [BenchmarkCase],
                                               configuration cfg: RunConfiguration,
                                               output: (String) -> Void) throws {
        let text = try FileIO.readText(requestPath)
        guard let version = AllocationCounter.versionInThisProcess else {
            output("error\t*\tthis process does not allocate with jemalloc")
            return
        }
        output("allocator\t" + version)
        let byID = Dictionary(cases.map { ($0.id.description, $0) }, uniquingKeysWith: { a, _ in a })
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t", maxSplits: 1)
            guard f.count == 2, let n = Int(f[0]), n > 0 else { continue }
            let id = String(f[1])
            guard let c = byID[id], case .inProcess(let setup) = c.body else {
                output(AllocationCounter.errorLine(id: id, "no in-process case with this id"))
                continue
            }
            do {
                let sampler = _InProcessSampler(workload: try setup(c.dataset), slowdown: cfg.slowdown(for: c.id))
                _ = try sampler.sample(1)
                guard let a = allocationPasses(sampler, iterations: n, passes: cfg.allocationPasses) else {
                    output(AllocationCounter.errorLine(id: id, "jemalloc's counters did not answer"))
                    continue
                }
                output(AllocationCounter.line(id: id, a))
            } catch {
                output(AllocationCounter.errorLine(id: id, "setup failed: \(error)"))
            }
        }
    }

    /// Compares every case's result with the reference implementation's result on the
    /// same benchmark, dataset and parameters: a different result is `wrong` (and not
    /// timed); a case whose result cannot be compared (no digest on its side or on the
    /// reference's) is marked to be reported `unchecked`. The reference's own cases are the
    /// yardstick and stay `ok`. Reference results missing from the selection come from
    /// `unselected`, computed here untimed.
    private func checkResults(_ slots: inout [Slot], reference: String, unselected: [BenchmarkCase],
                              progress: RunProgress) {
        var references: [String: ResultCheck] = [:]
        var referenceFailures: [String: String] = [:]
        for s in slots where s.bcase.implementation == reference {
            if let c = s.check { references[s.bcase.id.comparisonGroup] = c }
            else if let f = s.failure { referenceFailures[s.bcase.id.comparisonGroup] = f }
        }
        for (n, c) in unselected.enumerated() where references[c.id.comparisonGroup] == nil {
            guard let check = c.check else { continue }
            progress.update("setup: the reference's result \(n + 1)/\(unselected.count), untimed: \(c.id)")
            do { references[c.id.comparisonGroup] = try check(c.dataset) } catch {
                referenceFailures[c.id.comparisonGroup] = "\(error)"
            }
        }
        for i in slots.indices where slots[i].bcase.implementation != reference && slots[i].failure == nil {
            let group = slots[i].bcase.id.comparisonGroup
            guard let mine = slots[i].check else {
                if case .external = slots[i].bcase.body {
                    slots[i].unchecked = "the program gives no result digest (its manifest does not set checksResult)"
                } else {
                    slots[i].unchecked = "the case computes no result digest"
                }
                continue
            }
            guard let theirs = references[group] else {
                slots[i].unchecked = (referenceFailures[group].map { "the reference's result could not be computed: \($0)" }
                    ?? "\(reference) has no result for this benchmark, dataset and parameters")
                continue
            }
            guard let why = mine.mismatch(against: theirs) else { continue }
            if case .external(let program) = slots[i].bcase.body, let known = program.knownDifference {
                slots[i].note = "known difference (\(known)): \(why)"
                continue
            }
            slots[i].failure = why
            slots[i].failureStatus = .wrong
            slots[i].sampler?.close()
            slots[i].sampler = nil
        }
    }

    /// Adds to every measured result (`ok` or `unchecked`) the ratio of its median to the
    /// reference implementation's median of the same benchmark, dataset, parameters and
    /// metric (with a bootstrap 95% interval). The reference's own rows get no ratio.
    public static func addingRatios(_ results: [MetricResult], reference: String) -> [MetricResult] {
        var refs: [String: MetricResult] = [:]
        for r in results where r.key.implementation == reference && r.status == .ok {
            refs[r.key.comparisonGroup + "|" + r.metric] = r
        }
        return results.map { r in
            var r = r
            guard r.status.hasMeasurement, r.key.implementation != reference,
                  let ref = refs[r.key.comparisonGroup + "|" + r.metric],
                  let q = Statistics.ratioOfMedians(r.samples, ref.samples) else { return r }
            r.ratio = .init(reference: reference, value: q.ratio, low: q.low, high: q.high)
            return r
        }
    }

    /// Runs the one in-process case `n` times inside the instruction-counting region, after
    /// one untimed warm-up operation outside it. Used by the child process that
    /// `--instructions` starts under callgrind.
    public static func runForInstructionCount(_ bcase: BenchmarkCase, iterations n: Int,
                                              slowdown: Double) throws {
        guard case .inProcess(let setup) = bcase.body else { return }
        let sampler = _InProcessSampler(workload: try setup(bcase.dataset), slowdown: slowdown)
        _ = try sampler.sample(1)
        // Start the region with no debt, so n operations add exactly floor(n × slowdown).
        sampler.debt = 0
        sampler.runMeasuredRegion(n)
    }
}


