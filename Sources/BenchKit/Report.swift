import GraticuleSupport
/// Metadata that every row of a run carries.
public struct RunMetadata: Equatable, Sendable {
    public static let currentSchemaVersion = 4
    /// Older schema versions this build still reads (version 2 has no `role` column: its
    /// `graticule` rows are read as the project's, every other row as a peer's; versions 2
    /// and 3 have no `tool_version`, read as empty).
    public static let readableSchemaVersions = [2, 3, 4]

    public var schemaVersion: Int = RunMetadata.currentSchemaVersion
    public var runID: String
    /// ISO 8601 UTC.
    public var timestamp: String
    /// The Graticule version that wrote the run (empty when read from a schema-2 or
    /// schema-3 report, which did not record it).
    public var toolVersion: String = GraticuleVersion.current
    public var gitCommit: String
    public var gitDirty: Bool
    public var toolchain: String
    /// `release` or `debug`.
    public var buildConfiguration: String
    public var cpuModel: String
    public var cpuCount: Int
    public var os: String
    public var kernel: String
    /// The 1, 5 and 15 minute load averages at the start of the run, space-separated.
    public var loadAverage: String
    public var allocator: String

    public init(runID: String, timestamp: String, gitCommit: String, gitDirty: Bool,
                toolchain: String, buildConfiguration: String, cpuModel: String, cpuCount: Int,
                os: String, kernel: String, loadAverage: String, allocator: String) {
        self.runID = runID
        self.timestamp = timestamp
        self.gitCommit = gitCommit
        self.gitDirty = gitDirty
        self.toolchain = toolchain
        self.buildConfiguration = buildConfiguration
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.os = os
        self.kernel = kernel
        self.loadAverage = loadAverage
        self.allocator = allocator
    }
}

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

/// A whole run: metadata and one result per case × metric.
public struct RunReport: Equatable, Sendable {
    public var metadata: RunMetadata
    public var results: [MetricResult]

    public init(metadata: RunMetadata, results: [MetricResult]) {
        self.metadata = metadata
        self.results = results
    }

    /// Column order of the report CSV (schema version 3). Never reordered; new columns
    /// only ever come with a new schema version. Version 2 named the two ratios apart:
    /// `ratio_to_reference` (this median ÷ the reference's, any metric) and `speedup`
    /// (the reference's time ÷ this time, `time_ns` rows), where version 1 had one `ratio`.
    /// Version 3 added `role` (project, peer or candidate: what a gate gates by default)
    /// and the status `unchecked`; version 4 `tool_version` (the Graticule that wrote it).
    public static let columns = [
        "schema_version", "run_id", "timestamp", "tool_version", "git_commit", "git_dirty", "toolchain",
        "build_configuration", "cpu_model", "cpu_count", "os", "kernel", "load_average",
        "allocator", "benchmark", "implementation", "role", "dataset", "dataset_bytes", "dataset_items",
        "parameters", "metric", "status", "samples", "iterations_per_sample", "min", "p25",
        "median", "p75", "p90", "p99", "max", "mean", "stddev", "cv", "ci95_low", "ci95_high",
        "reference", "ratio_to_reference", "ratio_to_reference_ci95_low", "ratio_to_reference_ci95_high",
        "speedup", "speedup_ci95_low", "speedup_ci95_high", "detail",
    ]

    /// Column order of the samples CSV.
    public static let sampleColumns = [
        "run_id", "benchmark", "implementation", "dataset", "parameters", "metric", "sample",
        "iterations", "value",
    ]

    /// The samples file that belongs to a report: `x.csv` → `x.samples.csv`.
    public static func samplesPath(for path: String) -> String {
        path.hasSuffix(".csv") ? String(path.dropLast(4)) + ".samples.csv" : path + ".samples.csv"
    }

    /// The report CSV text.
    public func csv() -> String {
        var out = CSV.record(Self.columns)
        let m = metadata
        let meta = [String(m.schemaVersion), m.runID, m.timestamp, m.toolVersion, m.gitCommit,
                    m.gitDirty ? "true" : "false", m.toolchain, m.buildConfiguration, m.cpuModel,
                    String(m.cpuCount), m.os, m.kernel, m.loadAverage, m.allocator]
        for r in results {
            var row = meta
            row += [r.key.benchmark, r.key.implementation, r.role.rawValue, r.key.dataset, String(r.datasetBytes),
                    String(r.datasetItems), r.key.parameters, r.metric, r.status.rawValue]
            if let s = r.summary, r.status.hasMeasurement {
                row += [String(s.count), String(r.iterationsPerSample)]
                row += [s.min, s.p25, s.median, s.p75, s.p90, s.p99, s.max, s.mean, s.stddev, s.cv,
                        s.ciLow, s.ciHigh].map(CSV.number)
            } else {
                row += Array(repeating: "", count: 14)
            }
            if let ratio = r.ratio {
                row += [ratio.reference, CSV.number(ratio.value), CSV.number(ratio.low),
                        CSV.number(ratio.high)]
            } else {
                row += ["", "", "", ""]
            }
            if let s = r.speedup {
                row += [CSV.number(s.value), CSV.number(s.low), CSV.number(s.high)]
            } else {
                row += ["", "", ""]
            }
            row.append(r.detail)
            out += CSV.record(row)
        }
        return out
    }

    /// The samples CSV text: one row per raw sample.
    public func samplesCSV() -> String {
        var out = CSV.record(Self.sampleColumns)
        for r in results where r.status.hasMeasurement {
            for (i, v) in r.samples.enumerated() {
                out += CSV.record([metadata.runID, r.key.benchmark, r.key.implementation,
                                   r.key.dataset, r.key.parameters, r.metric, String(i),
                                   String(r.iterationsPerSample), CSV.number(v)])
            }
        }
        return out
    }

    /// Writes the report and its samples file beside it.
    public func write(to path: String) throws {
        try FileIO.writeText(path, csv())
        try FileIO.writeText(Self.samplesPath(for: path), samplesCSV())
    }
}

