#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The frames of an animated camera change, as a map view draws them when it is asked to
/// move from one camera to another with an animation: none (a jump), linear, or a flight
/// that zooms out and back in (bow, rocket).
///
/// - `none`: one frame, at the destination.
/// - `linear`: `duration · fps + 1` frames evenly spaced in time; the centre moves along the
///   straight line in Web Mercator (across the antimeridian when that is shorter), zoom and
///   pitch change linearly, and the bearing turns the short way round.
/// - `bow` and `rocket`: the smooth zoom-and-pan path of van Wijk and Nuij ("Smooth and
///   efficient zooming and panning", 2003), the one MapLibre's `flyTo` follows, at constant
///   speed along the path: the view's width `w(s) = w0 · cosh(r0) / cosh(r0 + ρs)` and the
///   distance flown `u(s) = w0 · (cosh(r0) · tanh(r0 + ρs) − sinh(r0)) / ρ²`, with `w0` the
///   larger side of the viewport. The curvature ρ sets how far the flight zooms out: `bow`
///   takes ρ = 1 (van Wijk and Nuij's circular motion), `rocket` ρ = 2, so a rocket flight
///   zooms out at least as far as a bow flight (MapLibre's default, 1.42, lies between). A
///   long flight between equal zooms zooms out; a short one barely. Pitch and bearing change
///   with time as in `linear`.
///
/// Every frame is a camera the view can show only within its limits: callers apply
/// `CameraLimits` to each frame.
public enum CameraTransition {
    public enum Animation: String, Sendable, CaseIterable {
        case none, linear, bow, rocket

        /// The curvature ρ of a flight (`bow`, `rocket`); nil for the others.
        public var curve: Double? {
            switch self {
            case .bow: return 1
            case .rocket: return 2
            case .none, .linear: return nil
            }
        }
    }

    /// One frame: its camera, its time from the start, and the events the map view raises
    /// with it (animation and transformation began on the first frame, ended on the last).
    public struct Frame: Sendable, Equatable {
        public let index: Int
        /// Seconds since the transition began.
        public let time: Double
        public let camera: Camera
        public let began: Bool
        public let ended: Bool

        /// `began`, `ended`, `began+ended` (a transition of one frame) or empty.
        public var event: String {
            [began ? "began" : nil, ended ? "ended" : nil].compactMap { $0 }.joined(separator: "+")
        }
    }

    /// The most frames one transition may have.
    public static let maxFrames = 1_000_000

    /// The frames from `from` to `to` (both in MapLibre's zoom count; the viewport, field of
    /// view and everything else but the centre, zoom, bearing and pitch are `from`'s).
    ///
    /// - Parameters:
    ///   - from: the camera when the transition begins.
    ///   - to: the camera it ends at.
    ///   - animation: how the view moves from one to the other.
    ///   - duration: seconds (unused by `none`).
    ///   - fps: frames per second (unused by `none`); `duration · fps` is rounded to whole
    ///     frame intervals, spread evenly over `duration`.
    ///   - curve: ρ for `bow` and `rocket` instead of theirs.
    /// - Throws: `CameraError.outOfRange` for a value that is not finite, a duration or fps
    ///   ≤ 0, fewer than one or more than `maxFrames` frame intervals, or a curve ≤ 0.
    public static func frames(from: Camera, to: Camera, animation: Animation, duration: Double, fps: Double,
                              curve: Double? = nil) throws(CameraError) -> [Frame] {
        for (name, v) in [("longitude", from.longitude), ("latitude", from.latitude), ("zoom", from.zoom), ("bearing", from.bearing),
                          ("pitch", from.pitch), ("longitude", to.longitude), ("latitude", to.latitude), ("zoom", to.zoom),
                          ("bearing", to.bearing), ("pitch", to.pitch)] where !v.isFinite {
            throw .outOfRange(name, v)
        }
        var end = from
        (end.longitude, end.latitude, end.zoom, end.bearing, end.pitch) = (to.longitude, to.latitude, to.zoom, to.bearing, to.pitch)
        if animation == .none { return [Frame(index: 0, time: 0, camera: end, began: true, ended: true)] }
        guard duration.isFinite, duration > 0 else { throw .outOfRange("duration", duration) }
        guard fps.isFinite, fps > 0 else { throw .outOfRange("fps", fps) }
        let intervals = (duration * fps).rounded()
        guard intervals >= 1, intervals <= Double(maxFrames - 1) else { throw .outOfRange("frames", intervals + 1) }
        let n = Int(intervals)
        let rho = curve ?? animation.curve
        if let rho, !(rho.isFinite && rho > 0) { throw .outOfRange("curve", rho) }

        // Mercator units of a 512-point world at zoom 0; the destination's x moved by whole
        // worlds so that the flight takes the shorter way round.
        let x0 = WebMercator.x(longitude: from.longitude) * 512, y0 = WebMercator.y(latitude: clampLatitude(from.latitude)) * 512
        var x1 = WebMercator.x(longitude: to.longitude) * 512
        let y1 = WebMercator.y(latitude: clampLatitude(to.latitude)) * 512
        x1 -= 512 * ((x1 - x0) / 512).rounded()
        var turn = (to.bearing - from.bearing).truncatingRemainder(dividingBy: 360)
        if turn > 180 { turn -= 360 } else if turn < -180 { turn += 360 }
        let path = rho.map { Flight(from: from, x0: x0, y0: y0, x1: x1, y1: y1, zoom1: to.zoom, rho: $0) }

        var frames: [Frame] = []
        frames.reserveCapacity(n + 1)
        for k in 0...n {
            let t = Double(k) / Double(n)
            var c = from
            let (along, zoom) = k == n ? (1, to.zoom) : path?.at(t) ?? (t, from.zoom + t * (to.zoom - from.zoom))
            c.zoom = zoom
            var x = (x0 + along * (x1 - x0)) / 512
            x -= x.rounded(.down)
            c.longitude = k == n ? to.longitude : WebMercator.longitude(x: x)
            c.latitude = k == n ? to.latitude : WebMercator.latitude(y: (y0 + along * (y1 - y0)) / 512)
            c.pitch = from.pitch + t * (to.pitch - from.pitch)
            var b = (from.bearing + t * turn).truncatingRemainder(dividingBy: 360)
            if b < 0 { b += 360 }
            c.bearing = k == n ? to.bearing : b
            frames.append(Frame(index: k, time: k == n ? duration : duration * t, camera: c, began: k == 0, ended: k == n))
        }
        return frames
    }

