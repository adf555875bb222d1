import GraticuleSupport

/// Reasons a report cannot be read. Each names the file, and where it can the line and
/// the column, so a CI log points at the byte that made the gate refuse.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String)
    case badCSV(path: String, line: Int, reason: String)
    case wrongHeader(path: String, expected: String, found: String)
    case unsupportedSchema(path: String, version: String)
    case badField(path: String, line: Int, column: String, value: String)
    /// A value that parses but cannot be what the column measures (a time of zero, a
    /// negative count, a median above the maximum, ...).
    case impossibleValue(path: String, line: Int, column: String, value: String, reason: String)
    /// The same case and metric (or the same sample) twice: which copy counts cannot be
    /// decided, so neither does.
    case duplicateRow(path: String, line: Int, firstLine: Int, what: String)
    case empty(path: String)
    /// The samples file beside a report holds samples of another run.
    case samplesFromAnotherRun(path: String, report: String, samples: String)

    /// "2", "2 and 3", "2, 3 and 4".
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    public var description: String {
        switch self {
        case .unreadable(let p): return "\(p): cannot read file"
        case .badCSV(let p, let l, let r): return "\(p):\(l): \(r)"
        case .wrongHeader(let p, let e, let f): return "\(p): header is not a Graticule report (expected \(e), found \(f))"
        case .unsupportedSchema(let p, let v):
            return "\(p): schema version \(v) is not supported (this build reads "
                + Self.list(RunMetadata.readableSchemaVersions.map(String.init)) + ")"
        case .badField(let p, let l, let c, let v): return "\(p):\(l): column \(c) has an invalid value '\(v)'"
        case .impossibleValue(let p, let l, let c, let v, let r): return "\(p):\(l): column \(c) has an impossible value '\(v)': \(r)"
        case .duplicateRow(let p, let l, let f, let w): return "\(p):\(l): \(w) repeats line \(f); a report holds each once"
        case .empty(let p): return "\(p): no rows"
        case .samplesFromAnotherRun(let p, let r, let x):
            return "\(p): its samples are from run \(x), the report is run \(r); a gate cannot test them against each other"
        }
    }
}

extension Metric {
    /// Whether a value of this metric must be above zero (a time, a rate, an instruction
    /// count); otherwise it must be zero or more (allocations: a workload may make none).
    var mustBePositive: Bool {
        switch self {
        case .timeNs, .throughputMBPerS, .throughputItemsPerS, .instructions, .peakResidentBytes: return true
        case .allocCount, .allocBytes, .peakHeapBytes: return false
        }
    }

    /// Why `value` cannot be a value of this metric, or nil when it can.
    func impossibility(_ value: Double) -> String? {
        guard value.isFinite else { return "not a finite number" }
        if mustBePositive && value <= 0 { return "\(rawValue) must be above zero" }
        if value < 0 { return "\(rawValue) cannot be negative" }
        return nil
    }
}

extension RunReport {
    /// The columns of schema version 3 (no `tool_version`).
    static let columnsV3 = columns.filter { $0 != "tool_version" }
    /// The columns of schema version 2 (no `role`).
    static let columnsV2 = columnsV3.filter { $0 != "role" }

    /// Reads a report and, when present, its samples file (a report without samples can
    /// be rendered but its time metrics cannot be gated).
    ///
    /// - Throws: `ReportError` for anything that is not a well-formed report: every number
    ///   is parsed as checked (finite, within the metric's range, quantiles in order), and a
    ///   case and metric given twice is refused rather than resolved.
    public static func read(path: String) throws -> RunReport {
        guard let text = try? FileIO.readText(path) else { throw ReportError.unreadable(path: path) }
        let samplesPath = Self.samplesPath(for: path)
        var samplesText: String?
        if FileIO.exists(samplesPath) {
            guard let t = try? FileIO.readText(samplesPath) else { throw ReportError.unreadable(path: samplesPath) }
            samplesText = t
        }
        return try parse(csv: text, samples: samplesText, path: path)
    }

