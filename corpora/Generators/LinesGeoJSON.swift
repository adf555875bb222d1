import GraticuleSupport

/// GeoJSON LineStrings for line-coverage benchmarks: a long random walk (a GPS trace or a
/// road network's worth of vertices in one line) and a single long segment.
///
/// Deterministic: the same seed and count give the same bytes on every machine.
public enum LinesGeoJSON {
    /// The most vertices a random walk is generated with: it is built in memory, about 21
    /// bytes a vertex, so 100 million make about 2.1 GB.
    public static let maxVertices = 100_000_000

    /// A random walk of `vertices` vertices starting near (lon0, lat0), steps of up to
    /// `step` degrees with a slowly turning heading, as one LineString Feature.
    public static func randomWalk(vertices: Int, seed: UInt64 = 4, lon0: Double = 10.0, lat0: Double = 47.0,
                                  step: Double = 0.0004) -> (bytes: [UInt8], items: Int)
    {
        var rng = SplitMix64(seed: seed)
        var out = [UInt8]()
        out.reserveCapacity(vertices * 24 + 128)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put("{\"type\":\"Feature\",\"properties\":{\"name\":\"random walk\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
        var lon = lon0, lat = lat0, heading = rng.uniform(0, 6.283185307179586)
        for i in 0..<vertices {
            put(i == 0 ? "[" : ",[")
            put(PointsGeoJSON.fixed6(lon)); put(","); put(PointsGeoJSON.fixed6(lat)); put("]")
            heading += rng.normal() * 0.35
            let d = step * (0.2 + rng.unit())
            lon = min(179.9, max(-179.9, lon + d * SeriesTrig.cos(heading)))
            lat = min(84.9, max(-84.9, lat + d * SeriesTrig.sin(heading)))
        }
        put("]}}\n")
        return (out, vertices)
    }

    /// One two-vertex LineString from (lon0, lat0) to (lon1, lat1).
    public static func segment(_ lon0: Double, _ lat0: Double, _ lon1: Double, _ lat1: Double) -> (bytes: [UInt8], items: Int) {
        let s = "{\"type\":\"LineString\",\"coordinates\":[[\(PointsGeoJSON.fixed6(lon0)),\(PointsGeoJSON.fixed6(lat0))],"
            + "[\(PointsGeoJSON.fixed6(lon1)),\(PointsGeoJSON.fixed6(lat1))]]}\n"
        return (Array(s.utf8), 2)
    }

}

/// A GPX 1.1 track of a device moving along a random walk (one `trkseg`), for the follow
/// benchmarks and tests. Deterministic like the other generators. With `courses`, every
/// point carries the heading it moves on (degrees clockwise from true north, in Garmin's
/// TrackPointExtension `course`, as devices record it); the positions are the same either way.
public enum GPXTrackGenerator {
    /// The most track points one file is generated with: it is built in memory, up to about
    /// 171 bytes a point with courses, so 10 million make about 1.7 GB.
    public static let maxPoints = 10_000_000

    public static func generate(points: Int, seed: UInt64 = 5, lon0: Double = 14.5, lat0: Double = 46.05,
                                step: Double = 0.0002, courses: Bool = false) -> (bytes: [UInt8], items: Int)
    {
        var rng = SplitMix64(seed: seed)
        var out = [UInt8]()
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"graticule corpus generator\" ")
        if courses { put("xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\" ") }
        put("xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><name>generated drive</name><trkseg>\n")
        var lon = lon0, lat = lat0, heading = rng.uniform(0, 6.283185307179586)
        for _ in 0..<points {
            heading += rng.normal() * 0.15
            let d = step * (0.5 + rng.unit())
            let point = "<trkpt lat=\"\(PointsGeoJSON.fixed6(lat))\" lon=\"\(PointsGeoJSON.fixed6(lon))\""
            if courses {
                // The walk steps cos(heading) degrees of longitude per sin(heading) of latitude;
                // on the ground a degree of longitude is cos(latitude) as long. The course is
                // that step's bearing, clockwise from north.
                let east = SeriesTrig.cos(heading) * SeriesTrig.cos(lat * 0.017453292519943295)
                var course = SeriesTrig.atan2(east, SeriesTrig.sin(heading)) * 57.29577951308232
                if course < 0 { course += 360 }
                if course >= 360 { course = 0 }
                put(point + "><extensions><gpxtpx:TrackPointExtension><gpxtpx:course>\(PointsGeoJSON.fixed6(course))"
                    + "</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>\n")
            } else {
                put(point + "/>\n")
            }
            lon = min(179.9, max(-179.9, lon + d * SeriesTrig.cos(heading)))
            lat = min(84.9, max(-84.9, lat + d * SeriesTrig.sin(heading)))
        }
        put("</trkseg></trk>\n</gpx>\n")
        return (out, points)
    }
}

/// Sine and cosine by a Taylor series with a fixed operation order, so generated data does
/// not depend on a platform's libm.
public enum SeriesTrig {
    public static func sin(_ x: Double) -> Double {
        var a = x.truncatingRemainder(dividingBy: 6.283185307179586)
        if a > 3.141592653589793 { a -= 6.283185307179586 } else if a < -3.141592653589793 { a += 6.283185307179586 }
        var term = a, sum = a
        for n in 1..<12 {
            term *= -a * a / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    public static func cos(_ x: Double) -> Double { sin(x + 1.5707963267948966) }

    /// atan2(y, x): the angle of the point (x, y) from the positive x axis, radians in
    /// (-π, π]. Square roots (correctly rounded everywhere) halve the argument twice before
    /// a short series, so every platform gives the same bits.
    public static func atan2(_ a: Double, _ b: Double) -> Double {
        if b == 0 { return a > 0 ? 1.5707963267948966 : a < 0 ? -1.5707963267948966 : 0 }
        var t = atan(a / b)
        if b < 0 { t += a >= 0 ? 3.141592653589793 : -3.141592653589793 }
        return t
    }

    static func atan(_ z: Double) -> Double {
        if z > 1 { return 1.5707963267948966 - atan(1 / z) }
        if z < -1 { return -1.5707963267948966 - atan(1 / z) }
        var x = z
        for _ in 0..<2 { x = x / (1 + (1 + x * x).squareRoot()) }  // atan z = 4 atan x, |x| <= 0.2
        var term = x, sum = x
        for n in 1..<12 {
            term *= -x * x
            sum += term / Double(2 * n + 1)
        }
        return 4 * sum
    }
}
