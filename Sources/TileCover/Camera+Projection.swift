extension Camera {
    /// The longitude/latitude seen at viewport point (x, y) (origin top-left, in points),
    /// or nil when that ray passes above the horizon. Longitudes are not wrapped (a point
    /// in the world copy east of ±180 has a longitude above 180).
    public func unproject(x: Double, y: Double) -> (longitude: Double, latitude: Double)? {
        let fr = _CameraFrame(self)
        let sx = (2 * x / width - 1) * fr.tanH, sy = (1 - 2 * y / height) * fr.tanV
        let d = (fr.f.0 + sx * fr.r.0 + sy * fr.u.0, fr.f.1 + sx * fr.r.1 + sy * fr.u.1, fr.f.2 + sx * fr.r.2 + sy * fr.u.2)
        guard d.2 < 0 else { return nil }
        let t = -fr.cam.2 / d.2
        let gx = fr.cam.0 + t * d.0, gy = fr.cam.1 + t * d.1
        return (WebMercator.longitude(x: gx), WebMercator.latitude(y: gy))
    }

    /// The viewport point (origin top-left, in points) where a longitude/latitude
    /// appears, or nil when it is behind the camera. The point may lie outside the
    /// viewport.
    public func project(longitude: Double, latitude: Double) -> (x: Double, y: Double)? {
        let fr = _CameraFrame(self)
        let v = (WebMercator.x(longitude: longitude) - fr.cam.0, WebMercator.y(latitude: latitude) - fr.cam.1, -fr.cam.2)
        let depth = v.0 * fr.f.0 + v.1 * fr.f.1 + v.2 * fr.f.2
        guard depth > 0 else { return nil }
        let sx = (v.0 * fr.r.0 + v.1 * fr.r.1 + v.2 * fr.r.2) / depth / fr.tanH
        let sy = (v.0 * fr.u.0 + v.1 * fr.u.1 + v.2 * fr.u.2) / depth / fr.tanV
        return ((sx + 1) / 2 * width, (1 - sy) / 2 * height)
    }
}
