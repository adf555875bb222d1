import GeoModel

/// How the features of two snapshots of a source are paired before they are diffed: by
/// key (id or promoted property), features without one paired as a ``FeatureMatching``
/// policy says, and ids repeated within a snapshot refused or resolved to one copy.
///
/// Snapshots are given as functions that read every feature in order, so that they can be
/// streamed from files: a second read finds each key's last copy (``Duplicates/last``) or
/// the positions of repeated ids for the error that names them.
public struct SnapshotPairing: Sendable {
    /// Which copy of an id repeated within one snapshot stands.
    public enum Duplicates: String, Sendable, CaseIterable {
        /// Refused: ``SnapshotPairingError/repeatedIDs(count:places:)`` names them.
        case error
        /// The first copy stands; later ones are ignored.
        case first
        /// The last copy stands, as MapLibre's GeoJSON sources keep it.
        case last
    }

    /// Which read of a snapshot is asked for: the one that feeds the diff, or an extra one.
    public enum Read: Sendable {
        case diff, extra
    }

    /// Reads every feature of one snapshot, in order, giving each to `body`.
    public typealias Snapshot = (_ read: Read, _ body: (GeoFeature) -> Void) throws -> Void

    public var matching: FeatureMatching
    public var promoteId: String?
    public var duplicates: Duplicates
    public var indexZooms: ClosedRange<Int>

    public init(matching: FeatureMatching = .id, promoteId: String? = nil, duplicates: Duplicates = .error,
                indexZooms: ClosedRange<Int>) {
        self.matching = matching
        self.promoteId = promoteId
        self.duplicates = duplicates
        self.indexZooms = indexZooms
    }

    /// The diff of two paired snapshots, not yet finished, with the matchers that keyed them.
    public struct Result {
        public var diff: SnapshotDiff
        public var old: FeatureMatcher
        public var new: FeatureMatcher

        /// One line saying how features were paired (and how many had no id, or repeated
        /// another's content).
        public var matchedLine: String {
            let idless = old.missingIDs + new.missingIDs, repeats = old.repeatedContent + new.repeatedContent
            return "matched \(old.policy.summary)"
                + (idless > 0 ? ": \(old.missingIDs) old and \(new.missingIDs) new features without an id" : "")
                + (repeats > 0 ? ", \(old.repeatedContent) old and \(new.repeatedContent) new repeats of identical content" : "")
        }
    }

    /// Pairs and diffs two snapshots. Throws ``SnapshotPairingError`` when a real key has the
    /// form of the policy's synthetic keys, when ids repeat under ``Duplicates/error`` or
    /// features have no id under ``FeatureMatching/id``, and whatever a snapshot's read throws.
    public func diff(old: Snapshot, new: Snapshot) throws -> Result {
        var differ = SnapshotDiff(promoteId: promoteId, indexZooms: indexZooms)
        var a = FeatureMatcher(policy: matching, promoteId: promoteId)
        var b = FeatureMatcher(policy: matching, promoteId: promoteId)
        let lastOld = duplicates == .last ? try lastPositions(old) : nil
        let lastNew = duplicates == .last ? try lastPositions(new) : nil
        var i = 0
        try old(.diff) { f in
            let g = a.keyed(f)
            defer { i += 1 }
            if let lastOld, let k = FeatureKey.of(g, promoteId: promoteId), lastOld[k] != i { return }
            differ.addOld(g)
        }
        i = 0
        try new(.diff) { f in
            let g = b.keyed(f)
            defer { i += 1 }
            if let lastNew, let k = FeatureKey.of(g, promoteId: promoteId), lastNew[k] != i { return }
            differ.addNew(g)
        }
        // First: such a key may be what made ids repeat.
        for (side, m) in [("old", a), ("new", b)] {
            if let first = m.firstSyntheticLooking {
                throw SnapshotPairingError.syntheticLookingKey(snapshot: side, position: first.position, key: first.key,
                                                               count: m.syntheticLookingKeys)
            }
        }
        if duplicates == .error && !differ.duplicateIDs.isEmpty {
            let repeated = Set(differ.duplicateIDs.prefix(3))
            var places: [SnapshotPairingError.Place] = []
            places += try repeatedPlaces(old, side: "old", keys: repeated)
            places += try repeatedPlaces(new, side: "new", keys: repeated)
            throw SnapshotPairingError.repeatedIDs(count: differ.duplicateIDs.count, places: places)
        }
        if matching == .id && a.missingIDs + b.missingIDs > 0 {
            throw SnapshotPairingError.missingIDs(old: a.missingIDs, new: b.missingIDs, promoteId: promoteId)
        }
        return Result(diff: differ, old: a, new: b)
    }

