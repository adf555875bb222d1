/// A geometry with flat coordinate storage: one `[Double]` of interleaved values and the
/// offsets that cut it into parts, instead of nested arrays (one allocation for all
/// positions, cache-friendly to walk).
///
/// - `coordinates`: x0, y0, x1, y1, ... with `dimensions` values per position (2, or 3 when
///   positions carry an altitude, RFC 7946 §3.1.1; longitude/latitude or tile units, as the
///   producer says). In a 3-dimensional geometry a position that had no altitude stores NaN
///   there, and writers write it back with two values.
/// - `partStarts`: for line strings and rings, the position index where each part begins
///   (a part ends where the next begins). Empty for points.
/// - `polygonStarts`: for polygons, the index into `partStarts` where each polygon begins;
///   its first part is the exterior ring, the others holes (RFC 7946 §3.1.6).
/// - `geometries`: the members of a geometry collection (RFC 7946 §3.1.8); empty otherwise.
///
/// Rings are stored as given; RFC 7946 §3.1.6 requires them closed (last position equal to
/// the first), which readers check.
public struct Geometry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case point = "Point", multiPoint = "MultiPoint", lineString = "LineString",
             multiLineString = "MultiLineString", polygon = "Polygon", multiPolygon = "MultiPolygon",
             geometryCollection = "GeometryCollection"
    }

    public var kind: Kind
    public var coordinates: [Double]
    public var partStarts: [Int]
    public var polygonStarts: [Int]
    public var dimensions: Int
    public var geometries: [Geometry]

    public init(kind: Kind, coordinates: [Double] = [], partStarts: [Int] = [], polygonStarts: [Int] = [],
                dimensions: Int = 2, geometries: [Geometry] = []) {
        precondition(dimensions == 2 || dimensions == 3, "positions have 2 or 3 values")
        self.kind = kind
        self.coordinates = coordinates
        self.partStarts = partStarts
        self.polygonStarts = polygonStarts
        self.dimensions = dimensions
        self.geometries = geometries
    }

    /// A geometry collection of `members`.
    public static func collection(_ members: [Geometry]) -> Geometry {
        Geometry(kind: .geometryCollection, geometries: members)
    }

    /// Number of positions (a collection's own, not its members').
    public var positionCount: Int { coordinates.count / dimensions }

    /// True when the geometry has no positions (GeoJSON's `"coordinates": []`, or a
    /// collection whose members are all empty).
    public var isEmpty: Bool {
        kind == .geometryCollection ? geometries.allSatisfy(\.isEmpty) : coordinates.isEmpty
    }

    /// Position indices of part `i` (a line or a ring).
    public func partRange(_ i: Int) -> Range<Int> {
        partStarts[i]..<(i + 1 < partStarts.count ? partStarts[i + 1] : positionCount)
    }

    /// Part indices of polygon `i`.
    public func polygonRange(_ i: Int) -> Range<Int> {
        polygonStarts[i]..<(i + 1 < polygonStarts.count ? polygonStarts[i + 1] : partStarts.count)
    }

    /// x of position `i`.
    @inlinable public func x(_ i: Int) -> Double { coordinates[i * dimensions] }
    /// y of position `i`.
    @inlinable public func y(_ i: Int) -> Double { coordinates[i * dimensions + 1] }

    /// The bounding box of all positions (and of all members of a collection), nil when
    /// there are none.
    public var boundingBox: BoundingBox? {
        if kind == .geometryCollection {
            var box: BoundingBox?
            for g in geometries {
                guard let b = g.boundingBox else { continue }
                box = box.map { $0.union(b) } ?? b
            }
            return box
        }
        return BoundingBox(flatCoordinates: coordinates, dimensions: dimensions)
    }

    /// Equality that treats NaN altitudes (absent ones) as equal, so a geometry read back
    /// from its own GeoJSON compares equal to itself.
    public static func == (a: Geometry, b: Geometry) -> Bool {
        guard a.kind == b.kind, a.dimensions == b.dimensions, a.partStarts == b.partStarts,
              a.polygonStarts == b.polygonStarts, a.geometries == b.geometries,
              a.coordinates.count == b.coordinates.count else { return false }
        for i in a.coordinates.indices {
            let u = a.coordinates[i], v = b.coordinates[i]
            if u != v && !(u.isNaN && v.isNaN) { return false }
        }
        return true
    }
}
