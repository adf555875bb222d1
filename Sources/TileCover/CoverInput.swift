import GeoModel

/// What the cover reads of a simple geometry (not a collection), so that one walk serves a
/// `Geometry` and a geometry inside a batch's shared buffers (`FlatGeometry`) alike.
protocol _CoverInput {
    var kind: Geometry.Kind { get }
    var positionCount: Int { get }
    /// Values per position.
    var stride: Int { get }
    /// Calls `body` with the geometry's first value (nil when it has none).
    func withCoordinates<R>(_ body: (UnsafePointer<Double>?) -> R) -> R
    var partCount: Int { get }
    /// Position indices of part `i`, from the geometry's first position.
    func partRange(_ i: Int) -> Range<Int>
    var polygonCount: Int { get }
    /// Part indices of polygon `i`, from the geometry's first part.
    func polygonRange(_ i: Int) -> Range<Int>
}

extension Geometry: _CoverInput {
    var stride: Int { dimensions }
    var partCount: Int { partStarts.count }
    var polygonCount: Int { polygonStarts.count }

    @inline(__always)
    func withCoordinates<R>(_ body: (UnsafePointer<Double>?) -> R) -> R {
        coordinates.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

extension FlatGeometry: _CoverInput {
    var partCount: Int { parts.count }
    var polygonCount: Int { polygons.count }

    @inline(__always)
    func withCoordinates<R>(_ body: (UnsafePointer<Double>?) -> R) -> R {
        coordinates.withUnsafeBufferPointer { body($0.baseAddress.map { $0 + positions.lowerBound &* stride }) }
    }
}
