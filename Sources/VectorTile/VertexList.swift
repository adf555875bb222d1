/// A geometry handler that keeps every vertex in the order the geometry gives them (points,
/// line vertices and ring vertices alike, closing vertices not repeated), in tile
/// coordinates: what a digest or a test compares when it needs the vertices and not the
/// shape.
public struct VertexList: GeometryHandler {
    /// The vertices (x, y), in order.
    public var xy: [(Int64, Int64)] = []

    public init() {}

    public mutating func point(x: Int64, y: Int64) { xy.append((x, y)) }
    public mutating func linePoint(x: Int64, y: Int64) { xy.append((x, y)) }
    public mutating func ringPoint(x: Int64, y: Int64) { xy.append((x, y)) }
    public mutating func ringEnd(_ kind: RingKind) {}
}
