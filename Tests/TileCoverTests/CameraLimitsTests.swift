import XCTest
import TileCover

/// A map view's camera limits: a zoom outside the view's range is clamped into it, and the
/// tilt is clipped to a maximum that depends on the zoom, as map views with a maximum tilt
/// profile do. Nothing the view can show is an error.
final class CameraLimitsTests: XCTestCase {
    func camera(zoom: Double, pitch: Double) -> Camera {
        Camera(longitude: -123.1, latitude: 49.2, zoom: zoom, pitch: pitch, width: 800, height: 600)
    }

    /// Between two stops the maximum tilt follows the straight line joining them; before the
    /// first stop and after the last it stays at that stop's value.
    func testProfileIsPiecewiseLinearAndFlatBeyondItsStops() throws {
        let p = try TiltProfile(parsing: "0:30, 10:45 ,16:67.5")
        XCTAssertEqual(p.maxPitch(atZoom: 0), 30)
        XCTAssertEqual(p.maxPitch(atZoom: 5), 37.5)           // halfway from 30 to 45
        XCTAssertEqual(p.maxPitch(atZoom: 10), 45)
        XCTAssertEqual(p.maxPitch(atZoom: 13), 56.25)         // halfway from 45 to 67.5
        XCTAssertEqual(p.maxPitch(atZoom: 16), 67.5)
        XCTAssertEqual(p.maxPitch(atZoom: 22), 67.5)
        let late = try TiltProfile(parsing: "4:20")
        XCTAssertEqual(late.maxPitch(atZoom: 0), 20)
        XCTAssertEqual(late.maxPitch(atZoom: 30), 20)
        XCTAssertEqual(p.description, "0:30,10:45,16:67.5")
        XCTAssertEqual(try TiltProfile(parsing: p.description), p)
    }

    /// MapLibre's defaults: zoom 0 to 22, and at most 60° of tilt at every zoom.
    func testDefaultsAreMapLibres() {
        let limits = CameraLimits.mapLibre
        XCTAssertEqual(limits.minZoom, 0)
        XCTAssertEqual(limits.maxZoom, 22)
        for z in stride(from: 0.0, through: 30, by: 0.5) { XCTAssertEqual(limits.maxTilt.maxPitch(atZoom: z), 60) }
        XCTAssertEqual(try CameraLimits(), limits)
    }

    /// A tilt above the profile's maximum at the camera's zoom is clipped to it (the view
    /// shows the clipped tilt); the profile is read at the zoom after clamping.
    func testTiltIsClippedAtTheClampedZoom() throws {
        let limits = try CameraLimits(minZoom: 2, maxZoom: 14, maxTilt: TiltProfile(parsing: "0:30,10:45,16:67.5"))
        let a = try limits.apply(to: camera(zoom: 5, pitch: 80))
        XCTAssertEqual(a.camera.pitch, 37.5)
        XCTAssertEqual(a.maxPitch, 37.5)
        XCTAssertTrue(a.pitchClipped)
        XCTAssertFalse(a.zoomClamped)
        XCTAssertEqual(a.requestedPitch, 80)

        // Zoom 20 is clamped to 14; the profile at 14 allows 60°, so 65 becomes 60.
        let b = try limits.apply(to: camera(zoom: 20, pitch: 65))
        XCTAssertEqual(b.camera.zoom, 14)
        XCTAssertTrue(b.zoomClamped)
        XCTAssertEqual(b.camera.pitch, 60, accuracy: 1e-12)

        // A zoom below the range is raised to its minimum; a negative tilt to 0.
        let c = try limits.apply(to: camera(zoom: 0.5, pitch: -10))
        XCTAssertEqual(c.camera.zoom, 2)
        XCTAssertEqual(c.camera.pitch, 0)
        XCTAssertTrue(c.pitchClipped)
        XCTAssertFalse(c.latitudeClamped)
        XCTAssertEqual(c.requestedLatitude, 49.2)

        // Within the limits nothing changes.
        let d = try limits.apply(to: camera(zoom: 10, pitch: 45))
        XCTAssertEqual(d.camera, camera(zoom: 10, pitch: 45))
        XCTAssertFalse(d.pitchClipped || d.zoomClamped)
    }

