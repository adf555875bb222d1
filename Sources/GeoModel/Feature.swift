/// A feature: an optional geometry, optional properties and an optional id (RFC 7946 §3.2).
///
/// `geometry == nil` is GeoJSON's `"geometry": null` (an unlocated feature); `properties ==
/// nil` is `"properties": null`, kept apart from an empty object so a round trip writes back
/// what it read.
public struct GeoFeature: Equatable, Sendable {
    public var id: FeatureID?
    public var geometry: Geometry?
    public var properties: PropertyList?
    /// `bbox` and foreign members, boxed: most features have neither, and a nil reference
    /// keeps every feature one word larger instead of three (feature arrays are the bulk of
    /// what a reader allocates).
    var _extras: _FeatureExtras?

    public init(id: FeatureID? = nil, geometry: Geometry?, properties: PropertyList? = PropertyList(),
                bbox: [Double]? = nil, foreignMembers: PropertyList? = nil) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
        self._extras = _FeatureExtras.make(bbox: bbox, foreignMembers: foreignMembers)
    }

    /// The feature's own `bbox` member (RFC 7946 §5), as written; nil when it has none.
    public var bbox: [Double]? {
        get { _extras?.bbox }
        set { _extras = _FeatureExtras.make(bbox: newValue, foreignMembers: foreignMembers) }
    }

    /// Whether the feature has a `bbox` or foreign members (one check, no copy).
    public var hasBBoxOrForeignMembers: Bool { _extras != nil }

    /// Members beyond GeoJSON's (foreign members, RFC 7946 §6.1), in order, kept so that a
    /// round trip or a diff loses nothing; nil when there are none.
    public var foreignMembers: PropertyList? {
        get { _extras?.foreignMembers }
        set { _extras = _FeatureExtras.make(bbox: bbox, foreignMembers: newValue) }
    }
}

/// A feature's `bbox` and foreign members (immutable; replaced whole when either changes).
final class _FeatureExtras: Equatable, Sendable {
    let bbox: [Double]?
    let foreignMembers: PropertyList?

    private init(bbox: [Double]?, foreignMembers: PropertyList?) {
        self.bbox = bbox
        self.foreignMembers = foreignMembers
    }

    /// The box, or nil when there is nothing to keep.
    static func make(bbox: [Double]?, foreignMembers: PropertyList?) -> _FeatureExtras? {
        bbox == nil && foreignMembers == nil ? nil : _FeatureExtras(bbox: bbox, foreignMembers: foreignMembers)
    }

    static func == (a: _FeatureExtras, b: _FeatureExtras) -> Bool {
        a.bbox == b.bbox && a.foreignMembers == b.foreignMembers
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
