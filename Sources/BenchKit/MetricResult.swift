import GraticuleSupport

/// One metric of one case in a run: its samples, summary and comparison with the reference.
public struct MetricResult: Equatable, Sendable {
    public enum Status: String, Sendable {
        /// Measured.
        case ok
        /// Cannot be measured here (the detail says why); never written as zero.
        case unsupported
        /// Measuring failed (setup threw, a protocol error, ...); the detail says why.
        case failed
        /// The implementation's result on the dataset differs from the reference
        /// implementation's (`ResultCheck`); it was not timed. The detail names the first
        /// difference.
        case wrong
        /// The external program ended while the case ran (its standard error is in the detail).
        case crash
        /// A sample took longer than the case's ceiling; the program was stopped.
        case timeout
        /// Measured, but the implementation's result was never compared with the reference
        /// implementation's (no digest on one side); the detail says why. Its values are
        /// written like `ok`'s, yet it is never `ok`: a time without a checked result may
        /// be the time of a wrong answer.
        case unchecked

        /// True for every status that means the case has no valid measurement because
        /// something went wrong (not `ok`, not `unsupported`, not `unchecked`).
        public var isFailure: Bool { self != .ok && self != .unsupported && self != .unchecked }
        /// True when the row holds measured values (`ok` and `unchecked`).
        public var hasMeasurement: Bool { self == .ok || self == .unchecked }
        /// True when `graticule bench` must fail for a row of this status: a failure, or a
        /// measurement whose result was not checked.
        public var failsRun: Bool { isFailure || self == .unchecked }
    }

    /// Who an implementation is to the project, which decides what a gate gates.
    public enum Role: String, Sendable, CaseIterable {
        /// The project's own implementation (`graticule`): always gated.
        case project
        /// A comparison the project ships (Foundation, swift-protobuf, the adapters in
        /// `Benchmarks/Adapters`): reported, never gated by default.
        case peer
        /// An implementation a user brought (registered in process, or through their own
        /// manifest): gated by default, like the project's.
        case candidate

        /// The role of an implementation known only by name (a schema-2 report, a case
        /// registered without one): `graticule` is the project's, every other a peer.
        public static func inferred(for implementation: String) -> Role {
            implementation == "graticule" ? .project : .peer
        }
    }

    public struct Ratio: Equatable, Sendable {
        public var reference: String
        public var value: Double
        public var low: Double
        public var high: Double
        public init(reference: String, value: Double, low: Double, high: Double) {
            self.reference = reference
            self.value = value
            self.low = low
            self.high = high
        }
    }

    public var key: CaseKey
    /// The implementation's role (CSV `role`).
    public var role: Role
    public var datasetBytes: Int
    public var datasetItems: Int
    public var metric: String
    public var status: Status
    public var iterationsPerSample: Int
    public var samples: [Double]
    public var summary: SampleSummary?
    /// This median ÷ the reference implementation's median of the same benchmark, dataset,
    /// parameters and metric, with its bootstrap 95% interval (CSV `ratio_to_reference`).
    /// For `time_ns`, below 1 is faster than the reference.
    public var ratio: Ratio?
    public var detail: String

    /// On `time_ns` rows: the reference's time ÷ this time (CSV `speedup`), above 1 is
    /// faster than the reference; the inverse of ``ratio``, its interval inverted with it.
    public var speedup: Ratio? {
        guard metric == Metric.timeNs.rawValue, let r = ratio, r.value > 0, r.low > 0, r.high > 0 else { return nil }
        return Ratio(reference: r.reference, value: 1 / r.value, low: 1 / r.high, high: 1 / r.low)
    }

    public init(key: CaseKey, role: Role? = nil, datasetBytes: Int, datasetItems: Int, metric: String, status: Status,
                iterationsPerSample: Int = 0, samples: [Double] = [], summary: SampleSummary? = nil,
                ratio: Ratio? = nil, detail: String = "") {
        self.key = key
        self.role = role ?? Role.inferred(for: key.implementation)
        self.datasetBytes = datasetBytes
        self.datasetItems = datasetItems
        self.metric = metric
        self.status = status
        self.iterationsPerSample = iterationsPerSample
        self.samples = samples
        self.summary = summary
        self.ratio = ratio
        self.detail = detail
    }

    /// A measured result; the summary is computed from the samples.
    public static func measured(_ key: CaseKey, role: Role? = nil, bytes: Int, items: Int, metric: Metric,
                                iterations: Int, samples: [Double]) -> MetricResult {
        MetricResult(key: key, role: role, datasetBytes: bytes, datasetItems: items, metric: metric.rawValue,
                     status: .ok, iterationsPerSample: iterations, samples: samples,
                     summary: Statistics.summarize(samples))
    }
}
