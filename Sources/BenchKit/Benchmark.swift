import GraticuleSupport
/// A named input for benchmarks: its bytes and how many items (features, values, ...) they hold.
///
/// Datasets are materialised lazily, so a run that filters down to one benchmark generates
/// or reads only the data that benchmark needs. The bytes are kept for the whole run.
public final class Dataset: @unchecked Sendable {
    /// Stable name, written to the `dataset` column (e.g. `generated/points-10k`).
    public let name: String
    /// What the bytes are (`geojson`, `pbf-varints`, ...); benchmarks pick datasets by kind.
    public let kind: String
    private let loader: () throws -> (bytes: [UInt8], items: Int)
    private var loaded: (bytes: [UInt8], items: Int)?
    private var filePath: String?

    /// - Parameters:
    ///   - name: the name written to reports.
    ///   - kind: the content type benchmarks select on.
    ///   - load: produces the bytes and the item count; called at most once.
    public init(name: String, kind: String, load: @escaping () throws -> (bytes: [UInt8], items: Int)) {
        self.name = name
        self.kind = kind
        self.loader = load
    }

    /// A dataset read from a file; `items` counts what the file holds.
    public convenience init(name: String, kind: String, path: String, items: @escaping ([UInt8]) -> Int) {
        self.init(name: name, kind: kind) {
            let bytes = try FileIO.readAll(path)
            return (bytes, items(bytes))
        }
        self.filePath = path
    }

    /// The dataset's bytes (loads them on first use).
    public func bytes() throws -> [UInt8] { try materialise().bytes }
    /// How many items the dataset holds (loads it on first use).
    public func items() throws -> Int { try materialise().items }

    /// A file holding the bytes, for external implementations; written on first use.
    public func path(in directory: String) throws -> String {
        if let filePath { return filePath }
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let path = directory + "/" + String(safe) + "." + kind
        try FileIO.writeAll(path, try bytes())
        filePath = path
        return path
    }

    private func materialise() throws -> (bytes: [UInt8], items: Int) {
        if let loaded { return loaded }
        let value = try loader()
        loaded = value
        return value
    }
}

/// The work one benchmark does, returned by its setup: `run(n)` performs the operation
/// `n` times and passes each result to `blackHole`.
public struct Workload {
    public let run: (_ iterations: Int) -> Void
    public init(_ run: @escaping (_ iterations: Int) -> Void) { self.run = run }
}

/// One benchmark case: an operation, the implementation performing it, the dataset and
/// parameters. Its identity (`id`) is what reports, baselines and comparisons key on.
public struct BenchmarkCase {
    public enum Body {
        /// Runs in this process. `setup` is not timed.
        case inProcess(setup: (Dataset) throws -> Workload)
        /// An outside program speaking the external protocol (see `ExternalProgram`).
        case external(ExternalProgram)
    }

    /// Operation name, `core.operation` (e.g. `geojson.parse`).
    public let name: String
    /// Who performs it (e.g. `graticule`, `foundation.jsonserialization`, `python.orjson`).
    public let implementation: String
    public let dataset: Dataset
    /// Parameters as `key=value` pairs; written sorted, `;`-separated.
    public let parameters: [String: String]
    /// Part of the `--quick` suite.
    public let quick: Bool
    public let body: Body
    /// Computes the case's result on the dataset (untimed, after setup), which the runner
    /// compares with the reference implementation's before timing; nil: not checked
    /// (external programs are checked through their `checksResult`).
    public let check: ((Dataset) throws -> ResultCheck)?
    /// Operations after which the work repeats exactly: a workload that cycles through P
    /// inputs has period P, one that applies a diff and then its inverse has period 2.
    /// Allocation and instruction counts are taken over whole periods, so they repeat from
    /// run to run (the gate compares them exactly).
    public let period: Int
    /// Who the implementation is to the project: what a gate gates by default.
    public let role: MetricResult.Role

