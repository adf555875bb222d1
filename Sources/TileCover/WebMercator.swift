#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator (EPSG:3857) as OGC WebMercatorQuad lays it out: the world is the unit
/// square, x east from longitude −180, y south from latitude +85.0511287798066, and tile
/// (x, y) at zoom z covers [x, x+1] × [y, y+1] in units of 2^−z.
public enum WebMercator {
    /// The latitude where the square world ends: atan(sinh(π)) in degrees.
    public static let maxLatitude = 85.0511287798066

    /// Metres from the origin to the edge: π × 6378137.
    public static let halfWorldMetres = 20_037_508.342789244

    /// Longitude to x in [0, 1] (−180 → 0, +180 → 1). Longitudes beyond ±180 map beyond
    /// the square (coordinates are taken literally, RFC 7946 §3.1.9 notwithstanding).
    @inlinable
    public static func x(longitude: Double) -> Double { (longitude + 180) / 360 }

    /// Latitude to y in [0, 1], north at 0, after clamping to ±`maxLatitude` (±90 and
    /// beyond clamp too; NaN stays NaN).
    @inlinable
    public static func y(latitude: Double) -> Double {
        let lat = min(max(latitude, -maxLatitude), maxLatitude)
        let s = sin(lat * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return min(max(y, 0), 1)
    }

    /// x back to longitude.
    @inlinable
    public static func longitude(x: Double) -> Double { x * 360 - 180 }

    /// y back to latitude.
    @inlinable
    public static func latitude(y: Double) -> Double {
        let n = .pi - 2 * .pi * y
        return 180 / .pi * atan(0.5 * (exp(n) - exp(-n)))
    }

    /// Longitude/latitude to EPSG:3857 metres.
    public static func metres(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        ((x(longitude: longitude) * 2 - 1) * halfWorldMetres, (1 - y(latitude: latitude) * 2) * halfWorldMetres)
    }

    /// The tile holding a point at zoom z; a point on a tile edge goes to the tile east
    /// or south of it (half-open tiles), and the last column/row keeps +180 and the south
    /// edge.
    public static func tile(longitude: Double, latitude: Double, zoom: Int) -> TileID {
        let n = Double(1 << zoom)
        let maxIndex = (1 << zoom) - 1
        let fx = x(longitude: longitude) * n, fy = y(latitude: latitude) * n
        let tx = fx.isNaN ? 0 : min(max(Int(fx.rounded(.down)), 0), maxIndex)
        let ty = fy.isNaN ? 0 : min(max(Int(fy.rounded(.down)), 0), maxIndex)
        return TileID(z: zoom, x: tx, y: ty)!
    }
}

extension TileID {
    /// The tile's bounds in longitude/latitude: west, south, east, north.
    public var bounds: (west: Double, south: Double, east: Double, north: Double) {
        let n = Double(UInt64(1) << UInt64(z))
        return (WebMercator.longitude(x: Double(x) / n), WebMercator.latitude(y: Double(y + 1) / n),
                WebMercator.longitude(x: Double(x + 1) / n), WebMercator.latitude(y: Double(y) / n))
    }
}
