#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A map camera over a flat Web Mercator map: what a map view shows.
///
/// The model is the one map SDKs with a 512-px world tile use (MapLibre, Mapbox): the world
/// is `512 · 2^zoom` points wide, the camera looks at `center` from a distance of
/// `0.5 · height / tan(fieldOfView / 2)` points, tilted by `pitch` from straight down and
/// turned by `bearing` (the compass direction at the top of the screen).
public struct Camera: Sendable, Equatable {
    /// The point at the centre of the viewport (degrees). Latitude is clamped to the
    /// Mercator limit (±85.0511287798066°).
    public var longitude: Double
    public var latitude: Double
    /// Map zoom in MapLibre's count; fractional zooms are allowed (−1...30: −1 is zoom 0 of
    /// Google's count, `ZoomConvention.google`).
    public var zoom: Double
    /// Degrees clockwise from north of the direction at the top of the screen; any value,
    /// taken modulo 360.
    public var bearing: Double
    /// Degrees from straight down (0...85).
    public var pitch: Double
    /// Viewport size in points.
    public var width: Double
    public var height: Double
    /// Vertical field of view in degrees (0 < fov < 180). The default is MapLibre's,
    /// 2·atan(1/3) ≈ 36.87°, so the camera stands 1.5 viewport heights from the centre.
    public var fieldOfView: Double

    public static let defaultFieldOfView = 2 * atan(1.0 / 3.0) * 180 / .pi

    public init(longitude: Double, latitude: Double, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                width: Double, height: Double, fieldOfView: Double = Camera.defaultFieldOfView)
    {
        self.longitude = longitude
        self.latitude = latitude
        self.zoom = zoom
        self.bearing = bearing
        self.pitch = pitch
        self.width = width
        self.height = height
        self.fieldOfView = fieldOfView
    }
}
