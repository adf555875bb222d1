/// Counts of non-negative integers in power-of-two buckets: bucket 0 holds 0, bucket k
/// holds 2^(k-1) ... 2^k − 1. Fixed size, so a profile's memory does not grow with the
/// data, and two histograms add bucket by bucket.
public struct Log2Histogram: Sendable, Equatable {
    public private(set) var buckets = [Int](repeating: 0, count: 65)
    public private(set) var count = 0
    public private(set) var total = 0
    public private(set) var max = 0

    public init() {}

    /// A histogram with these counts (as stored in a shard file); nil when they do not
    /// fit together (65 buckets whose sum is `count`).
    public init?(buckets: [Int], count: Int, total: Int, max: Int) {
        guard buckets.count == 65, buckets.allSatisfy({ $0 >= 0 }), buckets.reduce(0, +) == count else { return nil }
        self.buckets = buckets
        self.count = count
        self.total = total
        self.max = max
    }

    /// Counts one value (negative values count as 0).
    public mutating func add(_ v: Int) {
        buckets[v <= 0 ? 0 : 64 - v.leadingZeroBitCount] += 1
        count += 1
        total += v
        if v > max { max = v }
    }

    /// Adds the counts of `other` `times` times over (saturating), as if each of its values
    /// had been counted that many times here.
    public mutating func merge(_ other: Log2Histogram, times: Int) {
        for i in buckets.indices { buckets[i] = SizeCounts.add(buckets[i], SizeCounts.mul(other.buckets[i], times)) }
        count = SizeCounts.add(count, SizeCounts.mul(other.count, times))
        total = SizeCounts.add(total, SizeCounts.mul(other.total, times))
        if other.count > 0 && other.max > max { max = other.max }
    }

    /// Adds the counts of `other`, as if its values had been counted here.
    public mutating func merge(_ other: Log2Histogram) {
        for i in buckets.indices { buckets[i] += other.buckets[i] }
        count += other.count
        total += other.total
        if other.max > max { max = other.max }
    }

    /// The mean of the values counted; 0 when there are none.
    public var mean: Double { count == 0 ? 0 : Double(total) / Double(count) }

    /// An upper bound of quantile `q` (0...1): the top of the bucket that holds it, at most
    /// the largest value seen.
    public func quantileUpperBound(_ q: Double) -> Int {
        guard count > 0 else { return 0 }
        let target = Int((Double(count) * q).rounded(.up))
        var seen = 0
        for (i, b) in buckets.enumerated() {
            seen += b
            if seen >= target { return i == 0 ? 0 : Swift.min((1 << i) - 1, max) }
        }
        return max
    }
}
