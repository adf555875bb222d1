#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A table-driven Web Mercator y for the point and line covers, where most vertices only
/// need to be placed in a tile, not projected to the last bit.
///
/// y = ½ − gd⁻¹(φ)/2π, with gd⁻¹(φ) = atanh(sin φ) the inverse Gudermannian. The latitude
/// range (−85°, 85°) is cut into 1,024 intervals; in each, gd⁻¹ is its degree-5 Taylor
/// polynomial about the interval's centre φ₀, whose coefficients follow from s = sec φ₀
/// and τ = tan φ₀ (gd⁻¹′ = s, ″ = sτ, ‴ = s(2τ² + 1), ⁗ = sτ(6τ² + 5),
/// ⁽⁵⁾ = s(24τ⁴ + 28τ² + 5)). The half-width is 0.083°, so the remainder, bounded by
/// sτ(120τ⁴ + 180τ² + 61)·h⁶/720 from the sixth derivative, stays below 5·10⁻¹² in
/// gd⁻¹ even at 85°; measured against `WebMercator.y`, the largest difference is about
/// 5.3·10⁻¹³ in world units. `errorBound` allows 19 times that.
///
/// A caller trusts the fast value only where it is farther than `errorBound` (scaled to
/// tile units) from every grid line, so the tile it names is the tile `WebMercator.y` names;
/// everywhere else it projects with `WebMercator.y`.
enum _FastMercator {
    static let intervals = 1024
    /// Latitudes handled by the table: |φ| < `limit` degrees (beyond, `WebMercator.y`).
    static let limit = 85.0
    static let step = 2 * WebMercator.maxLatitude / Double(intervals)
    static let inverseStep = Double(intervals) / (2 * WebMercator.maxLatitude)
    /// |fast y − WebMercator.y| in world units (the square world is 1 wide).
    static let errorBound = 1e-11

    /// Six coefficients per interval, lowest degree first, in t = φ − φ₀ (radians).
    static let coefficients: [Double] = {
        var c: [Double] = []
        c.reserveCapacity(intervals * 6)
        for k in 0..<intervals {
            let phi = (-WebMercator.maxLatitude + (Double(k) + 0.5) * step) * .pi / 180
            let s = 1 / cos(phi), t = tan(phi), t2 = t * t
            c += [asinh(t), s, s * t / 2, s * (2 * t2 + 1) / 6, s * t * (6 * t2 + 5) / 24,
                  s * (24 * t2 * t2 + 28 * t2 + 5) / 120]
        }
        return c
    }()

    /// y in world units for |latitude| < `limit` (the caller checks), from the table `c`.
    @inline(__always)
    static func y(latitude: Double, _ c: UnsafePointer<Double>) -> Double {
        // The interval whose centre is nearest: k = round(position − ½), read off the low
        // bits of u + 2^52 with no range checks, so |t| is at most half a step. |latitude| <
        // limit < maxLatitude keeps u above −½ and below intervals − ½.
        let u = (latitude + WebMercator.maxLatitude) * inverseStep - 0.5
        let k = min(Int(truncatingIfNeeded: (u + 0x1p52).bitPattern & 0xF_FFFF_FFFF_FFFF), intervals - 1)
        let t = (latitude - (-WebMercator.maxLatitude + (Double(k) + 0.5) * step)) * (.pi / 180)
        let p = c + 6 &* k
        // Estrin's scheme: three independent pairs, then two levels, a shorter chain of
        // dependent operations than Horner's.
        let t2 = t * t
        let f = (p[0] + t * p[1]) + t2 * ((p[2] + t * p[3]) + t2 * (p[4] + t * p[5]))
        return 0.5 - f * (0.5 / .pi)
    }

    /// The margin (tile units) the fast y must keep from a grid line at `scale` = 2^zoom
    /// tiles per side, covering `errorBound` and the rounding of the product by `scale`;
    /// nil where it would be too wide to be of use (past z30), so the table is not read.
    static func margin(scale: Double) -> Double? {
        let m = scale * (errorBound + 4e-16)
        return m < 0.05 ? m : nil
    }

    /// The key `row << 32 | column` of the tile holding (x, y(latitude)) strictly inside it,
    /// with y from the table, or nil when the fast y is not far enough from a grid line to
    /// name the tile (the caller then projects with `WebMercator.y`). `x` and the returned
    /// y are in tile units (`scale` tiles per side).
    @inline(__always)
    static func cell(x: Double, latitude: Double, scale: Double, margin: Double,
                     _ c: UnsafePointer<Double>) -> (key: UInt64, y: Double)? {
        guard abs(latitude) < limit && x > 0 && x < scale else { return nil }
        let y = Self.y(latitude: latitude, c) * scale
        let ix = Int(x), iy = Int(y)      // 0 < x, y < scale
        guard Double(ix) != x && y - Double(iy) > margin && Double(iy &+ 1) - y > margin else { return nil }
        return (UInt64(truncatingIfNeeded: iy) << 32 | UInt64(truncatingIfNeeded: ix), y)
    }
}
