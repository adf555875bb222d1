import GraticuleSupport

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

    /// Writes the report and its samples file beside it, both or neither.
    public func write(to path: String) throws {
        try FileIO.writeAll(files(at: path))
    }

    /// The report at `path` and its samples file beside it, as bytes to write (with a
    /// command's other outputs, as one set).
    public func files(at path: String) -> [(path: String, bytes: [UInt8])] {
        [(path, Array(csv().utf8)), (Self.samplesPath(for: path), Array(samplesCSV().utf8))]
    }
}
