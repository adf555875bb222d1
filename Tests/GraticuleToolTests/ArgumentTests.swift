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
                       "camera: maplibre zoom 16 (asked 20, clamped to the view's zoom range), tilt 67.5° (asked 70°, clipped: "
                       + "the maximum tilt at zoom 16 is 67.5° under profile 0:30,10:45,16:67.5)")
        let defaults = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "3",
                                                                       "--pitch", "-5"]) as? CoverCommand.CameraCover)
        XCTAssertEqual(defaults.pitch, -5)
        XCTAssertEqual(defaults.limits.profile, .mapLibre)
        XCTAssertEqual(defaults.sourceMaxZoom, 22)
    }

    /// `--zoom-convention google` counts a 256-point world at zoom 0: zoom 3 is MapLibre zoom
    /// 2, and a 256-point tile source then loads z3 tiles, the SDK's own zoom; limits are
    /// read in the same count, and the camera line says which count it uses.
    func testGoogleZoomConvention() throws {
        let parsed = try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "3", "--tile-size", "256",
                                                       "--zoom-convention", "google", "--max-zoom", "20"])
        let camera = try XCTUnwrap(parsed as? CoverCommand.CameraCover)
        let limited = camera.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 3, width: 390, height: 844))
        XCTAssertEqual(limited.camera.zoom, 2)
        XCTAssertTrue(cameraState(limited, camera.limits.profile, .google).hasPrefix("camera: google zoom 3 = maplibre zoom 2, tilt 0°"))
        let tiles = try CameraCoverage.tiles(for: limited.camera, options: CameraCoverOptions(tileSize: 256))
        XCTAssertEqual(Set(tiles.map(\.tile.z)), [3])
        let high = camera.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 21, width: 390, height: 844))
        XCTAssertEqual(high.camera.zoom, 19, "clamped to --max-zoom 20 in google's count")
        XCTAssertTrue(cameraState(high, camera.limits.profile, .google).contains("(asked 21, clamped"))
        XCTAssertThrowsError(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "3", "--zoom-convention", "bing"]))
    }

    /// A mistyped command gets the nearest one (two edits at most, a swap counting one);
    /// an option, a real command or a word far from every command gets none.
    func testMistypedCommandsGetTheNearestOne() {
        XCTAssertEqual(CommandSuggestion.nearest(to: "bnech"), "bench")
        XCTAssertEqual(CommandSuggestion.nearest(to: "geojsn"), "geojson")
        XCTAssertEqual(CommandSuggestion.nearest(to: "Conform"), "conform")
        XCTAssertEqual(CommandSuggestion.nearest(to: "profil"), "profile")
        XCTAssertNil(CommandSuggestion.nearest(to: "bench"))
        XCTAssertNil(CommandSuggestion.nearest(to: "--bench"))
        XCTAssertNil(CommandSuggestion.nearest(to: "tessellate"))
        XCTAssertEqual(CommandSuggestion.distance("ab", "ba"), 1)
        XCTAssertEqual(CommandSuggestion.distance("", "abc"), 3)
        XCTAssertEqual(CommandSuggestion.distance("kitten", "sitting"), 3)
    }
}