    /// A pitch the camera model would reject (86°) is clipped, not refused, so the cover
    /// of the limited camera is computed.
    func testClippedCameraCanBeCovered() throws {
        let limited = try CameraLimits.mapLibre.apply(to: camera(zoom: 3, pitch: 86))
        XCTAssertEqual(limited.camera.pitch, 60)
        XCTAssertFalse(try CameraCoverage.tiles(for: limited.camera).isEmpty)
    }

    /// Values that no limit gives a meaning stay errors: NaN or infinite zoom and pitch,
    /// malformed profiles and inverted zoom ranges.
    func testWhatCannotBeMetIsAnError() {
        XCTAssertThrowsError(try CameraLimits.mapLibre.apply(to: camera(zoom: .nan, pitch: 0))) {
            guard case .outOfRange("zoom", let v)? = $0 as? CameraError else { return XCTFail("\($0)") }
            XCTAssertTrue(v.isNaN)
        }
        XCTAssertThrowsError(try CameraLimits.mapLibre.apply(to: camera(zoom: 3, pitch: .infinity)))
        XCTAssertThrowsError(try CameraLimits(minZoom: 10, maxZoom: 5))
        XCTAssertThrowsError(try CameraLimits(maxZoom: .nan))
        for bad in ["", "10", "0:30,", "a:30", "0:30,0:40", "5:30,4:20", "0:90", "0:-1", "31:30", "0:nan", "0:30:40"] {
            XCTAssertThrowsError(try TiltProfile(parsing: bad), bad) {
                guard case .invalidTiltProfile(let why)? = $0 as? CameraError else { return XCTFail("\(bad): \($0)") }
                XCTAssertFalse(why.isEmpty)
            }
        }
    }

    /// A raster tile layer on a high-density screen asks for bigger images of the same
    /// tiles (scale 2: 512-px images of 256-point tiles on the 256 grid), while a source
    /// whose tiles are 512 points covers the view with tiles one zoom shallower.
    func testTileScaleKeepsTheGridWhileTileSizeShiftsTheZoom() throws {
        let view = camera(zoom: 11.3, pitch: 30)
        let scale1 = try CameraCoverage.tiles(for: view, options: .init(tileSize: 256))
        let scale2 = try CameraCoverage.tiles(for: view, options: .init(tileSize: 256, tileScale: 2))
        let size512 = try CameraCoverage.tiles(for: view, options: .init(tileSize: 512))
        XCTAssertEqual(scale2, scale1)
        XCTAssertEqual(Set(scale1.map(\.tile.z)), [12])
        XCTAssertEqual(Set(size512.map(\.tile.z)), [11])
        XCTAssertEqual(CameraCoverOptions(tileSize: 256, tileScale: 2).tilePixels, 512)
        XCTAssertEqual(CameraCoverOptions(tileSize: 256).tilePixels, 256)
        XCTAssertThrowsError(try CameraCoverage.tiles(for: view, options: .init(tileScale: 0)))
        XCTAssertThrowsError(try CameraCoverage.tiles(for: view, options: .init(tileScale: 5)))
    }

    /// A centre beyond Web Mercator's latitude is clamped to it and says so; beyond ±90° (no
    /// place on Earth; MapLibre's LngLat refuses it) it is an error.
    func testCentreLatitudeIsClampedAndTold() throws {
        let limits = try CameraLimits(minZoom: 0, maxZoom: 22, maxTilt: TiltProfile(parsing: "0:60"))
        for (asked, shown) in [(89.0, WebMercator.maxLatitude), (-90.0, -WebMercator.maxLatitude), (85.0, 85.0)] {
            let l = try limits.apply(to: Camera(longitude: 0, latitude: asked, zoom: 3, width: 800, height: 600))
            XCTAssertEqual(l.camera.latitude, shown)
            XCTAssertEqual(l.requestedLatitude, asked)
            XCTAssertEqual(l.latitudeClamped, asked != shown)
        }
        for bad in [91.0, -90.5, .nan, .infinity] {
            XCTAssertThrowsError(try limits.apply(to: Camera(longitude: 0, latitude: bad, zoom: 3, width: 800, height: 600)), "\(bad)") { e in
                guard case .outOfRange("latitude", _) = e as? CameraError else { return XCTFail("\(e)") }
            }
        }
    }
}
