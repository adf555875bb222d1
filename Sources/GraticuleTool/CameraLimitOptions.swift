import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

/// The view's camera limits, shared by `cover camera` and `cover follow`.
struct CameraLimitOptions: ParsableArguments {
    @Option(help: "The view's min zoom: a lower zoom is clamped up to it (MapLibre's default 0).")
    var minZoom: Double = 0
    @Option(help: "The view's max zoom: a higher zoom is clamped down to it (MapLibre's default 22).")
    var maxZoom: Double = 22
    @Option(help: "Maximum tilt per zoom, \"z:deg,z:deg,...\", straight lines between the stops and flat beyond them; the pitch is clipped to it (default MapLibre's flat 60).")
    var maxTiltProfile: String = TiltProfile.mapLibre.description

    var profile: TiltProfile {
        do { return try TiltProfile(parsing: maxTiltProfile) } catch { fail("--max-tilt-profile: \(error)") }
    }

    /// `camera` clamped and clipped as the view's limits say; exit 2 for limits or a
    /// camera no limit gives a meaning (NaN, infinite).
    func apply(to camera: Camera) -> LimitedCamera {
        do {
            return try CameraLimits(minZoom: minZoom, maxZoom: maxZoom, maxTilt: profile).apply(to: camera)
        } catch .outOfRange("longitude", let v) {
            fail("--center longitude \(v) cannot be wrapped into -180...180 exactly"
                 + (v.isFinite ? " (doubles that large are \(v.ulp) degrees apart)" : "")
                 + "; give a longitude within ±\(Int(CameraLimits.maxWrappableLongitude))")
        } catch { fail("\(error)") }
    }
}

/// One line stating the camera as shown: the zoom and the pitch after the limits, and what
/// was asked for when a limit changed it.
func cameraState(_ limited: LimitedCamera, _ profile: TiltProfile) -> String {
    func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v) }
    var line = "camera: zoom \(f(limited.camera.zoom))"
    if limited.zoomClamped { line += " (asked \(f(limited.requestedZoom)), clamped to the view's zoom range)" }
    line += ", tilt \(f(limited.camera.pitch))°"
    if limited.pitchClipped && limited.requestedPitch < 0 {
        line += " (asked \(f(limited.requestedPitch))°, raised to the lowest tilt, 0°)"
    } else if limited.pitchClipped {
        line += " (asked \(f(limited.requestedPitch))°, clipped: the maximum tilt at zoom \(f(limited.camera.zoom)) is \(f(limited.maxPitch))° under profile \(profile))"
    } else {
        line += " (maximum \(f(limited.maxPitch))° at this zoom)"
    }
    return line
}
