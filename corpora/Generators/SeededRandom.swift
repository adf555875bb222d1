/// The generators' random source: SplitMix64, chosen because its output is fully
/// specified by its seed on every platform (Swift's own generators are not seedable).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (platform-independent, unlike
    /// `Double.random(in:using:)` whose algorithm is not part of its contract).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [lo, hi).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * unit()
    }

    /// Uniform integer in [0, n).
    public mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(n))
    }

    /// Standard normal deviate (Box–Muller; uses two uniforms).
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
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