    /// Where `keys` occur more than once in a snapshot, in order of their first place.
    func repeatedPlaces(_ snapshot: Snapshot, side: String, keys: Set<FeatureKey>) throws -> [SnapshotPairingError.Place] {
        var positions: [FeatureKey: [Int]] = [:]
        var m = FeatureMatcher(policy: matching, promoteId: promoteId)
        var j = 0
        try snapshot(.extra) { f in
            if let k = FeatureKey.of(m.keyed(f), promoteId: promoteId), keys.contains(k) { positions[k, default: []].append(j) }
            j += 1
        }
        return positions.sorted(by: { $0.value[0] < $1.value[0] }).filter { $0.value.count > 1 }
            .map { .init(key: $0.key, snapshot: side, positions: $0.value) }
    }

    /// Each key's last position in a snapshot (keys as the matcher gives them).
    func lastPositions(_ snapshot: Snapshot) throws -> [FeatureKey: Int] {
        var last: [FeatureKey: Int] = [:]
        var m = FeatureMatcher(policy: matching, promoteId: promoteId)
        var j = 0
        try snapshot(.extra) { f in
            if let k = FeatureKey.of(m.keyed(f), promoteId: promoteId) { last[k] = j }
            j += 1
        }
        return last
    }
}

/// Why two snapshots could not be paired.
public enum SnapshotPairingError: Error, Equatable, CustomStringConvertible {
    /// Where a repeated id occurs: its key, the snapshot (`old` or `new`) and its positions.
    public struct Place: Equatable, Sendable {
        public var key: FeatureKey
        public var snapshot: String
        public var positions: [Int]

        public init(key: FeatureKey, snapshot: String, positions: [Int]) {
            self.key = key
            self.snapshot = snapshot
            self.positions = positions
        }
    }

    /// Ids repeat within a snapshot under ``SnapshotPairing/Duplicates/error``: how many, and
    /// where the first few occur.
    case repeatedIDs(count: Int, places: [Place])
    /// Features without an id (or without the promoted property) under ``FeatureMatching/id``.
    case missingIDs(old: Int, new: Int, promoteId: String?)
    /// A real key of the form of the policy's synthetic keys (`index:N`, `content:HASH:N`):
    /// the snapshot, the first such feature's position (0-based), its key, and how many
    /// features have one. Pairing it would merge it with a feature without an id.
    case syntheticLookingKey(snapshot: String, position: Int, key: FeatureKey, count: Int)

    public var description: String {
        switch self {
        case .repeatedIDs(let count, let places):
            let listed = places.map { p in
                "id \(p.key) at \(p.snapshot) features \(p.positions.prefix(4).map(String.init).joined(separator: ", "))"
                    + (p.positions.count > 4 ? ", ..." : "")
            }
            return "\(count) repeated ids within a snapshot (\(listed.joined(separator: "; ")))"
        case .missingIDs(let old, let new, let promoteId):
            return "\(old + new) features have no \(promoteId.map { "'\($0)' property" } ?? "id") (old: \(old), new: \(new))"
        case .syntheticLookingKey(let snapshot, let position, let key, let count):
            return "\(snapshot) feature \(position) has the key \(key), the form of the keys given to features without an id "
                + "(\(count) feature\(count == 1 ? "" : "s") in the \(snapshot) snapshot); pairing it could merge it with one of them"
        }
    }
}
