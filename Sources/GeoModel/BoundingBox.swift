/// An axis-aligned box in longitude/latitude (or any planar x/y), as RFC 7946 §5 `bbox`
/// for two dimensions.
///
/// This module will hold the feature and geometry model with flat coordinate storage; the
/// bounding box is its first piece.
public struct BoundingBox: Equatable, Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// - Precondition: `minX <= maxX` and `minY <= maxY` (API misuse otherwise).
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        precondition(minX <= maxX && minY <= maxY, "inverted bounding box")
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box of flat interleaved coordinates `[x0, y0, x1, y1, ...]` with `dimensions`
    /// values per position (2, 3 or 4); nil for no positions.
    ///
    /// - Complexity: O(n); allocates nothing.
    public init?(flatCoordinates coords: [Double], dimensions: Int = 2) {
        precondition(dimensions >= 2, "a position has at least two values")
        let box = coords.withUnsafeBufferPointer {
            BoundingBox(flatCoordinates: $0, positions: 0..<$0.count / dimensions, dimensions: dimensions)
        }
        guard let box else { return nil }
        self = box
    }

    /// The box of the positions `positions` (indices of positions, not of values) of flat
    /// interleaved coordinates with `dimensions` values per position, as a column batch
    /// holds many geometries' positions in one buffer; nil for an empty range.
    ///
    /// - Parameters:
    ///   - coords: the coordinate values.
    ///   - positions: the positions to bound; every one lies inside `coords`.
    ///   - dimensions: values per position (2, 3 or 4).
    /// - Complexity: O(positions.count); allocates nothing.
    public init?(flatCoordinates coords: UnsafeBufferPointer<Double>, positions: Range<Int>, dimensions: Int) {
        precondition(dimensions >= 2, "a position has at least two values")
        precondition(positions.lowerBound >= 0 && positions.upperBound * dimensions <= coords.count, "positions outside the buffer")
        guard !positions.isEmpty, let c = coords.baseAddress else { return nil }
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in positions {
            let x = c[p &* dimensions], y = c[p &* dimensions &+ 1]
            if x < minX { minX = x }
            if x > maxX { maxX = x }
            if y < minY { minY = y }
            if y > maxY { maxY = y }
        }
        self.init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// The smallest box holding both.
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minX: min(minX, other.minX), minY: min(minY, other.minY),
                    maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// True when the point lies inside or on the boundary.
    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    /// True when the closed boxes share at least one point.
    public func intersects(_ other: BoundingBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }
}
