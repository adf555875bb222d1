extension Gate {
    /// What a run compared with a committed baseline is gated on: the baseline's results for
    /// the cases the run selected only (a `--filter` run against a full baseline), and the
    /// metrics the run measured.
    public struct BaselineSelection: Equatable, Sendable {
        /// The baseline, cut down to the selected cases.
        public var base: RunReport
        /// The metrics to gate.
        public var metrics: Set<String>
        /// Metrics asked for that this run could not measure for any case (allocations
        /// without jemalloc): left out of the gate, and to be said so.
        public var unmeasured: [String]
    }

    /// Chooses what to gate.
    ///
    /// - Parameters:
    ///   - base: the baseline report.
    ///   - head: this run's report.
    ///   - selected: the ids (`CaseID.description`) of the cases this run selected.
    ///   - requested: the metrics asked for; nil for every metric with a default threshold.
    ///   - instructions: whether this run counted instructions (otherwise they are not gated).
    /// - Returns: nil when no gated metric was measured at all: such a gate cannot pass.
    public static func baselineSelection(base: RunReport, head: RunReport, selected: Set<String>,
                                         requested: Set<String>?, instructions: Bool) -> BaselineSelection? {
        var cut = base
        cut.results = base.results.filter { selected.contains($0.key.description) }
        var metrics = requested ?? Set(Metric.allCases.filter { $0.defaultThreshold != nil }.map(\.rawValue))
        if !instructions { metrics.remove(Metric.instructions.rawValue) }
        // A metric measured for some cases and not others stays: its missing cases are
        // findings of their own.
        let unmeasured = metrics.filter { m in !head.results.contains { $0.metric == m && $0.status != .unsupported } }.sorted()
        metrics.subtract(unmeasured)
        guard !metrics.isEmpty else { return nil }
        return BaselineSelection(base: cut, metrics: metrics, unmeasured: unmeasured)
    }
}
