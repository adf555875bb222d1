import GeoModel

extension GeoJSONSourceDiff {
    /// One diff equivalent to applying `self` and then `later` to any store both apply to
    /// (in strict mode): a later `removeAll` discards everything before it; a later remove
    /// cancels earlier adds and updates of the id; a later update of an added feature is
    /// folded into the add; updates of one id merge (`FeatureUpdate.followed(by:)`).
    /// To coalesce many diffs, fold them into one `DiffMerger`, which keeps its indexes.
    ///
    /// - Parameter later: the diff applied after this one.
    /// - Parameter promoteId: the property that names features, when ids are promoted.
    public func merged(with later: GeoJSONSourceDiff, promoteId: String? = nil) -> GeoJSONSourceDiff {
        var m = DiffMerger(self, promoteId: promoteId)
        m.fold(later)
        return m.result
    }
}
