import GeoJSON
import GeoModel

/// The counts `graticule geojson stats` prints for a stream of features: features and null
/// geometries, geometries by type (members of collections counted too), positions and
/// properties (totals and the most in one feature), ids by kind, and the extent.
///
/// Features are added one by one (`add(_:)` with a `GeoFeature`) or a column batch at a
/// time (`add(batch:)`, which reads the batch's columns and builds no feature); both give
/// the same figures.
///
/// - Complexity: `add` is O(positions of the feature); memory is constant.
public struct FeatureStatistics: Sendable {
    public private(set) var features = 0
    public private(set) var nullGeometries = 0
    public private(set) var positions = 0
    public private(set) var maxPositionsPerFeature = 0
    public private(set) var properties = 0
    public private(set) var maxPropertiesPerFeature = 0
    /// Geometries by WKB type code (1–7; 0 unused).
    var typeCounts = [Int](repeating: 0, count: 8)
    /// Features with a string id, a number id, no id.
    var idCounts = (string: 0, number: 0, none: 0)
    public private(set) var extent: BoundingBox?

    public init() {}

    /// Geometries by GeoJSON type name (the types met).
    public var byType: [String: Int] {
        var d: [String: Int] = [:]
        for code in 1...7 where typeCounts[code] > 0 {
            if let kind = GeoJSONFeatureBatch.kind(ofCode: UInt8(code)) { d[kind.rawValue] = typeCounts[code] }
        }
        return d
    }

    /// Features by id kind: `string`, `number` or `none` (the kinds met).
    public var ids: [String: Int] {
        var d: [String: Int] = [:]
        if idCounts.string > 0 { d["string"] = idCounts.string }
        if idCounts.number > 0 { d["number"] = idCounts.number }
        if idCounts.none > 0 { d["none"] = idCounts.none }
        return d
    }

    /// Counts one feature.
    ///
    /// - Parameter f: the feature.
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
        countProperties(f.properties?.count ?? 0)
        switch f.id {
        case .string?: idCounts.string += 1
        case .int?, .uint?, .double?: idCounts.number += 1
        case nil: idCounts.none += 1
        }
    }

    mutating func count(_ g: Geometry) {
        typeCounts[Int(GeoJSONFeatureBatch.code(of: g.kind))] += 1
        if g.kind == .geometryCollection { g.geometries.forEach { count($0) } }
        positions += g.positionCount
    }

    mutating func countProperties(_ n: Int) {
        properties += n
        maxPropertiesPerFeature = max(maxPropertiesPerFeature, n)
    }

    /// Counts every feature of a column batch, from its columns.
    ///
    /// - Parameter b: the batch.
    public mutating func add(batch b: GeoJSONFeatureBatch) {
        features += b.count
        b.coordinates.withUnsafeBufferPointer { c in
            let dims = b.dimensions
            for i in 0..<b.count {
                let entries = b.featureGeometryOffsets[i]..<b.featureGeometryOffsets[i + 1]
                if entries.isEmpty {
                    nullGeometries += 1
                } else {
                    // A feature's entries hold consecutive positions (a collection's entry has
                    // none of its own), so its positions are one range.
                    for g in entries { typeCounts[Int(b.geometryTypes[g])] += 1 }
                    let first = b.geometryPositionOffsets[entries.lowerBound]
                    let end = b.geometryPositionOffsets[entries.upperBound]
                    positions += end - first
                    maxPositionsPerFeature = max(maxPositionsPerFeature, end - first)
                    if let box = BoundingBox(flatCoordinates: c, positions: first..<end, dimensions: dims) {
                        extent = extent.map { $0.union(box) } ?? box
                    }
                }
                countProperties(b.memberOffsets[i + 1] - b.memberOffsets[i])
                switch b.idKinds[i] {
                case .string: idCounts.string += 1
                case .int, .uint, .double: idCounts.number += 1
                case .none: idCounts.none += 1
                }
            }
        }
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
