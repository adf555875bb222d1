/// Sizes (tile bytes) as an exact multiset: how many of each size. Quantiles are exact, two
/// multisets add size by size, and memory grows with the number of distinct sizes (at most
/// the largest size), not with the number of tiles.
public struct SizeCounts: Sendable, Equatable {
    /// Occurrences by size.
    public private(set) var counts: [UInt32: Int] = [:]
    /// Sizes counted, and their sum.
    public private(set) var count = 0
    public private(set) var total = 0

    public init() {}

    /// The multiset of these (size, occurrences) pairs, as stored in a shard file; nil
    /// when a size repeats, an occurrence count is not positive, or the sums overflow.
    public init?(pairs: [[UInt64]]) {
        for p in pairs {
            guard p.count == 2, p[1] > 0, p[1] <= UInt64(Int.max), let size = UInt32(exactly: p[0]), counts[size] == nil else { return nil }
            let n = Int(p[1])
            let (bytes, o1) = Int(size).multipliedReportingOverflow(by: n)
            let (c, o2) = count.addingReportingOverflow(n)
            let (t, o3) = total.addingReportingOverflow(bytes)
            guard !o1, !o2, !o3 else { return nil }
            counts[size] = n
            (count, total) = (c, t)
        }
    }

    /// The (size, occurrences) pairs by increasing size.
    public var pairs: [[UInt64]] { counts.sorted { $0.key < $1.key }.map { [UInt64($0.key), UInt64($0.value)] } }

    public mutating func add(_ size: UInt32) {
        counts[size, default: 0] += 1
        count += 1
        total += Int(size)
    }

    /// Adds the sizes of `other`, each counted `times` times (saturating).
    public mutating func merge(_ other: SizeCounts, times: Int) {
        for (s, n) in other.counts { counts[s, default: 0] = Self.add(counts[s, default: 0], Self.mul(n, times)) }
        count = Self.add(count, Self.mul(other.count, times))
        total = Self.add(total, Self.mul(other.total, times))
    }

    static func mul(_ a: Int, _ b: Int) -> Int { let (r, o) = a.multipliedReportingOverflow(by: b); return o ? .max : r }
    static func add(_ a: Int, _ b: Int) -> Int { let (r, o) = a.addingReportingOverflow(b); return o ? .max : r }

    /// Adds the sizes of `other`.
    public mutating func merge(_ other: SizeCounts) {
        for (s, n) in other.counts { counts[s, default: 0] += n }
        count += other.count
        total += other.total
    }

    /// The smallest size, the sizes at ranks ⌊(n − 1)·p⌋ of the sorted sizes for p = 0.5,
    /// 0.9 and 0.99, and the largest; zeros when there is none.
    public func quantiles() -> (min: UInt32, p50: UInt32, p90: UInt32, p99: UInt32, max: UInt32) {
        let sorted = counts.sorted { $0.key < $1.key }
        guard let first = sorted.first, let last = sorted.last else { return (0, 0, 0, 0, 0) }
        func at(_ p: Double) -> UInt32 {
            let rank = Swift.min(count - 1, Int(Double(count - 1) * p))
            var seen = 0
            for (s, n) in sorted {
                seen += n
                if seen > rank { return s }
            }
            return last.key
        }
        return (first.key, at(0.5), at(0.9), at(0.99), last.key)
    }
}