    static func clampLatitude(_ lat: Double) -> Double {
        min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)
    }

    /// Van Wijk and Nuij's path between two views, in points at the start zoom.
    struct Flight {
        let rho: Double, zoom0: Double
        let w0: Double, u1: Double, r0: Double, length: Double
        /// Zooming in or out on the spot (no distance to fly): the width changes as e^(kρs).
        let onTheSpot: Double?

        init(from: Camera, x0: Double, y0: Double, x1: Double, y1: Double, zoom1: Double, rho: Double) {
            let w0 = max(from.width, from.height)
            let w1 = w0 / pow(2, zoom1 - from.zoom)
            let u1 = hypot(x1 - x0, y1 - y0) * pow(2, from.zoom)
            let rho2 = rho * rho
            func r(_ i: Int) -> Double {
                let b = (w1 * w1 - w0 * w0 + (i == 0 ? 1 : -1) * rho2 * rho2 * u1 * u1) / (2 * (i == 0 ? w0 : w1) * rho2 * u1)
                return log(sqrt(b * b + 1) - b)
            }
            let r0 = r(0)
            let s = (r(1) - r0) / rho
            (self.rho, zoom0, self.w0, self.u1, self.r0) = (rho, from.zoom, w0, u1, r0)
            if u1 < 1e-6 || !s.isFinite {
                // MapLibre's degenerate case: no pan, only a zoom (or nothing).
                length = abs(log(w1 / w0)) / rho
                onTheSpot = w1 < w0 ? -1 : 1
            } else {
                length = s
                onTheSpot = nil
            }
        }

        /// The fraction of the distance flown and the zoom at time fraction `t`.
        func at(_ t: Double) -> (Double, Double) {
            let s = t * length
            if let k = onTheSpot {
                return (0, zoom0 - log2(exp(k * rho * s)))
            }
            let width = cosh(r0) / cosh(r0 + rho * s)
            let flown = w0 * (cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / (rho * rho) / u1
            return (flown, zoom0 + log2(1 / width))
        }
    }
}

extension CameraTransition {
    /// What a tile layer does frame by frame: the tiles each frame's camera needs, those it
    /// needs that the frame before did not (all of them on the first frame) and those it no
    /// longer needs.
    ///
    /// - Throws: what `CameraCoverage.tiles(for:options:)` throws for a frame's camera.
    public static func tileCounts(_ cameras: [Camera], options: CameraCoverOptions) throws(CameraError)
        -> [(tiles: Int, load: Int, drop: Int)]
    {
        var out: [(tiles: Int, load: Int, drop: Int)] = []
        out.reserveCapacity(cameras.count)
        var previous: [CameraTile] = []
        for c in cameras {
            let tiles = try CameraCoverage.tiles(for: c, options: options)
            let (load, drop) = CameraCoverage.delta(from: previous, to: tiles)
            out.append((tiles.count, load.count, drop.count))
            previous = tiles
        }
        return out
    }
}
