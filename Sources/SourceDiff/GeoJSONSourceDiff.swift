import GeoModel

/// A change to a data source, in the shape of MapLibre GL's GeoJSON source diff
/// (`GeoJSONSourceDiff`), so a web map can consume it: applied as `removeAll`, then
/// `remove`, then `add`, then `update`.
public struct GeoJSONSourceDiff: Equatable, Sendable {
    /// Remove every feature first.
    public var removeAll: Bool
    /// Features to remove, by id.
    public var remove: [FeatureKey]
    /// Features to add (each must have an id, or the promoted property).
    public var add: [GeoFeature]
    /// Changes to existing features.
    public var update: [FeatureUpdate]
    /// How the two snapshots' features were paired (`FeatureMatching`): with `index` or
    /// `geometry+properties`, features without an id carry synthetic keys (`index:N`,
    /// `content:HASH:N`), which only a snapshot keyed the same way can resolve. Not part of
    /// MapLibre's diff; written as a `match` member when it is not `id`.
    public var matching: FeatureMatching

    public init(removeAll: Bool = false, remove: [FeatureKey] = [], add: [GeoFeature] = [], update: [FeatureUpdate] = [],
                matching: FeatureMatching = .id) {
        self.removeAll = removeAll
        self.remove = remove
        self.add = add
        self.update = update
        self.matching = matching
    }

    /// Whether applying the diff changes nothing.
    public var isEmpty: Bool { !removeAll && remove.isEmpty && add.isEmpty && update.isEmpty }
}
