import GraticuleSupport

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
