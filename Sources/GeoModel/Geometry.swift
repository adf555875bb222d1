/// A geometry with flat coordinate storage: one `[Double]` of interleaved x, y values and
/// the offsets that cut it into parts, instead of nested arrays (one allocation for all
/// positions, cache-friendly to walk).
///
/// - `coordinates`: x0, y0, x1, y1, ... (two values per position; longitude/latitude or
///   tile units, as the producer says).
/// - `partStarts`: for line strings and rings, the position index where each part begins
///   (a part ends where the next begins). Empty for points.
/// - `polygonStarts`: for polygons, the index into `partStarts` where each polygon begins;
///   its first part is the exterior ring, the others holes (RFC 7946 §3.1.6).
///
/// Rings are stored closed (last position equal to the first), as RFC 7946 §3.1.6 requires.
public struct Geometry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case point = "Point", multiPoint = "MultiPoint", lineString = "LineString",
             multiLineString = "MultiLineString", polygon = "Polygon", multiPolygon = "MultiPolygon"
    }

    public var kind: Kind
    public var coordinates: [Double]
    public var partStarts: [Int]
    public var polygonStarts: [Int]

    public init(kind: Kind, coordinates: [Double] = [], partStarts: [Int] = [], polygonStarts: [Int] = []) {
        self.kind = kind
        self.coordinates = coordinates
        self.partStarts = partStarts
        self.polygonStarts = polygonStarts
    }

    /// Number of positions.
    public var positionCount: Int { coordinates.count / 2 }

    /// Position indices of part `i` (a line or a ring).
    public func partRange(_ i: Int) -> Range<Int> {
        partStarts[i]..<(i + 1 < partStarts.count ? partStarts[i + 1] : positionCount)
    }

    /// Part indices of polygon `i`.
    public func polygonRange(_ i: Int) -> Range<Int> {
        polygonStarts[i]..<(i + 1 < polygonStarts.count ? polygonStarts[i + 1] : partStarts.count)
    }

    /// The bounding box of all positions, nil when there are none.
    public var boundingBox: BoundingBox? { BoundingBox(flatCoordinates: coordinates) }
}
