import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

/// A `--min-zoom` value: a zoom, or `effective`, the zoom below which the world no longer
/// fills the viewport (`CameraLimits.effectiveMinZoom`).
enum MinZoomOption: ExpressibleByArgument, Equatable {
    case zoom(Double)
    case effective

    init?(argument: String) {
        if argument == "effective" { self = .effective; return }
        guard let z = DecimalText.parse(argument) else { return nil }
        self = .zoom(z)
    }
}

/// The view's camera limits and the zoom convention, shared by `cover camera`,
/// `cover follow` and `tiles load`.
struct CameraLimitOptions: ParsableArguments {
    @Option(help: "The view's min zoom: a lower zoom is clamped up to it (in --zoom-convention; default 0, the lowest of the convention), or 'effective': the zoom below which the world no longer fills the viewport.")
    var minZoom: MinZoomOption?
    @Option(help: "The view's max zoom: a higher zoom is clamped down to it (MapLibre's default 22; in --zoom-convention).")
    var maxZoom: Double?
    @Option(help: "Maximum tilt per zoom, \"z:deg,z:deg,...\", straight lines between the stops and flat beyond them; the pitch is clipped to it (default MapLibre's flat 60; zooms in MapLibre's count).")
    var maxTiltProfile: String = TiltProfile.mapLibre.description
    @Option(help: "Minimum tilt per zoom, \"z:deg,z:deg,...\", read as --max-tilt-profile; a lower pitch is raised to it (default none; where it passes the maximum, the maximum wins).")
    var minTiltProfile: String?
    @Option(help: "What --zoom, --min-zoom and --max-zoom count: maplibre (a 512-point world at zoom 0, the default) or google (a 256-point world at zoom 0, as Google Maps and the SDKs with 256-point tile layers count: zoom z is MapLibre zoom z − 1; zoom 0 is one 256-point tile, and tiles are 256 points unless --tile-size says otherwise).")
    var zoomConvention: ZoomConvention = .maplibre

    var profile: TiltProfile {
        do { return try TiltProfile(parsing: maxTiltProfile) } catch { fail("--max-tilt-profile: \(error)") }
    }

    var minimumProfile: TiltProfile {
        guard let minTiltProfile else { return .flat }
        do { return try TiltProfile(parsing: minTiltProfile) } catch { fail("--min-tilt-profile: \(error)") }
    }

    /// The tile size a source has unless `--tile-size` says: 256 points in Google's count,
    /// 512 in MapLibre's.
    func tileSize(_ option: Int?) -> Int {
        option ?? (zoomConvention == .google ? 256 : 512)
    }

    /// The lowest zoom of the convention, in MapLibre's count (Google's zoom 0 is −1).
    var lowestZoom: Double { zoomConvention.mapLibreZoom(0) }

    /// The view's limits in MapLibre's count for a `width` × `height` viewport (the
    /// effective minimum zoom depends on it). Exit 2 for limits outside the view's zooms.
    func cameraLimits(width: Double, height: Double, worldCopies: Bool = true) -> CameraLimits {
        let hi = maxZoom.map(zoomConvention.mapLibreZoom) ?? 22
        let lo: Double
        switch minZoom {
        case .effective?:
            lo = min(max(lowestZoom, CameraLimits.effectiveMinZoom(width: width, height: height, worldCopies: worldCopies)), hi)
        case .zoom(let z)?: lo = zoomConvention.mapLibreZoom(z)
        case nil: lo = lowestZoom
        }
        do { return try CameraLimits(minZoom: lo, maxZoom: hi, maxTilt: profile, minTilt: minimumProfile) } catch {
            let (name, v): (String, Double)
            if case .outOfRange(let n, let x) = error { (name, v) = (n, x) } else { (name, v) = ("minZoom", lo) }
            fail("--\(name == "maxZoom" ? "max" : "min")-zoom \(zoomConvention.zoom(fromMapLibre: v)) is outside the view's zooms "
                 + "(\(zoomConvention == .google ? "0–31" : "0–30") in the \(zoomConvention.rawValue) convention), or --min-zoom is above --max-zoom")
        }
    }

