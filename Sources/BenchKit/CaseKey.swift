import GraticuleSupport

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
