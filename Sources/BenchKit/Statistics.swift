import GraticuleSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Summary statistics of one metric's samples, as written to the report.
public struct SampleSummary: Equatable, Sendable {
    public var count: Int
    public var min: Double
    public var p25: Double
    public var median: Double
    public var p75: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
    public var mean: Double
    /// Sample standard deviation (n − 1); 0 for a single sample.
    public var stddev: Double
    /// Coefficient of variation, stddev / mean; 0 when the mean is 0.
    public var cv: Double
    /// Bootstrap 95% confidence interval of the median (percentile method).
    public var ciLow: Double
    public var ciHigh: Double
}

/// Statistics used by the runner and the gate. Deterministic: resampling uses a seeded
/// generator, so the same samples always give the same report.
public enum Statistics {
    /// Quantile with linear interpolation between order statistics (Hyndman–Fan type 7,
    /// the default of R and NumPy). `sorted` must be sorted ascending and non-empty.
    ///
    /// - Complexity: O(1).
    public static func quantile(sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty, "quantile of no samples")
        if sorted.count == 1 { return sorted[0] }
        let h = Double(sorted.count - 1) * q
        let lo = Int(h.rounded(.down))
        let hi = Swift.min(lo + 1, sorted.count - 1)
        return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
    }

    public static func median(_ values: [Double]) -> Double {
        quantile(sorted: values.sorted(), 0.5)
    }

    /// Summarises samples; `resamples` bootstrap draws give the median's 95% interval.
    ///
    /// - Precondition: `samples` is not empty.
    /// - Complexity: O(resamples × n log n).
    public static func summarize(_ samples: [Double], resamples: Int = 1000, seed: UInt64 = 0x9E37_79B9)
        -> SampleSummary
    {
        precondition(!samples.isEmpty, "summary of no samples")
        let sorted = samples.sorted()
        let n = Double(sorted.count)
        let mean = sorted.reduce(0, +) / n
        let variance = sorted.count > 1
            ? sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
        let stddev = variance.squareRoot()
        let (lo, hi) = bootstrapMedianCI(sorted, resamples: resamples, seed: seed)
        return SampleSummary(
            count: sorted.count, min: sorted[0], p25: quantile(sorted: sorted, 0.25),
            median: quantile(sorted: sorted, 0.5), p75: quantile(sorted: sorted, 0.75),
            p90: quantile(sorted: sorted, 0.90), p99: quantile(sorted: sorted, 0.99),
            max: sorted[sorted.count - 1], mean: mean, stddev: stddev,
            cv: mean != 0 ? stddev / abs(mean) : 0, ciLow: lo, ciHigh: hi)
    }

    /// Percentile bootstrap 95% interval of the median.
    public static func bootstrapMedianCI(_ samples: [Double], resamples: Int, seed: UInt64)
        -> (Double, Double)
    {
        if samples.count < 2 { return (samples[0], samples[0]) }
        var rng = SplitMix64(seed: seed)
        var medians = [Double]()
        medians.reserveCapacity(resamples)
        var draw = [Double](repeating: 0, count: samples.count)
        for _ in 0..<resamples {
            for i in 0..<draw.count { draw[i] = samples[rng.below( samples.count)] }
            draw.sort()
            medians.append(quantile(sorted: draw, 0.5))
        }
        medians.sort()
        return (quantile(sorted: medians, 0.025), quantile(sorted: medians, 0.975))
    }

    /// Ratio of medians `a / b` with a bootstrap 95% interval (both sides resampled).
    /// Returns nil when b's median is 0.
    public static func ratioOfMedians(_ a: [Double], _ b: [Double], resamples: Int = 1000,
                                      seed: UInt64 = 0x5EED) -> (ratio: Double, low: Double, high: Double)?
    {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        let mb = median(b)
        guard mb != 0 else { return nil }
        let ratio = median(a) / mb
        if a.count < 2 && b.count < 2 { return (ratio, ratio, ratio) }
        var rng = SplitMix64(seed: seed)
        var ratios = [Double]()
        ratios.reserveCapacity(resamples)
        var da = [Double](repeating: 0, count: a.count)
        var db = [Double](repeating: 0, count: b.count)
        for _ in 0..<resamples {
            for i in 0..<da.count { da[i] = a[rng.below( a.count)] }
            for i in 0..<db.count { db[i] = b[rng.below( b.count)] }
            da.sort(); db.sort()
            let m = quantile(sorted: db, 0.5)
            if m != 0 { ratios.append(quantile(sorted: da, 0.5) / m) }
        }
        guard !ratios.isEmpty else { return (ratio, ratio, ratio) }
        ratios.sort()
        return (ratio, quantile(sorted: ratios, 0.025), quantile(sorted: ratios, 0.975))
    }

    /// Two-sided Mann–Whitney U test (Wilcoxon rank-sum) with the normal approximation,
    /// tie correction and continuity correction. Returns the p-value; 1 when either side
    /// has no samples or every value is tied.
    ///
    /// - Complexity: O((n + m) log(n + m)).
    public static func mannWhitneyP(_ a: [Double], _ b: [Double]) -> Double {
        let n1 = Double(a.count), n2 = Double(b.count)
        guard n1 > 0, n2 > 0 else { return 1 }
        var all = a.map { ($0, 0) } + b.map { ($0, 1) }
        all.sort { $0.0 < $1.0 }
        var rankSumA = 0.0
        var tieTerm = 0.0
        var i = 0
        while i < all.count {
            var j = i
            while j + 1 < all.count && all[j + 1].0 == all[i].0 { j += 1 }
            let rank = Double(i + j + 2) / 2  // ranks are 1-based
            let t = Double(j - i + 1)
            if t > 1 { tieTerm += t * t * t - t }
            for k in i...j where all[k].1 == 0 { rankSumA += rank }
            i = j + 1
        }
        let u = rankSumA - n1 * (n1 + 1) / 2
        let mu = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let z = (abs(u - mu) - 0.5) / variance.squareRoot()
        if z <= 0 { return 1 }
        return Swift.min(1, erfc(z / 2.0.squareRoot()))
    }
}

/// `x` rounded to `places` decimal places and written as Swift writes a Double: `12.35`,
/// `0.5`, `3.0`. (The scale, 10^places, is exact for the few places used.)
func roundedText(places: Int, _ x: Double) -> String {
    let scale = (0..<places).reduce(1.0) { r, _ in r * 10 }
    return String((x * scale).rounded() / scale)
}
