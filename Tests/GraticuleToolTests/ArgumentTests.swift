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
        XCTAssertEqual(camera.view.sourceMaxZoom, 14)
        XCTAssertEqual(camera.view.tileScale, 2)
        let limited = camera.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 20, pitch: 70, width: 10, height: 10))
        XCTAssertEqual(limited.camera.zoom, 16)
        XCTAssertEqual(limited.camera.pitch, 67.5)
        XCTAssertEqual(cameraState(limited, camera.limits.profile),
                       "camera: maplibre zoom 16 (asked 20, clamped to the view's zoom range), tilt 67.5° (asked 70°, clipped: "
                       + "the maximum tilt at zoom 16 is 67.5° under profile 0:30,10:45,16:67.5); the world fills 10x10 from zoom 0.00")
        let defaults = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "3",
                                                                       "--pitch", "-5"]) as? CoverCommand.CameraCover)
        XCTAssertEqual(defaults.pitch, -5)
        XCTAssertEqual(defaults.limits.profile, .mapLibre)
        XCTAssertEqual(defaults.view.sourceMaxZoom, 22)
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

    /// `--min-tilt-profile` raises a lower tilt and the camera line says so; `--min-zoom
    /// effective` clamps to the zoom where the world fills the viewport; Google's count reaches
    /// zoom 0 and takes 256-point tiles unless `--tile-size` says otherwise.
    func testMinimumTiltEffectiveZoomAndGoogleZoomZero() throws {
        let tilted = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "17",
                                                                     "--min-tilt-profile", "0:0,17:30"]) as? CoverCommand.CameraCover)
        let raised = tilted.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 17, width: 390, height: 844))
        XCTAssertEqual(raised.camera.pitch, 30)
        XCTAssertTrue(tilted.limits.state(raised).contains("tilt 30° (asked 0°, raised: the minimum tilt at zoom 17 is 30°"),
                      tilted.limits.state(raised))
        let effective = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "0",
                                                                        "--min-zoom", "effective"]) as? CoverCommand.CameraCover)
        let filled = effective.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 0, width: 390, height: 844))
        XCTAssertEqual(filled.camera.zoom, log2(844.0 / 512), accuracy: 1e-12)
        XCTAssertTrue(effective.limits.state(filled).hasSuffix("the world fills 390x844 from zoom 0.72"))
        let google = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "0",
                                                                     "--zoom-convention", "google"]) as? CoverCommand.CameraCover)
        XCTAssertEqual(google.limits.tileSize(google.view.tileSize), 256)
        XCTAssertEqual(google.limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: 0, width: 256, height: 256)).camera.zoom, -1,
                       "Google's zoom 0 is reachable, not clamped to 1")
        let sized = try XCTUnwrap(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "0",
                                                                    "--zoom-convention", "google", "--tile-size", "512"]) as? CoverCommand.CameraCover)
        XCTAssertEqual(sized.limits.tileSize(sized.view.tileSize), 512)
        XCTAssertThrowsError(try GraticuleCommand.parseAsRoot(["cover", "camera", "--center", "0,0", "--zoom", "0", "--min-zoom", "least"]))
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
        XCTAssertEqual(CommandSuggestion.nearest(arguments: ["cover", "camra", "--zoom", "3"]), "cover camera")
        XCTAssertEqual(CommandSuggestion.nearest(arguments: ["diff", "aply"]), "diff apply")
        XCTAssertEqual(CommandSuggestion.nearest(arguments: ["coverr", "camera"]), "cover")
        XCTAssertNil(CommandSuggestion.nearest(arguments: ["cover", "camera", "--zoom", "3"]))
        XCTAssertNil(CommandSuggestion.nearest(arguments: ["cover", "--help"]))
        XCTAssertNil(CommandSuggestion.nearest(arguments: ["profile", "some.geojson"]), "a file name far from any subcommand is not a typo")
        XCTAssertEqual(CommandSuggestion.distance("ab", "ba"), 1)
        XCTAssertEqual(CommandSuggestion.distance("", "abc"), 3)
        XCTAssertEqual(CommandSuggestion.distance("kitten", "sitting"), 3)
    }
}