    /// Parses report text (and samples text) into a report. See ``read(path:)``.
    public static func parse(csv text: String, samples samplesText: String?, path: String = "<report>") throws
        -> RunReport
    {
        let records: [[String]]
        do { records = try CSV.parse(text) } catch let e as CSV.ParseError {
            throw ReportError.badCSV(path: path, line: e.line, reason: e.reason)
        }
        guard let header = records.first else { throw ReportError.empty(path: path) }
        let version: Int
        if header == columns {
            version = RunMetadata.currentSchemaVersion
        } else if header == columnsV3 {
            version = 3
        } else if header == columnsV2 {
            version = 2
        } else {
            if let v = header.firstIndex(of: "schema_version"), records.count > 1,
               records[1].count > v, !RunMetadata.readableSchemaVersions.map(String.init).contains(records[1][v]) {
                throw ReportError.unsupportedSchema(path: path, version: records[1][v])
            }
            throw ReportError.wrongHeader(path: path, expected: columns.joined(separator: ","),
                                          found: header.joined(separator: ","))
        }
        guard records.count > 1 else { throw ReportError.empty(path: path) }
        let samples = try parseSamples(samplesText, path: samplesPath(for: path))

        var metadata: RunMetadata?
        var firstRow: _ReportRow?
        var results: [MetricResult] = []
        var seen: [String: Int] = [:]
        var usedSamples: Set<String> = []
        for (index, r) in records.dropFirst().enumerated() {
            let line = index + 2
            guard r.count == header.count else {
                throw ReportError.badCSV(path: path, line: line,
                                         reason: "\(r.count) fields, expected \(header.count)")
            }
            let row = _ReportRow(fields: r, header: header, path: path, line: line)
            guard row["schema_version"] == String(version) else {
                throw ReportError.unsupportedSchema(path: path, version: row["schema_version"])
            }
            if metadata == nil {
                if let other = samples.runs.first(where: { $0 != row["run_id"] }) {
                    throw ReportError.samplesFromAnotherRun(path: samplesPath(for: path), report: row["run_id"], samples: other)
                }
                metadata = RunMetadata(
                    runID: row["run_id"], timestamp: row["timestamp"], gitCommit: row["git_commit"],
                    gitDirty: row["git_dirty"] == "true", toolchain: row["toolchain"],
                    buildConfiguration: row["build_configuration"], cpuModel: row["cpu_model"],
                    cpuCount: try row.count("cpu_count"), os: row["os"], kernel: row["kernel"],
                    loadAverage: row["load_average"], allocator: row["allocator"])
                metadata!.toolVersion = version >= 4 ? row["tool_version"] : ""
            } else if row["run_id"] != metadata!.runID {
                throw ReportError.impossibleValue(path: path, line: line, column: "run_id", value: row["run_id"],
                                                  reason: "line 2 is run \(metadata!.runID); a report holds one run")
            } else if let column = Self.runColumns.first(where: { header.contains($0) && row[$0] != firstRow![$0] }) {
                // One run has one machine, build and time: a row that says otherwise was
                // edited or comes from another report.
                throw ReportError.impossibleValue(path: path, line: line, column: column, value: row[column],
                                                  reason: "line 2 of run \(metadata!.runID) says '\(firstRow![column])'; a run's rows share it")
            }
            if firstRow == nil { firstRow = row }
            guard let status = MetricResult.Status(rawValue: row["status"]) else {
                throw ReportError.badField(path: path, line: line, column: "status", value: row["status"])
            }
            guard let metric = Metric(rawValue: row["metric"]) else {
                throw ReportError.badField(path: path, line: line, column: "metric", value: row["metric"])
            }
            let role: MetricResult.Role
            if version >= 3 {
                guard let r = MetricResult.Role(rawValue: row["role"]) else {
                    throw ReportError.badField(path: path, line: line, column: "role", value: row["role"])
                }
                role = r
            } else {
                role = MetricResult.Role.inferred(for: row["implementation"])
            }
            let key = CaseKey(benchmark: row["benchmark"], implementation: row["implementation"],
                              dataset: row["dataset"], parameters: row["parameters"])
            let id = key.description + "#" + metric.rawValue
            if let first = seen[id] {
                throw ReportError.duplicateRow(path: path, line: line, firstLine: first,
                                               what: "case \(key) metric \(metric.rawValue)")
            }
            seen[id] = line
            var result = MetricResult(key: key, role: role, datasetBytes: try row.count("dataset_bytes"),
                                      datasetItems: try row.count("dataset_items"), metric: metric.rawValue,
                                      status: status, detail: row["detail"])
            if status.hasMeasurement {
                result.iterationsPerSample = try row.count("iterations_per_sample", atLeast: 1)
                result.summary = try row.summary(metric)
                if let s = samples.values[id] {
                    for (i, v) in s.values.enumerated() where v == nil {
                        throw ReportError.badField(path: samplesPath(for: path), line: s.lines[i], column: "sample",
                                                   value: "missing sample \(i) of \(key) \(metric.rawValue)")
                    }
                    let values = s.values.map { $0! }
                    guard values.count == result.summary!.count else {
                        throw ReportError.impossibleValue(
                            path: path, line: line, column: "samples", value: String(result.summary!.count),
                            reason: "the samples file holds \(values.count) samples of this case and metric")
                    }
                    try Self.checkSummary(result.summary!, of: values, row: row)
                    result.samples = values
                    usedSamples.insert(id)
                }
            }
            if !row["reference"].isEmpty {
                result.ratio = .init(reference: row["reference"], value: try row.positive("ratio_to_reference"),
                                     low: try row.positive("ratio_to_reference_ci95_low"),
                                     high: try row.positive("ratio_to_reference_ci95_high"))
            }
            results.append(result)
        }
        // Every sample belongs to a measured row of the report: samples of a case (or metric)
        // the report does not hold are from somewhere else.
        if let stray = samples.values.keys.filter({ !usedSamples.contains($0) }).min(by: {
            samples.values[$0]!.lines.min()! < samples.values[$1]!.lines.min()!
        }) {
            let s = samples.values[stray]!
            throw ReportError.impossibleValue(path: samplesPath(for: path), line: s.lines.min()!, column: "benchmark",
                                              value: stray, reason: "the report holds no measured row of this case and metric")
        }
        return RunReport(metadata: metadata!, results: results)
    }

