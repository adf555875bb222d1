import GeoModel

extension FeatureStore {
    /// The store's features as a snapshot after `diff` was applied to `old`: the old
    /// features in their order (as the store now holds them, updated in place, removed ones
    /// left out), then the added features in the diff's `add` order, those the diff removed
    /// and added again included (a keyed map deletes the key and sets it again at the end).
    /// An add that replaces a present feature without removing it keeps the old place. A
    /// key is placed once, at its first place. With `keepingUnkeyed`, features of `old`
    /// without a key are kept at their places, unchanged (unless the diff removes all).
    public func snapshot(after diff: GeoJSONSourceDiff, appliedTo old: [GeoFeature], keepingUnkeyed: Bool = false) -> [GeoFeature] {
        var out: [GeoFeature] = []
        out.reserveCapacity(count)
        var placed = Set<FeatureKey>()
        // A feature the diff removes and adds again goes with the adds, as a data source's
        // keyed map places a key deleted and set again; an add that replaces a present
        // feature without a remove (lenient) keeps its place.
        let removed = Set(diff.remove)
        for f in old {
            guard let k = FeatureKey.of(f, promoteId: promoteId) else {
                if keepingUnkeyed && !diff.removeAll { out.append(f) }
                continue
            }
            guard !diff.removeAll, !removed.contains(k), !placed.contains(k), let now = self[k] else { continue }
            placed.insert(k)
            out.append(now)
        }
        for f in diff.add {
            guard let k = FeatureKey.of(f, promoteId: promoteId), !placed.contains(k), let now = self[k] else { continue }
            placed.insert(k)
            out.append(now)
        }
        return out
    }
}

extension GeoJSONSourceDiff {
    /// The change of this diff that `error` (thrown by applying it) is about, in words:
    /// which operation, which id.
    public func failingChange(_ error: SourceDiffError) -> String {
        switch error {
        case .unknownID(let k):
            if remove.contains(k) { return "remove of id \(k): no feature with that id" }
            if update.contains(where: { $0.id == k }) { return "update of id \(k): no feature with that id" }
            return "\(error)"
        case .duplicateID(let k): return "add of id \(k): a feature with that id is already there"
        case .missingID(let i): return "add \(i): the feature has no id"
        default: return "\(error)"
        }
    }
}
