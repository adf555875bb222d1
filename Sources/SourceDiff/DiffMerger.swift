import GeoModel

/// Coalesces a burst of diffs into one (live data: one diff per second, sent on as one):
/// `fold` costs in proportion to the folded diff, not to what was folded before.
public struct DiffMerger {
    public let promoteId: String?
    var out: GeoJSONSourceDiff
    var addIndex: [FeatureKey: Int] = [:]
    /// Every update of an id (a diff may update one id several times).
    var updateIndex: [FeatureKey: [Int]] = [:]
    var removed: Set<FeatureKey>
    var dropAdds = Set<Int>(), dropUpdates = Set<Int>()

    /// A merger holding `first`.
    public init(_ first: GeoJSONSourceDiff = GeoJSONSourceDiff(), promoteId: String? = nil) {
        self.promoteId = promoteId
        out = first
        removed = Set(first.remove)
        for (i, f) in out.add.enumerated() { if let k = FeatureKey.of(f, promoteId: promoteId) { addIndex[k] = i } }
        for (i, u) in out.update.enumerated() { updateIndex[u.id, default: []].append(i) }
    }

    /// Folds in a diff applied after everything folded so far.
    public mutating func fold(_ later: GeoJSONSourceDiff) {
        if later.removeAll {
            self = DiffMerger(later, promoteId: promoteId)
            return
        }
        for k in later.remove {
            for i in updateIndex.removeValue(forKey: k) ?? [] { dropUpdates.insert(i) }
            if let i = addIndex.removeValue(forKey: k) {
                // Added earlier: either it did not exist before (nothing left to remove) or
                // it was removed first (already listed).
                dropAdds.insert(i)
                continue
            }
            if removed.insert(k).inserted { out.remove.append(k) }
        }
        for f in later.add {
            guard let k = FeatureKey.of(f, promoteId: promoteId) else { out.add.append(f); continue }
            for i in updateIndex.removeValue(forKey: k) ?? [] { dropUpdates.insert(i) }
            if let i = addIndex[k] { dropAdds.insert(i) }
            addIndex[k] = out.add.count
            out.add.append(f)
        }
        for u in later.update {
            if let i = updateIndex[u.id]?.last {
                // After the earlier updates of the id (which follow its add, if any).
                out.update[i] = out.update[i].followed(by: u)
            } else if let i = addIndex[u.id] {
                out.add[i] = u.applied(to: out.add[i])
            } else {
                updateIndex[u.id] = [out.update.count]
                out.update.append(u)
            }
        }
    }

    /// The merged diff.
    public var result: GeoJSONSourceDiff {
        var d = out
        if !dropAdds.isEmpty { d.add = d.add.enumerated().filter { !dropAdds.contains($0.offset) }.map(\.element) }
        if !dropUpdates.isEmpty { d.update = d.update.enumerated().filter { !dropUpdates.contains($0.offset) }.map(\.element) }
        return d
    }
}