    /// The columns every row of one run repeats from line 2.
    static let runColumns = ["timestamp", "tool_version", "git_commit", "git_dirty", "toolchain", "build_configuration",
                             "cpu_model", "cpu_count", "os", "kernel", "load_average", "allocator"]

    /// The report's quantiles and mean must be those of the samples beside it (the runner
    /// writes them from those samples): a row or a samples file changed alone no longer agree.
    private static func checkSummary(_ s: SampleSummary, of samples: [Double], row: _ReportRow) throws {
        let sorted = samples.sorted()
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        let want: [(String, Double, Double)] = [
            ("min", s.min, sorted[0]), ("p25", s.p25, Statistics.quantile(sorted: sorted, 0.25)),
            ("median", s.median, Statistics.quantile(sorted: sorted, 0.5)),
            ("p75", s.p75, Statistics.quantile(sorted: sorted, 0.75)), ("p90", s.p90, Statistics.quantile(sorted: sorted, 0.90)),
            ("p99", s.p99, Statistics.quantile(sorted: sorted, 0.99)), ("max", s.max, sorted[sorted.count - 1]),
            ("mean", s.mean, mean)]
        for (column, given, computed) in want where abs(given - computed) > 1e-9 * max(abs(computed), 1e-300) {
            throw ReportError.impossibleValue(path: row.path, line: row.line, column: column, value: row[column],
                                              reason: "the samples beside the report give \(computed)")
        }
    }

