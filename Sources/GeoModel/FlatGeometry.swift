/// One simple geometry (not a collection) inside buffers that hold many, as a column batch
/// holds a batch's geometries: its positions are `positions` of `coordinates` (`stride`
/// values each, x and y first), its parts (lines, rings) are `parts` of `partStarts`
/// (absolute position indices where each part starts), its polygons `polygons` of
/// `polygonStarts` (absolute part indices where each polygon starts).
///
/// The arrays are shared, not copied: a `FlatGeometry` is a way to hand one geometry of a
/// batch to code that reads geometries (tile coverage) without building a `Geometry`.
/// Ranges given by its methods count from the geometry's own first position and part, as
/// `Geometry`'s do.
public struct FlatGeometry: Sendable {
    /// Its type; never `.geometryCollection` (a collection's members are geometries of
    /// their own).
    public var kind: Geometry.Kind
    /// The buffer holding its positions, `stride` values per position.
    public var coordinates: [Double]
    /// Values per position in `coordinates` (2 or 3).
    public var stride: Int
    /// Its positions, as position indices into `coordinates`.
    public var positions: Range<Int>
    /// The buffer of absolute part starts (position indices).
    public var partStarts: [Int]
    /// Its parts, as indices into `partStarts`.
    public var parts: Range<Int>
    /// The buffer of absolute polygon starts (part indices).
    public var polygonStarts: [Int]
    /// Its polygons, as indices into `polygonStarts`.
    public var polygons: Range<Int>

    /// A geometry of shared buffers.
    ///
    /// - Parameters:
    ///   - kind: its type (not a collection).
    ///   - coordinates: the positions buffer.
    ///   - stride: values per position in `coordinates` (2 or 3).
    ///   - positions: its positions in `coordinates`.
    ///   - partStarts: absolute part starts.
    ///   - parts: its parts in `partStarts`.
    ///   - polygonStarts: absolute polygon starts.
    ///   - polygons: its polygons in `polygonStarts`.
    public init(kind: Geometry.Kind, coordinates: [Double], stride: Int, positions: Range<Int>,
                partStarts: [Int], parts: Range<Int>, polygonStarts: [Int], polygons: Range<Int>) {
        precondition(kind != .geometryCollection, "a collection is its members")
        precondition(stride == 2 || stride == 3, "positions have 2 or 3 values")
        precondition(positions.upperBound * stride <= coordinates.count && parts.upperBound <= partStarts.count
            && polygons.upperBound <= polygonStarts.count, "ranges inside their buffers")
        self.kind = kind
        self.coordinates = coordinates
        self.stride = stride
        self.positions = positions
        self.partStarts = partStarts
        self.parts = parts
        self.polygonStarts = polygonStarts
        self.polygons = polygons
    }

    /// Number of positions.
    public var positionCount: Int { positions.count }

    /// Position indices of part `i`, counted from the geometry's first position.
    ///
    /// - Parameter i: the part, 0..<`parts.count`.
    public func partRange(_ i: Int) -> Range<Int> {
        let k = parts.lowerBound + i
        let end = k + 1 < parts.upperBound ? partStarts[k + 1] : positions.upperBound
        return (partStarts[k] - positions.lowerBound)..<(end - positions.lowerBound)
    }

    /// Part indices of polygon `i`, counted from the geometry's first part.
    ///
    /// - Parameter i: the polygon, 0..<`polygons.count`.
    public func polygonRange(_ i: Int) -> Range<Int> {
        let k = polygons.lowerBound + i
        let end = k + 1 < polygons.upperBound ? polygonStarts[k + 1] : parts.upperBound
        return (polygonStarts[k] - parts.lowerBound)..<(end - parts.lowerBound)
    }
}
