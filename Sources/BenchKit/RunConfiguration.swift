/// How a run measures. The defaults suit a 2-core shared machine; `quick` is for CI smoke
/// runs and A/A checks.
public struct RunConfiguration: Sendable {
    /// Warm-up per case before sampling, in seconds (at least one operation runs).
    public var warmupSeconds: Double = 0.3
    /// Each case takes at least this many samples ...
    public var minSamples: Int = 25
    /// ... and at least this much measured time, in seconds ...
    public var minSeconds: Double = 1.0
    /// ... unless its measured time reaches this cap (it keeps at least 3 samples).
    public var maxSeconds: Double = 5.0
    /// Iterations per sample are scaled so one sample lasts about this long.
    public var targetSampleSeconds: Double = 0.02
    /// Passes of the allocation measurement (each one sample of the allocation metrics).
    public var allocationPasses: Int = 5
    /// The implementation other implementations are compared against.
    public var reference: String = "graticule"
    /// Benchmark-only slowdown hook: extra work, as a fraction of the operation, added to
    /// cases whose id contains the key (e.g. `["baseline.memscan": 0.10]` runs 10% more
    /// operations than it reports). Off by default; used to measure the gate's power.
    public var injectedSlowdown: [String: Double] = [:]
    /// Seed of the interleaving order (each round shuffles the cases).
    public var seed: UInt64 = 0x6752_6174_6963_756C
    /// Progress lines on stderr.
    public var showProgress: Bool = false
    /// The child process that measures allocations when this process does not allocate
    /// with jemalloc (see ``AllocationCounter``); nil leaves those metrics `unsupported`.
    public var allocationChild: AllocationCounter.Child?
    /// Where external programs get their dataset files.
    public var scratchDirectory: String = "/tmp/graticule-bench"

    public init() {}

    /// The quick profile: a few seconds for a small suite.
    public static var quick: RunConfiguration {
        var c = RunConfiguration()
        c.warmupSeconds = 0.05
        c.minSamples = 15
        c.minSeconds = 0.15
        c.maxSeconds = 1.0
        c.targetSampleSeconds = 0.005
        c.allocationPasses = 3
        return c
    }

    /// The extra fraction injected into a case, 0 when none.
    public func slowdown(for key: CaseKey) -> Double {
        let id = key.description
        return injectedSlowdown.filter { id.contains($0.key) }.map(\.value).max() ?? 0
    }
}