    /// A `role` of nil is inferred from the name (`graticule` is the project's, every other
    /// implementation a peer); an implementation a user brings is a `candidate`.
    public init(name: String, implementation: String, dataset: Dataset,
                parameters: [String: String] = [:], quick: Bool = true, body: Body,
                check: ((Dataset) throws -> ResultCheck)? = nil, period: Int = 1,
                role: MetricResult.Role? = nil) {
        precondition(period >= 1, "a period is at least one operation")
        self.period = period
        self.role = role ?? MetricResult.Role.inferred(for: implementation)
        self.name = name
        self.implementation = implementation
        self.dataset = dataset
        self.parameters = parameters
        self.quick = quick
        self.body = body
        self.check = check
    }

    /// `n` operations rounded to whole periods (at least one period).
    public func wholePeriods(_ n: Int) -> Int {
        max(period, (n + period / 2) / period * period)
    }

    /// Parameters as written to the CSV: sorted `key=value` joined by `;`.
    public var parameterString: String {
        parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    }

    /// The key reports use: `name|implementation|dataset|parameters`.
    public var id: CaseKey {
        CaseKey(benchmark: name, implementation: implementation, dataset: dataset.name,
                parameters: parameterString)
    }
}

/// Identity of a case in reports and comparisons.
public struct CaseKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var benchmark: String
    public var implementation: String
    public var dataset: String
    public var parameters: String

    public init(benchmark: String, implementation: String, dataset: String, parameters: String) {
        self.benchmark = benchmark
        self.implementation = implementation
        self.dataset = dataset
        self.parameters = parameters
    }

    /// The same case without the implementation: cases sharing it are compared.
    public var comparisonGroup: String { "\(benchmark)|\(dataset)|\(parameters)" }

    public var description: String {
        "\(benchmark)|\(implementation)|\(dataset)" + (parameters.isEmpty ? "" : "|\(parameters)")
    }

    public static func < (a: CaseKey, b: CaseKey) -> Bool {
        (a.benchmark, a.dataset, a.parameters, a.implementation)
            < (b.benchmark, b.dataset, b.parameters, b.implementation)
    }
}

/// A registry of benchmark cases.
public struct BenchmarkSuite {
    public let name: String
    public private(set) var cases: [BenchmarkCase] = []
    /// The role of the in-process cases added without one (nil: inferred from the
    /// implementation's name). Set while a user's implementations register, so their cases
    /// are candidates.
    public var registeringRole: MetricResult.Role?

    public init(name: String) { self.name = name }

    /// Registers an in-process benchmark. `setup` runs once, untimed, and returns the work.
    public mutating func add(_ name: String, implementation: String, dataset: Dataset,
                             parameters: [String: String] = [:], quick: Bool = true,
                             check: ((Dataset) throws -> ResultCheck)? = nil, period: Int = 1,
                             role: MetricResult.Role? = nil,
                             setup: @escaping (Dataset) throws -> Workload) {
        cases.append(BenchmarkCase(name: name, implementation: implementation, dataset: dataset,
                                   parameters: parameters, quick: quick,
                                   body: .inProcess(setup: setup), check: check, period: period,
                                   role: role ?? registeringRole))
    }

    public mutating func add(_ benchmarkCase: BenchmarkCase) {
        cases.append(benchmarkCase)
    }

    /// The cases a run selects: quick ones only when `quick`, names matching `filter`
    /// (a substring of `name|implementation|dataset|parameters`, or several joined by `,`).
    public func selected(quick: Bool, filter: String?) -> [BenchmarkCase] {
        selectedIndices(quick: quick, filter: filter).map { cases[$0] }
    }

    /// The cases of `reference` that the selected cases are compared with but that the
    /// selection left out: the runner computes their results (untimed) so that every
    /// selected case is still checked.
    public func unselectedReferences(for selected: [BenchmarkCase], reference: String) -> [BenchmarkCase] {
        let chosen = Set(selected.map(\.id))
        let groups = Set(selected.filter { $0.implementation != reference }.map(\.id.comparisonGroup))
        return cases.filter { $0.implementation == reference && !chosen.contains($0.id) && groups.contains($0.id.comparisonGroup) }
    }

    private func selectedIndices(quick: Bool, filter: String?) -> [Int] {
        let patterns = (filter ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
        return cases.indices.filter { i in
            let c = cases[i]
            return (!quick || c.quick)
                && (patterns.isEmpty || patterns.contains { c.id.description.contains($0) })
        }
    }
}
