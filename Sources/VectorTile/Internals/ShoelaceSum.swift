import PBF

/// Whether a LineTo run belongs to a ring (its area is summed) or to a line, as a type so
/// each kind gets its own copy of the loop.
@usableFromInline protocol _RunKind { static var ring: Bool { get } }
@usableFromInline enum _RingRun: _RunKind { @inlinable static var ring: Bool { true } }
@usableFromInline enum _LineRun: _RunKind { @inlinable static var ring: Bool { false } }

/// Twice the signed area of a ring, with coordinates taken relative to an origin (a
/// ring's first vertex, so the sum does not depend on where the ring lies); exact in 64-bit
/// integers while it fits and in floating point after that, so crafted coordinates cannot
/// trap (D4).
///
/// Edges are summed in trapezoid form, (x₁ + x₂)·(y₂ − y₁): one multiplication per edge.
/// Over a closed ring the sum equals the shoelace formula's Σ x₁·y₂ − x₂·y₁, since each
/// edge's two terms differ by x₂·y₂ − x₁·y₁ and those differences cancel around the ring;
/// so every edge, the closing one included (`close`), must be added.
@usableFromInline
struct _ShoelaceSum {
    @usableFromInline let originX: Int64
    @usableFromInline let originY: Int64
    @usableFromInline var exact: Int64 = 0
    @usableFromInline var approx: Double = 0
    @usableFromInline var overflowed = false

    @inlinable init(originX: Int64 = 0, originY: Int64 = 0) {
        self.originX = originX
        self.originY = originY
    }

    /// Adds the term of the edge from (x1, y1) to (x2, y2), tile coordinates. (Decoded
    /// coordinates are sums of fewer than 2^31 32-bit deltas, so the differences do not
    /// wrap.)
    @inlinable
    mutating func add(_ tx1: Int64, _ ty1: Int64, _ tx2: Int64, _ ty2: Int64) {
        let x1 = tx1 &- originX, x2 = tx2 &- originX, dy = ty2 &- ty1
        if !overflowed {
            let (sx, o1) = x1.addingReportingOverflow(x2)
            let (t, o2) = sx.multipliedReportingOverflow(by: dy)
            let (s, o3) = exact.addingReportingOverflow(t)
            if o1 || o2 || o3 {
                overflowed = true
                approx = Double(exact)
            } else {
                exact = s
                return
            }
        }
        approx += (Double(x1) + Double(x2)) * Double(dy)
    }

    /// Adds the closing edge, from (x, y) back to the origin.
    @inlinable
    mutating func close(_ x: Int64, _ y: Int64) {
        add(x, y, originX, originY)
    }

    /// Adds the terms of a chain of edges from y = sy to y = ey, given the sum of their
    /// terms (x₁ + x₂)·(y₂ − y₁) in tile coordinates with wrapping arithmetic, when their
    /// sum relative to the origin is known to fit: Σ (x₁ + x₂ − 2·ox)·(y₂ − y₁) is the
    /// tile sum less 2·ox·(ey − sy), and wrapping arithmetic keeps that identity modulo
    /// 2^64, so the result, which fits, is exact.
    @inlinable
    mutating func addBlock(_ trapezoids: Int64, fromY sy: Int64, toY ey: Int64) {
        addExact(trapezoids &- 2 &* originX &* (ey &- sy))
    }

    /// Adds a partial sum known to be exact.
    @inlinable
    mutating func addExact(_ partial: Int64) {
        if !overflowed {
            let (s, o) = exact.addingReportingOverflow(partial)
            if !o { exact = s; return }
            overflowed = true
            approx = Double(exact)
        }
        approx += Double(partial)
    }

    /// Positive area (y down, clockwise on screen) is exterior (§4.3.4.4).
    @inlinable @inline(__always)
    var kind: RingKind {
        let v = overflowed ? (approx > 0 ? 1 : approx < 0 ? -1 : 0) : exact.signum()
        return v > 0 ? .exterior : v < 0 ? .interior : .degenerate
    }
}
