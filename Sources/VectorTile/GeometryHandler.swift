/// Receives a feature's geometry as it is decoded, so no array is built unless the handler
/// builds one. Coordinates are tile coordinates (0...extent inside the tile, §4.3.3),
/// accumulated in 64 bits so crafted deltas cannot overflow (C6).
///
/// Every method has an empty default, so a handler implements only what it needs.
public protocol GeometryHandler {
    /// One point of a POINT feature (a MultiPoint calls it once per point).
    mutating func point(x: Int64, y: Int64)
    mutating func lineBegin()
    mutating func linePoint(x: Int64, y: Int64)
    mutating func lineEnd()
    mutating func ringBegin()
    /// Ring vertices as encoded; the closing vertex (equal to the first) is not repeated.
    mutating func ringPoint(x: Int64, y: Int64)
    /// Ends a ring with its classification by the sign of its area (§4.3.4.4).
    mutating func ringEnd(_ kind: RingKind)
}

/// Every call does nothing unless the handler implements it, so a handler implements only
/// the calls for the geometry types it reads.
public extension GeometryHandler {
    @inlinable
    mutating func point(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineBegin() {}
    @inlinable
    mutating func linePoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineEnd() {}
    @inlinable
    mutating func ringBegin() {}
    @inlinable
    mutating func ringPoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func ringEnd(_ kind: RingKind) {}
}

/// A ring's role, from the sign of its area in tile coordinates (y down): positive is an
/// exterior ring, negative an interior ring (§4.3.4.4, D4); zero area is degenerate (D7).
public enum RingKind: Sendable, Equatable {
    case exterior, interior, degenerate
}

/// How strictly geometry is decoded.
public enum GeometryMode: Sendable {
    /// Every rule of §4.3 is enforced, recoverable ones (zero-length LineTo, C8) included.
    case strict
    /// Recoverable problems are passed over: a zero-length LineTo vertex is dropped.
    case tolerant
}
