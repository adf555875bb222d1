import GeoModel

extension FeatureStore {
    /// The store's features as a snapshot after `diff` was applied to `old`: the old
    /// features in their order (as the store now holds them, updated in place, removed ones
    /// left out), then the features whose keys were not in `old`, in the diff's `add` order.
    /// A key is placed once, at its first place.
    public func snapshot(after diff: GeoJSONSourceDiff, appliedTo old: [GeoFeature]) -> [GeoFeature] {
        var out: [GeoFeature] = []
        out.reserveCapacity(count)
        var placed = Set<FeatureKey>()
        for f in old + diff.add {
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
