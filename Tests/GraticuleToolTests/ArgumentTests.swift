import XCTest
@testable import GraticuleTool
import TileCover

/// The command line reads what users type.
final class ArgumentTests: XCTestCase {
    /// West longitudes and counter-clockwise bearings are negative numbers; an option's value
    /// that starts with a minus sign is still its value, with or without `=`.
    func testNegativeCentreAndBearing() throws {
        for args in [["cover", "camera", "--center", "-123.1,49.2", "--zoom", "12", "--bearing", "-30"],
                     ["cover", "camera", "--center=-123.1,49.2", "--zoom", "12", "--bearing=-30"]] {
            let parsed = try GraticuleCommand.parseAsRoot(args)
            let camera = try XCTUnwrap(parsed as? CoverCommand.CameraCover, "\(args)")
            XCTAssertEqual(camera.center, "-123.1,49.2")
            XCTAssertEqual(camera.bearing, -30)
        }
    }

    /// `--min-zoom`/`--max-zoom` are the view's limits (clamping the camera's zoom), the
    /// source's zooms are `--source-min-zoom`/`--source-max-zoom`, and the tilt profile is
    /// read as the library reads it.
    func testViewAndSourceZoomsAreSeparateOptions() throws {
        let parsed = try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "20", "--pitch", "70",
                                                       "--min-zoom", "2", "--max-zoom", "16", "--source-max-zoom", "14",
                                                       "--max-tilt-profile", "0:30,10:45,16:67.5", "--tile-scale", "2"])
        let camera = try XCTUnwrap(parsed as? CoverCommand.CameraCover)
        XCTAssertEqual(camera.sourceMaxZoom, 14)
        XCTAssertEqual(camera.tileScale, 2)
        let limited = camera.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 20, pitch: 70, width: 10, height: 10))
        XCTAssertEqual(limited.camera.zoom, 16)
        XCTAssertEqual(limited.camera.pitch, 67.5)
        XCTAssertEqual(cameraState(limited, camera.limits.profile),
                       "camera: zoom 16 (asked 20, clamped to the view's zoom range), tilt 67.5° (asked 70°, clipped: "
                       + "the maximum tilt at zoom 16 is 67.5° under profile 0:30,10:45,16:67.5)")
        let defaults = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "3",
                                                                       "--pitch", "-5"]) as? CoverCommand.CameraCover)
        XCTAssertEqual(defaults.pitch, -5)
        XCTAssertEqual(defaults.limits.profile, .mapLibre)
        XCTAssertEqual(defaults.sourceMaxZoom, 22)
    }
}
