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
/// digest, and (in-process implementations that can give them) its elements, so that a
/// mismatch can name the first element that differs:
/// - `elements`: canonical text of each element, sorted (tiles: `z/x/y`); a mismatch names
///   the first one missing or extra;
/// - `locatedElements`: computed only when the digests differ, each element as
///   `LOCATION<tab>VALUE` with locations that sort in document order (feature 12 position
///   3, layer 2 feature 17 vertex 5, ...); a mismatch names the first location whose value
///   differs, with both values and, for numbers, their distance in ULPs.
///
/// Unchecked Sendable: `locatedElements` captures the implementation, and a check is made
/// and read on the runner's one thread.
public struct ResultCheck: @unchecked Sendable {
    public var digest: ResultDigest
    public var elements: [String]?
    public var locatedElements: (() throws -> [String])?

    public init(digest: ResultDigest, elements: [String]? = nil,
                locatedElements: (() throws -> [String])? = nil) {
        self.digest = digest
        self.elements = elements
        self.locatedElements = locatedElements
    }

    /// Why `self` is not `reference`'s result, or nil when they agree.
    public func mismatch(against reference: ResultCheck) -> String? {
        guard let first = digest.firstDifference(from: reference.digest) else { return nil }
        var detail = "result differs from the reference: \(first)"
        // An isolated implementation gives its elements through the protocol's `elements`,
        // in whichever form its check has: plain when the reference's are plain.
        var mineListed = elements
        if mineListed == nil, reference.elements != nil, let listed = locatedElements {
            do { mineListed = try listed() } catch { return detail + "; the elements could not be listed: \(error)" }
        }
        if let mine = mineListed, let theirs = reference.elements {
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
        } else if let mine = locatedElements, let theirs = reference.locatedElements {
            do {
                if let d = Self.firstLocatedDifference(try mine(), try theirs()) { detail += "; first difference: " + d }
            } catch {
                detail += "; the elements could not be listed: \(error)"
            }
        }
        return detail
    }

    /// The first location (in sorted order) where two lists of `LOCATION<tab>VALUE` lines
    /// differ, in words; nil when they are equal.
    public static func firstLocatedDifference(_ mine: [String], _ theirs: [String]) -> String? {
        func split(_ line: String) -> (Substring, Substring) {
            guard let tab = line.firstIndex(of: "\t") else { return (Substring(line), "") }
            return (line[..<tab], line[line.index(after: tab)...])
        }
        var i = 0, j = 0
        while i < mine.count || j < theirs.count {
            if i < mine.count, j < theirs.count {
                let (a, x) = split(mine[i]), (b, y) = split(theirs[j])
                if a == b {
                    if x != y { return "at \(a): \(x), reference \(y)" + ulpNote(x, y) }
                    i += 1; j += 1
                    continue
                }
                if a < b { return "at \(a): \(x) is extra" }
                return "at \(b): \(y) is missing"
            }
            if i < mine.count {
                let (a, x) = split(mine[i])
                return "at \(a): \(x) is extra"
            }
            let (b, y) = split(theirs[j])
            return "at \(b): \(y) is missing"
        }
        return nil
    }

    /// For values that are the same count of floating-point numbers (written with a point or
    /// an exponent; integers are not doubles): the largest distance in ULPs.
    static func ulpNote(_ x: Substring, _ y: Substring) -> String {
        let xs = x.split(separator: " "), ys = y.split(separator: " ")
        guard (xs + ys).allSatisfy({ $0.contains(".") || $0.contains("e") }) else { return "" }
        let a = xs.map { Double($0) }, b = ys.map { Double($0) }
        guard !a.isEmpty, a.count == b.count, !a.contains(nil), !b.contains(nil) else { return "" }
        var most: UInt64 = 0
        for (p, q) in zip(a, b) { most = max(most, ulpDistance(p!, q!)) }
        return most == 0 ? "" : " (\(most) ULP apart)"
    }

    /// How many doubles lie between `a` and `b` (ordered by value, -0 = +0).
    public static func ulpDistance(_ a: Double, _ b: Double) -> UInt64 {
        guard a.isFinite, b.isFinite else { return a == b ? 0 : .max }
        func ordered(_ d: Double) -> Int64 {
            let bits = Int64(bitPattern: d.bitPattern)
            return bits < 0 ? Int64.min &- bits : bits
        }
        let x = ordered(a), y = ordered(b)
        return x >= y ? UInt64(bitPattern: x &- y) : UInt64(bitPattern: y &- x)
    }
}
