#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The camera that shows a bounding box: centred on the box and at the largest zoom whose
/// view holds it inside the padded viewport, in Web Mercator, as a map view sets its camera
/// from bounds (MapLibre's `cameraForBounds`, ArcGIS's viewpoint from an extent).
///
/// The box's corners are turned by the camera's bearing before they are measured, so a
/// turned view is fitted to what it shows; the view is taken as seen straight down (a
/// pitched view shows more at the top, which the fit does not count). A box whose east
/// edge is west of its west edge crosses the antimeridian.
public enum CameraFit {
    /// The centre and MapLibre zoom that fit `bounds` (west, south, east, north in degrees;
    /// latitudes clamped to Web Mercator's) into a `width` × `height` view less `padding`
    /// points on every side, for a camera turned by `bearing` degrees. A box of no extent (a
    /// point) gives zoom +∞: the caller's zoom limits clamp it.
    ///
    /// - Throws: `CameraError.outOfRange` for a value that is not finite, a latitude beyond
    ///   ±90°, south above north, a longitude outside −180...180, or a padding that leaves
    ///   no room (`padding` < 0 or 2 · `padding` ≥ a side).
    public static func fit(west: Double, south: Double, east: Double, north: Double,
                           width: Double, height: Double, padding: Double = 0, bearing: Double = 0)
        throws(CameraError) -> (longitude: Double, latitude: Double, zoom: Double)
    {
        for (name, v) in [("west", west), ("east", east)] where !v.isFinite || abs(v) > 180 { throw .outOfRange(name, v) }
        for (name, v) in [("south", south), ("north", north)] where !v.isFinite || abs(v) > 90 { throw .outOfRange(name, v) }
        guard south <= north else { throw .outOfRange("south", south) }
        guard bearing.isFinite else { throw .outOfRange("bearing", bearing) }
        guard padding.isFinite, padding >= 0, 2 * padding < width, 2 * padding < height else { throw .outOfRange("padding", padding) }
        let limit = WebMercator.maxLatitude
        // Mercator units of a 512-point world at zoom 0.
        let x0 = WebMercator.x(longitude: west) * 512
        var x1 = WebMercator.x(longitude: east) * 512
        if east < west { x1 += 512 }
        let y0 = WebMercator.y(latitude: min(max(north, -limit), limit)) * 512
        let y1 = WebMercator.y(latitude: min(max(south, -limit), limit)) * 512
        // The box's extent in the turned view's axes.
        let b = bearing * .pi / 180
        let (c, s) = (abs(cos(b)), abs(sin(b)))
        let (dx, dy) = (x1 - x0, y1 - y0)
        let along = dx * c + dy * s, across = dx * s + dy * c
        let room = min((width - 2 * padding) / along, (height - 2 * padding) / across)
        let zoom = log2(room)
        var lon = WebMercator.longitude(x: (x0 + x1) / 2 / 512)
        if lon > 180 { lon -= 360 }
        let lat = WebMercator.latitude(y: (y0 + y1) / 2 / 512)
        return (lon, lat, zoom)
    }
}
