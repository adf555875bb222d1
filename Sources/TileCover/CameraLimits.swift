#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The highest pitch a map view allows at each zoom: stops `(zoom, maxPitch)` joined by
/// straight lines, held flat before the first stop and after the last.
///
/// Map views that limit tilt by zoom (a maximum tilt profile) let a close view lean further
/// than a continental one; the tilt a camera actually gets is its requested pitch clipped
/// to the profile at its zoom. MapLibre's default is one flat limit of 60° at every zoom
/// (`TiltProfile.mapLibre`).
public struct TiltProfile: Sendable, Equatable, CustomStringConvertible {
    /// The stops, zooms strictly increasing.
    public let stops: [(zoom: Double, maxPitch: Double)]

    /// MapLibre's default: at most 60° at every zoom.
    public static let mapLibre = TiltProfile(unchecked: [(0, 60)])

    /// 0° at every zoom: as a minimum tilt profile, no minimum (the map views' default).
    public static let flat = TiltProfile(unchecked: [(0, 0)])

    /// The highest pitch a stop may allow: the limit of the camera model
    /// (`CameraCoverage` draws pitches 0...85).
    public static let modelMaxPitch = 85.0

    /// A profile from its stops.
    ///
    /// - Throws: `CameraError.invalidTiltProfile` when there is no stop, a value is not
    ///   finite, a zoom is outside 0...30, zooms do not strictly increase, or a pitch is
    ///   outside 0...85.
    public init(stops: [(zoom: Double, maxPitch: Double)]) throws(CameraError) {
        guard !stops.isEmpty else { throw .invalidTiltProfile("a profile needs at least one stop") }
        for (k, s) in stops.enumerated() {
            guard s.zoom.isFinite, (0...30).contains(s.zoom) else {
                throw .invalidTiltProfile("stop \(k + 1): zoom \(s.zoom) is outside 0...30")
            }
            guard s.maxPitch.isFinite, (0...Self.modelMaxPitch).contains(s.maxPitch) else {
                throw .invalidTiltProfile("stop \(k + 1): pitch \(s.maxPitch) is outside 0...85")
            }
            if k > 0 && !(stops[k - 1].zoom < s.zoom) {
                throw .invalidTiltProfile("stop \(k + 1): zooms must increase (\(stops[k - 1].zoom) then \(s.zoom))")
            }
        }
        self.stops = stops
    }

    /// Parses `"z:deg,z:deg,..."`, e.g. `"0:30,10:45,16:67.5"`; spaces around the numbers
    /// are allowed.
    ///
    /// - Throws: `CameraError.invalidTiltProfile` naming the stop that is not `ZOOM:DEGREES`
    ///   or breaks a rule of `init(stops:)`.
    public init(parsing text: String) throws(CameraError) {
        var stops: [(zoom: Double, maxPitch: Double)] = []
        for (k, part) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let pair = part.split(separator: ":", omittingEmptySubsequences: false)
            func number(_ s: Substring) -> Double? {
                var t = s[...]
                while t.first == " " { t = t.dropFirst() }
                while t.last == " " { t = t.dropLast() }
                return Double(t)
            }
            guard pair.count == 2, let z = number(pair[0]), let p = number(pair[1]) else {
                throw .invalidTiltProfile("stop \(k + 1) '\(part)' is not ZOOM:DEGREES")
            }
            stops.append((z, p))
        }
        try self.init(stops: stops)
    }

    private init(unchecked stops: [(zoom: Double, maxPitch: Double)]) { self.stops = stops }

    /// The profile's pitch at `zoom`: the highest pitch allowed, for a maximum tilt profile
    /// (for a minimum one, `CameraLimits.minTilt`, the lowest).
    public func maxPitch(atZoom zoom: Double) -> Double {
        guard let first = stops.first, let last = stops.last else { return Self.modelMaxPitch }
        if zoom <= first.zoom { return first.maxPitch }
        if zoom >= last.zoom { return last.maxPitch }
        var k = 1
        while stops[k].zoom < zoom { k += 1 }
        let a = stops[k - 1], b = stops[k]
        let t = (zoom - a.zoom) / (b.zoom - a.zoom)
        return a.maxPitch + t * (b.maxPitch - a.maxPitch)
    }

    /// `z:deg,z:deg,...`, the form `init(parsing:)` reads.
    public var description: String {
        stops.map { "\(Self.format($0.zoom)):\(Self.format($0.maxPitch))" }.joined(separator: ",")
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    public static func == (a: TiltProfile, b: TiltProfile) -> Bool {
        a.stops.count == b.stops.count && zip(a.stops, b.stops).allSatisfy { $0.zoom == $1.zoom && $0.maxPitch == $1.maxPitch }
    }
}

/// The limits a map view puts on its camera: a zoom range and a maximum and minimum tilt
/// profile.
///
/// As in the map SDKs, a camera outside the limits is not an error: its zoom is clamped to
/// `minZoom...maxZoom` and then its pitch to `minTilt...maxTilt` at the clamped zoom (both
/// profiles interpolated the same way; where the minimum would pass the maximum, the maximum
/// wins). Only values no camera can take (not finite) are rejected. The defaults are
/// MapLibre's: zoom 0...22, pitch at most 60°, no minimum tilt.
public struct CameraLimits: Sendable, Equatable {
    public var minZoom: Double
    public var maxZoom: Double
    public var maxTilt: TiltProfile
    /// The lowest pitch at each zoom (a map view's minimum tilt at zoom level); `.flat`, no
    /// minimum, by default.
    public var minTilt: TiltProfile = .flat

    /// The lowest zoom a camera may have: −1 in MapLibre's count, which is zoom 0 of
    /// Google's (a 256-point world, one 256-point tile; `ZoomConvention.google`).
    public static let lowestZoom = -1.0

