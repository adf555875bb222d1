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

    public init(removeAll: Bool = false, remove: [FeatureKey] = [], add: [GeoFeature] = [], update: [FeatureUpdate] = []) {
        self.removeAll = removeAll
        self.remove = remove
        self.add = add
        self.update = update
    }

    /// Whether applying the diff changes nothing.
    public var isEmpty: Bool { !removeAll && remove.isEmpty && add.isEmpty && update.isEmpty }
}
