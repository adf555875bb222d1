import Foundation

extension InstructionCounter {
    /// Instructions per operation of every in-process case whose time was measured: each
    /// case runs twice in a child under callgrind (`childArguments` + `--callgrind-child ID
    /// --callgrind-iterations N`), and the difference of the two counts is divided by the
    /// difference of their operations. The counts are exact whatever else runs, so the
    /// children run one per core, after all timing is done. An `unchecked` case's count is
    /// `unchecked` too; external programs and unmeasured cases get `unsupported`.
    ///
    /// `keepProfiles` keeps one callgrind profile per case there (`CASE-ID.callgrind.out`).
    public static func measure(_ cases: [BenchmarkCase], results: [MetricResult], configuration config: RunConfiguration,
                               executable: String, childArguments: [String], keepProfiles: String?,
                               progress: RunProgress) -> [MetricResult] {
        let valgrind = valgrindAvailable
        let out = _ResultSlots(count: cases.count, progress: progress)
        if let keepProfiles {
            try? FileManager.default.createDirectory(atPath: keepProfiles, withIntermediateDirectories: true)
        }
        let shared = _Unchecked((cases, results, config))
        DispatchQueue.concurrentPerform(iterations: cases.count) { i in
            let (cases, results, config) = shared.value
            let c = cases[i]
            let key = c.id
            let timing = results.first { $0.key == key && $0.metric == "time_ns" }
            let bytes = timing?.datasetBytes ?? 0, items = timing?.datasetItems ?? 0
            func unsupported(_ why: String) -> MetricResult {
                MetricResult(key: key, role: c.role, datasetBytes: bytes, datasetItems: items,
                             metric: Metric.instructions.rawValue, status: .unsupported, detail: why)
            }
            guard valgrind else { out.set(i, unsupported("valgrind is not installed")); return }
            guard case .inProcess = c.body else {
                out.set(i, unsupported("external program: instructions are counted in-process only"))
                return
            }
            guard let t = timing, t.status.hasMeasurement else {
                out.set(i, unsupported("case did not run")); return
            }
            out.started(key, of: cases.count)
            let slowed = config.slowdown(for: key) > 0
            let args = childArguments + ["--callgrind-child", key.description]
            do {
                var keep: String?
                if let keepProfiles {
                    let name = key.description.map { $0.isLetter || $0.isNumber || "._=-".contains($0) ? $0 : "_" }
                    keep = keepProfiles + "/" + String(name) + ".callgrind.out"
                }
                // The counted operations: about 3·10⁷ instructions' worth (≈ 10 ms native),
                // chosen from the one-operation run's count so the choice repeats between
                // runs, in whole periods of the workload. With the slowdown hook, 100 counted
                // operations make the injected fraction exact (floor(101 × s) − floor(1 × s)
                // = 100 × s for s in hundredths below 1).
                let counted = try perOperation(
                    executable: executable, small: 1,
                    large: { one in
                        var k = max(2, min(1000, Int(3e7 / Double(max(one, 1)))))
                        if slowed { k = max(k, 100) }
                        return 1 + c.wholePeriods(k)
                    },
                    scratch: config.scratchDirectory, keepProfile: keep
                ) { n in args + ["--callgrind-iterations", String(n)] }
                var r = MetricResult.measured(key, role: c.role, bytes: bytes, items: items, metric: .instructions,
                                              iterations: counted.large - 1, samples: [counted.perOperation])
                if t.status == .unchecked { r.status = .unchecked; r.detail = t.detail }
                out.set(i, r)
            } catch {
                out.set(i, MetricResult(key: key, role: c.role, datasetBytes: bytes, datasetItems: items,
                                        metric: Metric.instructions.rawValue, status: .failed,
                                        detail: "\(error)"))
            }
        }
        out.progress.finish()
        return out.results
    }
}

/// A value handed to worker threads that only read it.
private struct _Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// One result per case, filled from several threads.
private final class _ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [MetricResult?]
    private var begun = 0
    let progress: RunProgress
    init(count: Int, progress: RunProgress) {
        slots = Array(repeating: nil, count: count)
        self.progress = progress
    }
    func started(_ key: CaseKey, of total: Int) {
        lock.lock()
        begun += 1
        progress.update("instructions \(begun)/\(total): \(key)")
        lock.unlock()
    }
    func set(_ i: Int, _ r: MetricResult) { lock.lock(); slots[i] = r; lock.unlock() }
    var results: [MetricResult] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}
