import GeoModel

/// A change to one feature: a new geometry and property edits, applied as
/// `removeAllProperties`, then `removeProperties`, then `addOrUpdateProperties`.
public struct FeatureUpdate: Equatable, Sendable {
    public var id: FeatureKey
    public var newGeometry: Geometry?
    public var removeAllProperties: Bool
    public var removeProperties: [String]
    /// Properties to set, in order; a key already present keeps its place.
    public var addOrUpdateProperties: PropertyList

    public init(id: FeatureKey, newGeometry: Geometry? = nil, removeAllProperties: Bool = false,
                removeProperties: [String] = [], addOrUpdateProperties: PropertyList = PropertyList())
    {
        self.id = id
        self.newGeometry = newGeometry
        self.removeAllProperties = removeAllProperties
        self.removeProperties = removeProperties
        self.addOrUpdateProperties = addOrUpdateProperties
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        newGeometry == nil && !removeAllProperties && removeProperties.isEmpty && addOrUpdateProperties.isEmpty
    }

    /// The feature after this update.
    public func applied(to feature: GeoFeature) -> GeoFeature {
        var f = feature
        if let g = newGeometry { f.geometry = g }
        var props = f.properties ?? PropertyList()
        if removeAllProperties { props.removeAll() }
        for k in removeProperties { props.remove(k) }
        for (k, v) in addOrUpdateProperties { props.set(k, v) }
        f.properties = props
        return f
    }

    /// One update equivalent to this one followed by `later` (same feature): the later
    /// geometry wins, property edits merge key by key, and a later `removeAllProperties`
    /// discards the earlier edits.
    public func followed(by later: FeatureUpdate) -> FeatureUpdate {
        var u = self
        if let g = later.newGeometry { u.newGeometry = g }
        if later.removeAllProperties {
            u.removeAllProperties = true
            u.removeProperties = []
            u.addOrUpdateProperties = PropertyList()
        }
        for k in later.removeProperties {
            u.addOrUpdateProperties.remove(k)
            if !u.removeAllProperties && !u.removeProperties.contains(k) { u.removeProperties.append(k) }
        }
        for (k, v) in later.addOrUpdateProperties {
            u.removeProperties.removeAll { $0 == k }
            u.addOrUpdateProperties.set(k, v)
        }
        return u
    }
}
