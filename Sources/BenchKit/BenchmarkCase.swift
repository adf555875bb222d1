import GraticuleSupport

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
