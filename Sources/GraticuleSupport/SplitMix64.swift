/// The package's one seeded random source: SplitMix64 (Steele, Lea and Flood, 2014). Its
/// output is fixed by its seed on every platform, which Swift's own generators do not
/// promise; generators, statistics (bootstrap, interleaving) and property tests use it so
/// that a seed reproduces a dataset, an interval or a failing case exactly.
///
/// - Complexity: O(1) per value; allocates nothing.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (platform-independent, unlike
    /// `Double.random(in:using:)`, whose algorithm is not part of its contract).
    @inlinable
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * unit()
    }

    /// Uniform integer in [0, n) (modulo reduction: the bias is below n / 2^64).
    /// - Precondition: n > 0.
    @inlinable
    public mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(n))
    }

    /// A standard normal deviate (Box–Muller, from two uniforms).
    public mutating func normal() -> Double {
        let u1 = max(unit(), 0x1.0p-53)
        let u2 = unit()
        return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
