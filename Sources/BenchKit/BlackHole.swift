/// Consumes a value so the optimiser cannot delete the work that produced it.
///
/// Benchmarks pass every result through it. It is not inlinable and lives in another
/// module than the benchmarks, so the compiler cannot see that it does nothing.
///
/// - Complexity: O(1); allocates nothing.
/// `@_optimize(none)` keeps the body opaque even when cross-module optimisation makes it
/// visible, so callers must assume it reads (and may change) whatever the value reaches.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: T) {}