    /// `camera` (its zoom in the convention) clamped and clipped as the view's limits say;
    /// the result's zooms are MapLibre's. Exit 2 for limits or a camera no limit gives a
    /// meaning (NaN, infinite).
    func apply(to camera: Camera, worldCopies: Bool = true) -> LimitedCamera {
        var c = camera
        c.zoom = zoomConvention.mapLibreZoom(camera.zoom)
        return Self.limit(c, by: cameraLimits(width: camera.width, height: camera.height, worldCopies: worldCopies))
    }

    /// `camera` (zoom in MapLibre's count) under `limits`; exit 2 for a camera no limit gives
    /// a meaning.
    static func limit(_ camera: Camera, by limits: CameraLimits) -> LimitedCamera {
        do {
            return try limits.apply(to: camera)
        } catch .outOfRange("longitude", let v) {
            fail("--center longitude \(v) cannot be wrapped into -180...180 exactly"
                 + (v.isFinite ? " (doubles that large are \(v.ulp) degrees apart)" : "")
                 + "; give a longitude within ±\(Int(CameraLimits.maxWrappableLongitude))")
        } catch {
            fail("\(error)")
        }
    }

    /// One line stating the camera as shown: the zoom (in the convention, and MapLibre's when
    /// it is another) and the pitch after the limits, what was asked for when a limit changed
    /// it, and the zoom below which the world no longer fills the viewport.
    func state(_ limited: LimitedCamera, worldCopies: Bool = true) -> String {
        cameraState(limited, profile, zoomConvention, minimumProfile: minimumProfile, worldCopies: worldCopies)
    }
}

extension ZoomConvention: ExpressibleByArgument {}

/// One line stating the camera as shown (see `CameraLimitOptions.state`).
func cameraState(_ limited: LimitedCamera, _ profile: TiltProfile, _ convention: ZoomConvention = .maplibre,
                 minimumProfile: TiltProfile = .flat, worldCopies: Bool = true) -> String {
    func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v) }
    func z(_ v: Double) -> String { f(convention.zoom(fromMapLibre: v)) }
    var line = "camera: \(convention.rawValue) zoom \(z(limited.camera.zoom))"
        + (convention == .maplibre ? "" : " = maplibre zoom \(f(limited.camera.zoom))")
    if limited.zoomClamped { line += " (asked \(z(limited.requestedZoom)), clamped to the view's zoom range)" }
    line += ", tilt \(f(limited.camera.pitch))°"
    if limited.pitchRaisedToMinimum {
        line += " (asked \(f(limited.requestedPitch))°, raised: the minimum tilt at zoom \(f(limited.camera.zoom)) is \(f(limited.minPitch))°"
            + " under profile \(minimumProfile))"
    } else if limited.pitchClipped && limited.camera.pitch > limited.requestedPitch {
        line += " (asked \(f(limited.requestedPitch))°, raised to the lowest tilt, 0°)"
    } else if limited.pitchClipped {
        line += " (asked \(f(limited.requestedPitch))°, clipped: the maximum tilt at zoom \(f(limited.camera.zoom)) is \(f(limited.maxPitch))° under profile \(profile))"
    } else {
        line += " (maximum \(f(limited.maxPitch))° at this zoom\(limited.minPitch > 0 ? ", minimum \(f(limited.minPitch))°" : ""))"
    }
    if limited.latitudeClamped {
        line += ", centre latitude \(f(limited.camera.latitude))° (asked \(f(limited.requestedLatitude))°, clamped to Web Mercator's limit)"
    }
    let filled = max(convention.mapLibreZoom(0),
                     CameraLimits.effectiveMinZoom(width: limited.camera.width, height: limited.camera.height, worldCopies: worldCopies))
    line += "; the world fills \(viewportText(limited.camera.width))x\(viewportText(limited.camera.height)) from zoom "
        + String(format: "%.2f", convention.zoom(fromMapLibre: filled))
    return line
}
