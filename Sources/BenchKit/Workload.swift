import GraticuleSupport

/// The work one benchmark does, returned by its setup: `run(n)` performs the operation
/// `n` times and passes each result to `blackHole`.
public struct Workload {
    public let run: (_ iterations: Int) -> Void
    public init(_ run: @escaping (_ iterations: Int) -> Void) { self.run = run }
}
