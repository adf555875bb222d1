/// A position on the WGS 84 ellipsoid: latitude and longitude in degrees, as a GPS or a
/// route file gives it (latitude first, unlike GeoJSON's coordinate order).
public struct GeoPosition: Sendable, Equatable, Hashable {
    /// Degrees north of the equator, −90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180...180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
