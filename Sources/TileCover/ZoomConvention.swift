/// What a zoom level counts. MapLibre (and Graticule's cameras) count a 512-point world at
/// zoom 0; Google Maps, ArcGIS and the mobile SDKs that draw 256-point tiles count a
/// 256-point world at zoom 0, so the same view is one zoom higher in their count: Google
/// zoom z is MapLibre zoom z − 1, and loads z-numbered 256-point tiles.
public enum ZoomConvention: String, Sendable, CaseIterable {
    case maplibre
    case google

    /// The MapLibre zoom of zoom `z` counted in this convention.
    public func mapLibreZoom(_ z: Double) -> Double {
        self == .google ? z - 1 : z
    }

    /// Zoom `z` of MapLibre's count, counted in this convention.
    public func zoom(fromMapLibre z: Double) -> Double {
        self == .google ? z + 1 : z
    }

    /// How the convention counts, for a report's first line.
    public var summary: String {
        switch self {
        case .maplibre: return "maplibre convention: a 512-point world at zoom 0"
        case .google: return "google convention: a 256-point world at zoom 0, one above MapLibre's count"
        }
    }
}
