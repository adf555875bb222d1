/// What an implementation computed, reduced to a few counts and one checksum, so that two
/// implementations of one operation (in this process or in another program, in any
/// language) can be compared on a dataset before either is timed.
///
/// The checksum is the wrapping sum of one 64-bit hash per element (a tile, a position, a
/// property), so it does not depend on the order the elements come in. An element's hash is
/// FNV-1a (64 bit) of its byte encoding, finished with the SplitMix64 mixer; each operation
/// defines its elements' encodings (see the Workloads module's ResultDigests article).
///
/// The text form, which external programs print after `digest `, is the counts as
/// `name=value` then `checksum=` and 16 lowercase hex digits, separated by spaces:
/// `tiles=1180 checksum=00ff12ab34cd56ef`.
public struct ResultDigest: Equatable, Sendable, CustomStringConvertible {
    public struct Count: Equatable, Sendable {
        public var name: String
        public var value: Int
        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    /// Counts, in the order the operation defines.
    public var counts: [Count]
    public var checksum: UInt64

    public init(counts: [Count], checksum: UInt64) {
        self.counts = counts
        self.checksum = checksum
    }

    /// Reads the text form; nil when it is not one.
    public init?(parsing text: String) {
        var counts: [Count] = []
        var checksum: UInt64?
        for field in text.split(separator: " ", omittingEmptySubsequences: true) {
            let kv = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2, !kv[0].isEmpty else { return nil }
            if kv[0] == "checksum" {
                guard checksum == nil, kv[1].count == 16, let c = UInt64(kv[1], radix: 16) else { return nil }
                checksum = c
            } else {
                guard checksum == nil, let v = Int(kv[1]), v >= 0 else { return nil }
                counts.append(Count(name: String(kv[0]), value: v))
            }
        }
        guard let checksum else { return nil }
        self.init(counts: counts, checksum: checksum)
    }

    public var description: String {
        let hex = String(checksum, radix: 16)
        return (counts.map { "\($0.name)=\($0.value)" } + ["checksum=" + String(repeating: "0", count: 16 - hex.count) + hex])
            .joined(separator: " ")
    }

    /// The first way this digest differs from `reference` (a count, then the checksum), or
    /// nil when they are equal.
    public func firstDifference(from reference: ResultDigest) -> String? {
        let names = counts.map(\.name)
        if names != reference.counts.map(\.name) {
            return "counts \(names.joined(separator: ",")) where the reference has \(reference.counts.map(\.name).joined(separator: ","))"
        }
        for (a, b) in zip(counts, reference.counts) where a.value != b.value {
            return "\(a.name) \(a.value), reference \(b.value)"
        }
        if checksum != reference.checksum { return "checksum \(self.checksumText), reference \(reference.checksumText)" }
        return nil
    }

    var checksumText: String { String(description.split(separator: "=").last ?? "") }

    /// Builds a digest: counts and an order-independent checksum of element hashes.
    public struct Accumulator: Sendable {
        public private(set) var counts: [Count]
        public private(set) var checksum: UInt64 = 0

        /// - Parameter names: the count names, in order; each starts at zero.
        public init(counts names: [String]) {
            counts = names.map { Count(name: $0, value: 0) }
        }

        /// Adds `by` to the count at `index` (the order given to `init`).
        public mutating func count(_ index: Int, by n: Int = 1) { counts[index].value += n }

        /// Adds one element, given as its byte encoding.
        public mutating func add(element bytes: some Sequence<UInt8>) {
            checksum &+= ResultDigest.hash(bytes)
        }

        /// Adds one element whose hash is already computed (`ResultDigest.hash`).
        public mutating func add(hash: UInt64) { checksum &+= hash }

        public var digest: ResultDigest { ResultDigest(counts: counts, checksum: checksum) }
    }

    /// FNV-1a (64 bit) of the bytes, finished with the SplitMix64 mixer.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        var z = h &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// The result an implementation computed on a dataset, checked before it is timed: its
/// digest, and (in-process implementations that can give them) its elements as canonical
/// text, sorted, so that a mismatch can name the first element that differs.
public struct ResultCheck: Sendable {
    public var digest: ResultDigest
    public var elements: [String]?

    public init(digest: ResultDigest, elements: [String]? = nil) {
        self.digest = digest
        self.elements = elements
    }

    /// Why `self` is not `reference`'s result, or nil when they agree.
    public func mismatch(against reference: ResultCheck) -> String? {
        guard let first = digest.firstDifference(from: reference.digest) else { return nil }
        var detail = "result differs from the reference: \(first)"
        if let mine = elements, let theirs = reference.elements {
            var i = 0, j = 0
            while i < mine.count || j < theirs.count {
                if i < mine.count, j < theirs.count, mine[i] == theirs[j] { i += 1; j += 1; continue }
                if j >= theirs.count || (i < mine.count && mine[i] < theirs[j]) {
                    detail += "; first difference: \(mine[i]) is extra"
                } else {
                    detail += "; first difference: \(theirs[j]) is missing"
                }
                break
            }
        }
        return detail
    }
}