    /// The largest longitude a camera centre may have, ±10^9 degrees: a map view wraps a
    /// longitude into the world, and up to here doubles are at most 1.2·10^-7 degrees
    /// (about a centimetre) apart, so the wrapped centre is the one meant. At 10^17 they
    /// are 16 degrees apart and the answer would be anyone's guess.
    public static let maxWrappableLongitude = 1e9

    /// MapLibre's defaults: zoom 0...22, at most 60° of pitch.
    public static let mapLibre = CameraLimits(unchecked: 0, 22, .mapLibre)

    /// - Throws: `CameraError.outOfRange` when a zoom limit is not finite, is outside
    ///   −1...30 (`lowestZoom`...30), or `minZoom > maxZoom`.
    public init(minZoom: Double = 0, maxZoom: Double = 22, maxTilt: TiltProfile = .mapLibre,
                minTilt: TiltProfile = .flat) throws(CameraError) {
        for (name, v) in [("minZoom", minZoom), ("maxZoom", maxZoom)] where !v.isFinite || !(Self.lowestZoom...30).contains(v) {
            throw .outOfRange(name, v)
        }
        guard minZoom <= maxZoom else { throw .outOfRange("minZoom", minZoom) }
        self.init(unchecked: minZoom, maxZoom, maxTilt)
        self.minTilt = minTilt
    }

    private init(unchecked minZoom: Double, _ maxZoom: Double, _ maxTilt: TiltProfile) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.maxTilt = maxTilt
    }

    /// `camera` with its zoom clamped to the zoom range, its pitch to the tilt allowed at that
    /// zoom, and its centre's latitude to Web Mercator's (±`WebMercator.maxLatitude`, as the
    /// map views clamp it); `LimitedCamera` says what was asked for.
    ///
    /// - Throws: `CameraError.outOfRange` for a zoom or pitch that is not finite (NaN or
    ///   infinite: no limit gives it a meaning), a latitude that is not finite or beyond ±90°
    ///   (no place on Earth; MapLibre's `LngLat` refuses it too), and a longitude beyond
    ///   ±`maxWrappableLongitude`, which cannot be wrapped into the world exactly.
    public func apply(to camera: Camera) throws(CameraError) -> LimitedCamera {
        guard camera.longitude.isFinite, abs(camera.longitude) <= Self.maxWrappableLongitude else {
            throw .outOfRange("longitude", camera.longitude)
        }
        guard camera.latitude.isFinite, abs(camera.latitude) <= 90 else { throw .outOfRange("latitude", camera.latitude) }
        guard camera.zoom.isFinite else { throw .outOfRange("zoom", camera.zoom) }
        guard camera.pitch.isFinite else { throw .outOfRange("pitch", camera.pitch) }
        var limited = camera
        limited.latitude = min(max(camera.latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        limited.zoom = min(max(camera.zoom, minZoom), maxZoom)
        let ceiling = maxTilt.maxPitch(atZoom: limited.zoom)
        let floor = min(minTilt.maxPitch(atZoom: limited.zoom), ceiling)
        limited.pitch = min(max(camera.pitch, floor), ceiling)
        return LimitedCamera(camera: limited, requestedZoom: camera.zoom, requestedPitch: camera.pitch, maxPitch: ceiling,
                             requestedLatitude: camera.latitude, minPitch: floor)
    }
}

/// A camera after `CameraLimits.apply(to:)`, with what was asked for.
public struct LimitedCamera: Sendable, Equatable {
    /// The camera as the map view shows it (zoom clamped, pitch clipped).
    public let camera: Camera
    public let requestedZoom: Double
    public let requestedPitch: Double
    /// The tilt profile's maximum at the camera's (clamped) zoom.
    public let maxPitch: Double
    /// The minimum tilt profile's value at the camera's (clamped) zoom (0 without one).
    public let minPitch: Double
    /// The centre's latitude asked for (the camera's is clamped to Web Mercator's).
    public var requestedLatitude: Double { _requestedLatitude ?? camera.latitude }
    let _requestedLatitude: Double?

    public init(camera: Camera, requestedZoom: Double, requestedPitch: Double, maxPitch: Double, requestedLatitude: Double? = nil,
                minPitch: Double = 0) {
        self.camera = camera
        self.requestedZoom = requestedZoom
        self.requestedPitch = requestedPitch
        self.maxPitch = maxPitch
        self.minPitch = minPitch
        _requestedLatitude = requestedLatitude
    }

    /// Whether the centre's latitude was moved to Web Mercator's limit.
    public var latitudeClamped: Bool { camera.latitude != requestedLatitude }

    /// Whether the zoom was moved into the zoom range.
    public var zoomClamped: Bool { camera.zoom != requestedZoom }
    /// Whether the pitch was clipped (to the profile's maximum, or up to the minimum or 0).
    public var pitchClipped: Bool { camera.pitch != requestedPitch }
    /// Whether the pitch was raised to the minimum tilt at the zoom (a minimum above 0).
    public var pitchRaisedToMinimum: Bool { camera.pitch > requestedPitch && minPitch > 0 && camera.pitch == minPitch }
}

extension CameraLimits {
    /// The zoom below which the world (`512 · 2^zoom` points square) no longer fills a
    /// `width` × `height` viewport, as MapLibre constrains its transform: the world's height
    /// must cover the view's, and its width too when the map shows one world copy only (with
    /// copies, the world repeats sideways). For the view seen straight down; never below
    /// `lowestZoom`.
    public static func effectiveMinZoom(width: Double, height: Double, worldCopies: Bool = true) -> Double {
        let side = worldCopies ? height : max(width, height)
        return max(Self.lowestZoom, log2(side / 512))
    }
}