    /// Samples by `CASE-ID#METRIC`, in sample order (nil where an index is missing), with
    /// the line each came from, and the run ids they carry.
    private static func parseSamples(_ text: String?, path: String) throws
        -> (values: [String: (values: [Double?], lines: [Int])], runs: Set<String>)
    {
        guard let text else { return ([:], []) }
        let srecs: [[String]]
        do { srecs = try CSV.parse(text) } catch let e as CSV.ParseError {
            throw ReportError.badCSV(path: path, line: e.line, reason: e.reason)
        }
        guard srecs.first == sampleColumns else {
            throw ReportError.wrongHeader(path: path, expected: sampleColumns.joined(separator: ","),
                                          found: srecs.first?.joined(separator: ",") ?? "")
        }
        var out: [String: (values: [Double?], lines: [Int])] = [:]
        var runs: Set<String> = []
        var seen: [String: Int] = [:]
        for (i, r) in srecs.dropFirst().enumerated() {
            let line = i + 2
            guard r.count == sampleColumns.count else {
                throw ReportError.badCSV(path: path, line: line, reason: "\(r.count) fields, expected \(sampleColumns.count)")
            }
            guard let metric = Metric(rawValue: r[5]) else {
                throw ReportError.badField(path: path, line: line, column: "metric", value: r[5])
            }
            guard let index = Int(r[6]), index >= 0, index < 1_000_000 else {
                throw ReportError.badField(path: path, line: line, column: "sample", value: r[6])
            }
            guard let v = Double(r[8]) else {
                throw ReportError.badField(path: path, line: line, column: "value", value: r[8])
            }
            if let why = metric.impossibility(v) {
                throw ReportError.impossibleValue(path: path, line: line, column: "value", value: r[8], reason: why)
            }
            let key = CaseKey(benchmark: r[1], implementation: r[2], dataset: r[3], parameters: r[4])
            let id = key.description + "#" + metric.rawValue
            if let first = seen[id + "#" + r[6]] {
                throw ReportError.duplicateRow(path: path, line: line, firstLine: first,
                                               what: "sample \(index) of \(key) \(metric.rawValue)")
            }
            seen[id + "#" + r[6]] = line
            var entry = out[id] ?? ([], [])
            if entry.values.count <= index {
                entry.values += Array(repeating: nil, count: index + 1 - entry.values.count)
                entry.lines += Array(repeating: line, count: index + 1 - entry.lines.count)
            }
            entry.values[index] = v
            entry.lines[index] = line
            out[id] = entry
            runs.insert(r[0])
        }
        return (out, runs)
    }
}

/// One report row read by column name, with checked numbers.
private struct _ReportRow {
    let fields: [String]
    let header: [String]
    let path: String
    let line: Int

    subscript(_ name: String) -> String { fields[header.firstIndex(of: name)!] }

    func bad(_ name: String) -> ReportError { .badField(path: path, line: line, column: name, value: self[name]) }

    /// A whole number of at least `atLeast` (a value beyond Int's range is refused, never
    /// wrapped or trapped).
    func count(_ name: String, atLeast: Int = 0) throws -> Int {
        guard let v = Int(self[name]), v >= atLeast else { throw bad(name) }
        return v
    }

    func finite(_ name: String) throws -> Double {
        guard let v = Double(self[name]) else { throw bad(name) }
        guard v.isFinite else {
            throw ReportError.impossibleValue(path: path, line: line, column: name, value: self[name], reason: "not a finite number")
        }
        return v
    }

    func positive(_ name: String) throws -> Double {
        let v = try finite(name)
        guard v > 0 else {
            throw ReportError.impossibleValue(path: path, line: line, column: name, value: self[name], reason: "a ratio is above zero")
        }
        return v
    }

    /// The summary columns of a measured row: finite, within the metric's range, and in
    /// order (min ≤ p25 ≤ median ≤ p75 ≤ p90 ≤ p99 ≤ max, ci95_low ≤ ci95_high).
    func summary(_ metric: Metric) throws -> SampleSummary {
        func value(_ name: String) throws -> Double {
            let v = try finite(name)
            if let why = metric.impossibility(v) {
                throw ReportError.impossibleValue(path: path, line: line, column: name, value: self[name], reason: why)
            }
            return v
        }
        let quantiles = ["min", "p25", "median", "p75", "p90", "p99", "max"]
        let q = try quantiles.map(value)
        for i in 1..<q.count where q[i] < q[i - 1] {
            throw ReportError.impossibleValue(path: path, line: line, column: quantiles[i], value: self[quantiles[i]],
                                              reason: "below \(quantiles[i - 1]) \(self[quantiles[i - 1]])")
        }
        let low = try value("ci95_low"), high = try value("ci95_high")
        guard low <= high else {
            throw ReportError.impossibleValue(path: path, line: line, column: "ci95_low", value: self["ci95_low"],
                                              reason: "above ci95_high \(self["ci95_high"])")
        }
        let stddev = try finite("stddev"), cv = try finite("cv")
        guard stddev >= 0 else {
            throw ReportError.impossibleValue(path: path, line: line, column: "stddev", value: self["stddev"], reason: "negative")
        }
        guard cv >= 0 else {
            throw ReportError.impossibleValue(path: path, line: line, column: "cv", value: self["cv"], reason: "negative")
        }
        return SampleSummary(count: try count("samples", atLeast: 1), min: q[0], p25: q[1], median: q[2], p75: q[3],
                             p90: q[4], p99: q[5], max: q[6], mean: try value("mean"), stddev: stddev, cv: cv,
                             ciLow: low, ciHigh: high)
    }
}
