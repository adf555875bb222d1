import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

/// The view's camera limits and the zoom convention, shared by `cover camera` and
/// `cover follow`.
struct CameraLimitOptions: ParsableArguments {
    @Option(help: "The view's min zoom: a lower zoom is clamped up to it (MapLibre's default 0; in --zoom-convention).")
    var minZoom: Double?
    @Option(help: "The view's max zoom: a higher zoom is clamped down to it (MapLibre's default 22; in --zoom-convention).")
    var maxZoom: Double?
    @Option(help: "Maximum tilt per zoom, \"z:deg,z:deg,...\", straight lines between the stops and flat beyond them; the pitch is clipped to it (default MapLibre's flat 60; zooms in MapLibre's count).")
    var maxTiltProfile: String = TiltProfile.mapLibre.description
    @Option(help: "What --zoom, --min-zoom and --max-zoom count: maplibre (a 512-point world at zoom 0, the default) or google (a 256-point world at zoom 0, as Google Maps and the SDKs with 256-point tile layers count: zoom z is MapLibre zoom z − 1).")
    var zoomConvention: ZoomConvention = .maplibre

    var profile: TiltProfile {
        do { return try TiltProfile(parsing: maxTiltProfile) } catch { fail("--max-tilt-profile: \(error)") }
    }

    /// `camera` (its zoom in the convention) clamped and clipped as the view's limits say;
    /// the result's zooms are MapLibre's. Exit 2 for limits or a camera no limit gives a
    /// meaning (NaN, infinite).
    func apply(to camera: Camera) -> LimitedCamera {
        var c = camera
        c.zoom = zoomConvention.mapLibreZoom(camera.zoom)
        let lo = minZoom.map(zoomConvention.mapLibreZoom) ?? 0, hi = maxZoom.map(zoomConvention.mapLibreZoom) ?? 22
        do {
            return try CameraLimits(minZoom: lo, maxZoom: hi, maxTilt: profile).apply(to: c)
        } catch .outOfRange("longitude", let v) {
            fail("--center longitude \(v) cannot be wrapped into -180...180 exactly"
                 + (v.isFinite ? " (doubles that large are \(v.ulp) degrees apart)" : "")
                 + "; give a longitude within ±\(Int(CameraLimits.maxWrappableLongitude))")
        } catch {
            if case .outOfRange(let name, let v) = error, name == "minZoom" || name == "maxZoom" {
                fail("--\(name == "minZoom" ? "min" : "max")-zoom \(zoomConvention.zoom(fromMapLibre: v)) is outside the view's zooms "
                     + "(MapLibre 0–30, \(zoomConvention.rawValue) convention), or --min-zoom is above --max-zoom")
            }
            fail("\(error)")
        }
    }
}

extension ZoomConvention: ExpressibleByArgument {}

/// One line stating the camera as shown: the zoom (in the convention, and MapLibre's when it
/// is another) and the pitch after the limits, and what was asked for when a limit changed it.
func cameraState(_ limited: LimitedCamera, _ profile: TiltProfile, _ convention: ZoomConvention = .maplibre) -> String {
    func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v) }
    func z(_ v: Double) -> String { f(convention.zoom(fromMapLibre: v)) }
    var line = "camera: \(convention.rawValue) zoom \(z(limited.camera.zoom))"
        + (convention == .maplibre ? "" : " = maplibre zoom \(f(limited.camera.zoom))")
    if limited.zoomClamped { line += " (asked \(z(limited.requestedZoom)), clamped to the view's zoom range)" }
    line += ", tilt \(f(limited.camera.pitch))°"
    if limited.pitchClipped && limited.requestedPitch < 0 {
        line += " (asked \(f(limited.requestedPitch))°, raised to the lowest tilt, 0°)"
    } else if limited.pitchClipped {
        line += " (asked \(f(limited.requestedPitch))°, clipped: the maximum tilt at zoom \(f(limited.camera.zoom)) is \(f(limited.maxPitch))° under profile \(profile))"
    } else {
        line += " (maximum \(f(limited.maxPitch))° at this zoom)"
    }
    if limited.latitudeClamped {
        line += ", centre latitude \(f(limited.camera.latitude))° (asked \(f(limited.requestedLatitude))°, clamped to Web Mercator's limit)"
    }
    return line
}
