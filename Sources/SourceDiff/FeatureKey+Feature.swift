import GeoModel

extension FeatureKey {
    /// A feature's key: its `id`, or with `promoteId` the value of that property.
    public static func of(_ feature: GeoFeature, promoteId: String? = nil) -> FeatureKey? {
        if let p = promoteId { return feature.properties?[p].flatMap { FeatureKey($0) } }
        return feature.id.map { FeatureKey($0) }
    }
}
