/// A feature: an optional geometry, optional properties and an optional id (RFC 7946 §3.2).
///
/// `geometry == nil` is GeoJSON's `"geometry": null` (an unlocated feature); `properties ==
/// nil` is `"properties": null`, kept apart from an empty object so a round trip writes back
/// what it read.
public struct GeoFeature: Equatable, Sendable {
    public var id: FeatureID?
    public var geometry: Geometry?
    public var properties: PropertyList?
    /// The feature's own `bbox` member (RFC 7946 §5), as written; nil when it has none.
    public var bbox: [Double]?
    /// Members beyond GeoJSON's (foreign members, RFC 7946 §6.1), in order, kept so that a
    /// round trip or a diff loses nothing; nil when there are none.
    public var foreignMembers: PropertyList?

    public init(id: FeatureID? = nil, geometry: Geometry?, properties: PropertyList? = PropertyList(),
                bbox: [Double]? = nil, foreignMembers: PropertyList? = nil) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
        self.bbox = bbox
        self.foreignMembers = foreignMembers
    }
}

/// A feature id: a string or a number, never conflated (`"1"` and `1` are different ids,
/// RFC 7946 §3.2). Integral numbers are kept exact to 64 bits.
public enum FeatureID: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)

    public var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return "\(d)"
        }
    }

    /// The id as a property value (for writers and for promoting it into properties).
    public var propertyValue: PropertyValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .uint(let u): return .uint(u)
        case .double(let d): return .double(d)
        }
    }
}

/// What a GeoJSON text holds at its top level (RFC 7946 §2): one geometry, one feature or
/// a feature collection.
public enum GeoObject: Equatable, Sendable {
    case geometry(Geometry)
    case feature(GeoFeature)
    case featureCollection([GeoFeature])

    /// The bounding box of every position in the object; nil when it has none.
    ///
    /// - Complexity: O(positions); allocates nothing.
    public var boundingBox: BoundingBox? {
        switch self {
        case .geometry(let g): return g.boundingBox
        case .feature(let f): return f.geometry?.boundingBox
        case .featureCollection(let fs):
            var box: BoundingBox?
            for f in fs {
                guard let b = f.geometry?.boundingBox else { continue }
                box = box.map { $0.union(b) } ?? b
            }
            return box
        }
    }
}
