import GeoModel

/// What a map view can show, as MapLibre GL bounds it: a vertical field of view within
/// 0.01–60° and a canvas whose sides fit the GPU's texture size (16,384 here), which bounds
/// the tiles any one view needs.
public enum MapViewBounds {
    /// The field of view MapLibre's camera accepts, in degrees.
    public static let fieldOfView: ClosedRange<Double> = 0.01...60
    /// The longest canvas side, in points.
    public static let maxCanvasSide: Double = 16_384

    /// Throws ``CameraError/outOfRange(_:_:)`` naming `fieldOfView` or `width`/`height`
    /// when a view is outside these bounds.
    public static func check(width: Double, height: Double, fieldOfView: Double = Camera.defaultFieldOfView) throws(CameraError) {
        guard fieldOfView.isFinite, Self.fieldOfView.contains(fieldOfView) else { throw .outOfRange("fieldOfView", fieldOfView) }
        guard width <= maxCanvasSide else { throw .outOfRange("width", width) }
        guard height <= maxCanvasSide else { throw .outOfRange("height", height) }
    }
}

extension MapViewBounds {
    /// A viewport written `WIDTHxHEIGHT` (`390x844`, `X` too): both sides positive and
    /// finite; nil otherwise. Whether the view is within bounds is `check`'s to say.
    public static func viewport(parsing s: some StringProtocol) -> (width: Double, height: Double)? {
        let parts = s.lowercased().split(separator: "x")
        guard parts.count == 2, let w = DecimalText.parse(parts[0]), let h = DecimalText.parse(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }
}
