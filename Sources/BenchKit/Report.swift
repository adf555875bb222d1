import GraticuleSupport
/// Metadata that every row of a run carries.
public struct RunMetadata: Equatable, Sendable {
    public static let currentSchemaVersion = 2

    public var schemaVersion: Int = RunMetadata.currentSchemaVersion
    public var runID: String
    /// ISO 8601 UTC.
    public var timestamp: String
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

        /// True for every status that means the case has no valid measurement because
        /// something went wrong (not `ok`, not `unsupported`).
        public var isFailure: Bool { self != .ok && self != .unsupported }
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

    public init(key: CaseKey, datasetBytes: Int, datasetItems: Int, metric: String, status: Status,
                iterationsPerSample: Int = 0, samples: [Double] = [], summary: SampleSummary? = nil,
                ratio: Ratio? = nil, detail: String = "") {
        self.key = key
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
    public static func measured(_ key: CaseKey, bytes: Int, items: Int, metric: Metric,
                                iterations: Int, samples: [Double]) -> MetricResult {
        MetricResult(key: key, datasetBytes: bytes, datasetItems: items, metric: metric.rawValue,
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

    /// Column order of the report CSV (schema version 2). Never reordered; new columns
    /// only ever come with a new schema version. Version 2 named the two ratios apart:
    /// `ratio_to_reference` (this median ÷ the reference's, any metric) and `speedup`
    /// (the reference's time ÷ this time, `time_ns` rows), where version 1 had one `ratio`.
    public static let columns = [
        "schema_version", "run_id", "timestamp", "git_commit", "git_dirty", "toolchain",
        "build_configuration", "cpu_model", "cpu_count", "os", "kernel", "load_average",
        "allocator", "benchmark", "implementation", "dataset", "dataset_bytes", "dataset_items",
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
        let meta = [String(m.schemaVersion), m.runID, m.timestamp, m.gitCommit,
                    m.gitDirty ? "true" : "false", m.toolchain, m.buildConfiguration, m.cpuModel,
                    String(m.cpuCount), m.os, m.kernel, m.loadAverage, m.allocator]
        for r in results {
            var row = meta
            row += [r.key.benchmark, r.key.implementation, r.key.dataset, String(r.datasetBytes),
                    String(r.datasetItems), r.key.parameters, r.metric, r.status.rawValue]
            if let s = r.summary, r.status == .ok {
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
        for r in results where r.status == .ok {
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

/// Reasons a report cannot be read.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String)
    case badCSV(path: String, line: Int, reason: String)
    case wrongHeader(path: String, expected: String, found: String)
    case unsupportedSchema(path: String, version: String)
    case badField(path: String, line: Int, column: String, value: String)
    case empty(path: String)
    /// The samples file beside a report holds samples of another run.
    case samplesFromAnotherRun(path: String, report: String, samples: String)

    public var description: String {
        switch self {
        case .unreadable(let p): return "\(p): cannot read file"
        case .badCSV(let p, let l, let r): return "\(p):\(l): \(r)"
        case .wrongHeader(let p, let e, let f): return "\(p): header is not a Graticule report (expected \(e), found \(f))"
        case .unsupportedSchema(let p, let v): return "\(p): schema version \(v) is not supported (this build reads \(RunMetadata.currentSchemaVersion))"
        case .badField(let p, let l, let c, let v): return "\(p):\(l): column \(c) has an invalid value '\(v)'"
        case .empty(let p): return "\(p): no rows"
        case .samplesFromAnotherRun(let p, let r, let x):
            return "\(p): its samples are from run \(x), the report is run \(r); a gate cannot test them against each other"
        }
    }
}

extension RunReport {
    /// Reads a report and, when present, its samples file (a report without samples can
    /// be rendered but its time metrics cannot be gated).
    public static func read(path: String) throws -> RunReport {
        guard let text = try? FileIO.readText(path) else { throw ReportError.unreadable(path: path) }
        let samplesPath = Self.samplesPath(for: path)
        let samplesText = FileIO.exists(samplesPath) ? try? FileIO.readText(samplesPath) : nil
        return try parse(csv: text, samples: samplesText, path: path)
    }

    /// Parses report text (and samples text) into a report.
    public static func parse(csv text: String, samples samplesText: String?, path: String = "<report>") throws
        -> RunReport
    {
        let records: [[String]]
        do { records = try CSV.parse(text) } catch let e as CSV.ParseError {
            throw ReportError.badCSV(path: path, line: e.line, reason: e.reason)
        }
        guard let header = records.first else { throw ReportError.empty(path: path) }
        guard header == columns else {
            if let v = header.firstIndex(of: "schema_version"), records.count > 1,
               records[1].count > v, records[1][v] != String(RunMetadata.currentSchemaVersion) {
                throw ReportError.unsupportedSchema(path: path, version: records[1][v])
            }
            throw ReportError.wrongHeader(path: path, expected: columns.joined(separator: ","),
                                          found: header.joined(separator: ","))
        }
        guard records.count > 1 else { throw ReportError.empty(path: path) }
        var samples: [String: [Double]] = [:]
        var sampleRuns: Set<String> = []
        if let samplesText {
            let srecs: [[String]]
            do { srecs = try CSV.parse(samplesText) } catch let e as CSV.ParseError {
                throw ReportError.badCSV(path: samplesPath(for: path), line: e.line, reason: e.reason)
            }
            guard srecs.first == sampleColumns else {
                throw ReportError.wrongHeader(path: samplesPath(for: path),
                                              expected: sampleColumns.joined(separator: ","),
                                              found: srecs.first?.joined(separator: ",") ?? "")
            }
            for (i, r) in srecs.dropFirst().enumerated() {
                guard r.count == sampleColumns.count, let v = Double(r[8]) else {
                    throw ReportError.badField(path: samplesPath(for: path), line: i + 2,
                                               column: "value", value: r.last ?? "")
                }
                samples["\(r[1])|\(r[2])|\(r[3])|\(r[4])|\(r[5])", default: []].append(v)
                sampleRuns.insert(r[0])
            }
        }
        var metadata: RunMetadata?
        var results: [MetricResult] = []
        for (index, r) in records.dropFirst().enumerated() {
            let line = index + 2
            guard r.count == columns.count else {
                throw ReportError.badCSV(path: path, line: line,
                                         reason: "\(r.count) fields, expected \(columns.count)")
            }
            func col(_ name: String) -> String { r[columns.firstIndex(of: name)!] }
            func int(_ name: String) throws -> Int {
                guard let v = Int(col(name)) else {
                    throw ReportError.badField(path: path, line: line, column: name, value: col(name))
                }
                return v
            }
            func dbl(_ name: String) throws -> Double {
                guard let v = Double(col(name)) else {
                    throw ReportError.badField(path: path, line: line, column: name, value: col(name))
                }
                return v
            }
            guard col("schema_version") == String(RunMetadata.currentSchemaVersion) else {
                throw ReportError.unsupportedSchema(path: path, version: col("schema_version"))
            }
            if metadata == nil {
                if let other = sampleRuns.first(where: { $0 != col("run_id") }) {
                    throw ReportError.samplesFromAnotherRun(path: samplesPath(for: path), report: col("run_id"), samples: other)
                }
                metadata = RunMetadata(
                    runID: col("run_id"), timestamp: col("timestamp"), gitCommit: col("git_commit"),
                    gitDirty: col("git_dirty") == "true", toolchain: col("toolchain"),
                    buildConfiguration: col("build_configuration"), cpuModel: col("cpu_model"),
                    cpuCount: try int("cpu_count"), os: col("os"), kernel: col("kernel"),
                    loadAverage: col("load_average"), allocator: col("allocator"))
            }
            guard let status = MetricResult.Status(rawValue: col("status")) else {
                throw ReportError.badField(path: path, line: line, column: "status", value: col("status"))
            }
            let key = CaseKey(benchmark: col("benchmark"), implementation: col("implementation"),
                              dataset: col("dataset"), parameters: col("parameters"))
            var result = MetricResult(key: key, datasetBytes: try int("dataset_bytes"),
                                      datasetItems: try int("dataset_items"), metric: col("metric"),
                                      status: status, detail: col("detail"))
            if status == .ok {
                result.iterationsPerSample = try int("iterations_per_sample")
                result.summary = SampleSummary(
                    count: try int("samples"), min: try dbl("min"), p25: try dbl("p25"),
                    median: try dbl("median"), p75: try dbl("p75"), p90: try dbl("p90"),
                    p99: try dbl("p99"), max: try dbl("max"), mean: try dbl("mean"),
                    stddev: try dbl("stddev"), cv: try dbl("cv"), ciLow: try dbl("ci95_low"),
                    ciHigh: try dbl("ci95_high"))
                result.samples = samples["\(key.benchmark)|\(key.implementation)|\(key.dataset)|\(key.parameters)|\(result.metric)"] ?? []
            }
            if !col("reference").isEmpty {
                result.ratio = .init(reference: col("reference"), value: try dbl("ratio_to_reference"),
                                     low: try dbl("ratio_to_reference_ci95_low"),
                                     high: try dbl("ratio_to_reference_ci95_high"))
            }
            results.append(result)
        }
        return RunReport(metadata: metadata!, results: results)
    }
}
