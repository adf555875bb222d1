/// Consumes a value so the optimiser cannot delete the work that produced it.
///
/// Benchmarks pass every result through it. It is not inlinable and lives in another
/// module than the benchmarks, so the compiler cannot see that it does nothing.
///
/// - Complexity: O(1); allocates nothing.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
