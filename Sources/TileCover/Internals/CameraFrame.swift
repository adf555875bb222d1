#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A camera's position and axes in Mercator units (the world is [0, 1]², y south, z up).
struct _CameraFrame {
    let centerX: Double, centerY: Double
    /// Camera to centre distance.
    let distance: Double
    let cam: (Double, Double, Double)
    /// Forward (towards the centre), screen up and screen right, unit vectors.
    let f: (Double, Double, Double), u: (Double, Double, Double), r: (Double, Double, Double)
    /// Tangents of the half fields of view, vertical and horizontal.
    let tanV: Double, tanH: Double
    let width: Double, height: Double

    init(_ camera: Camera) {
        centerX = WebMercator.x(longitude: camera.longitude)
        centerY = WebMercator.y(latitude: camera.latitude)
        let worldSize = 512 * exp2(camera.zoom)
        let halfFov = camera.fieldOfView * .pi / 360
        distance = 0.5 * camera.height / tan(halfFov) / worldSize
        let p = camera.pitch * .pi / 180
        let b = camera.bearing.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (sinP, cosP, sinB, cosB) = (sin(p), cos(p), sin(b), cos(b))
        cam = (centerX - distance * sinP * sinB, centerY + distance * sinP * cosB, distance * cosP)
        f = (sinP * sinB, -sinP * cosB, -cosP)
        u = (sinB * cosP, -cosB * cosP, sinP)
        r = (cosB, sinB, 0.0)
        tanV = tan(halfFov)
        tanH = tanV * camera.width / camera.height
        width = camera.width
        height = camera.height
    }
}
