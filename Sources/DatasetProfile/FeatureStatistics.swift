import GeoModel

/// The counts `graticule geojson stats` prints for a stream of features: features and null
/// geometries, geometries by type (members of collections counted too), positions and
/// properties (totals and the most in one feature), ids by kind, and the extent.
///
/// - Complexity: `add` is O(positions of the feature); memory is constant.
public struct FeatureStatistics: Sendable {
    public private(set) var features = 0
    public private(set) var nullGeometries = 0
    public private(set) var positions = 0
    public private(set) var maxPositionsPerFeature = 0
    public private(set) var properties = 0
    public private(set) var maxPropertiesPerFeature = 0
    /// Geometries by GeoJSON type name.
    public private(set) var byType: [String: Int] = [:]
    /// Features by id kind: `string`, `number` or `none`.
    public private(set) var ids: [String: Int] = [:]
    public private(set) var extent: BoundingBox?

    public init() {}

    /// Counts one feature.
    public mutating func add(_ f: GeoFeature) {
        features += 1
        if let g = f.geometry {
            let before = positions
            count(g)
            maxPositionsPerFeature = max(maxPositionsPerFeature, positions - before)
            if let b = g.boundingBox { extent = extent.map { $0.union(b) } ?? b }
        } else {
            nullGeometries += 1
        }
        let n = f.properties?.count ?? 0
        properties += n
        maxPropertiesPerFeature = max(maxPropertiesPerFeature, n)
        switch f.id {
        case .string?: ids["string", default: 0] += 1
        case .int?, .uint?, .double?: ids["number", default: 0] += 1
        case nil: ids["none", default: 0] += 1
        }
    }

    mutating func count(_ g: Geometry) {
        byType[g.kind.rawValue, default: 0] += 1
        if g.kind == .geometryCollection { g.geometries.forEach { count($0) } }
        positions += g.positionCount
    }

    /// The figures as `metric, value` rows in a fixed order (types and ids by name).
    public func rows() -> [(String, String)] {
        var rows: [(String, String)] = [
            ("features", String(features)), ("null_geometries", String(nullGeometries)),
            ("positions", String(positions)), ("max_positions_per_feature", String(maxPositionsPerFeature)),
            ("properties", String(properties)), ("max_properties_per_feature", String(maxPropertiesPerFeature)),
        ]
        for (k, v) in byType.sorted(by: { $0.key < $1.key }) { rows.append(("geometry_" + k, String(v))) }
        for (k, v) in ids.sorted(by: { $0.key < $1.key }) { rows.append(("id_" + k, String(v))) }
        if let b = extent { rows.append(("bbox", "\(b.minX) \(b.minY) \(b.maxX) \(b.maxY)")) }
        return rows
    }
}
