import XCTest
import Foundation
import TileCover

/// Fitting bounds, the minimum tilt per zoom, the effective minimum zoom and Google's zoom 0,
/// checked against values worked out by hand from the Web Mercator formulas.
final class CameraFitTests: XCTestCase {
    /// Mercator y of a latitude in a 512-point world, written out independently.
    func mercatorY(_ lat: Double) -> Double {
        (0.5 - log(tan(.pi / 4 + lat * .pi / 360)) / (2 * .pi)) * 512
    }

    /// The zoom is the smaller of the two sides' log2(room / extent); the centre is the
    /// middle in Mercator, not in degrees.
    func testFitIsTheLargestZoomThatHoldsTheBox() throws {
        let fit = try CameraFit.fit(west: -10.5, south: 35, east: 30, north: 60, width: 1024, height: 768)
        let dx = 40.5 / 360 * 512, dy = mercatorY(35) - mercatorY(60)
        XCTAssertEqual(fit.zoom, min(log2(1024 / dx), log2(768 / dy)), accuracy: 1e-12)
        XCTAssertEqual(fit.zoom, 3.8269, accuracy: 1e-4, "the height binds")
        XCTAssertEqual(fit.longitude, 9.75, accuracy: 1e-12)
        let midY = (mercatorY(35) + mercatorY(60)) / 2 / 512
        XCTAssertEqual(fit.latitude, atan(sinh(.pi * (1 - 2 * midY))) * 180 / .pi, accuracy: 1e-9)
        XCTAssertGreaterThan(fit.latitude, 47.5, "the Mercator middle lies north of the middle in degrees")

        let padded = try CameraFit.fit(west: -10.5, south: 35, east: 30, north: 60, width: 1024, height: 768, padding: 50)
        XCTAssertEqual(padded.zoom, log2((768 - 100) / dy), accuracy: 1e-12)
        // The whole Mercator world in a 512-point square is zoom 0.
        let world = try CameraFit.fit(west: -180, south: -WebMercator.maxLatitude, east: 180, north: WebMercator.maxLatitude,
                                      width: 512, height: 512)
        XCTAssertEqual(world.zoom, 0, accuracy: 1e-9)
        XCTAssertEqual(world.latitude, 0, accuracy: 1e-9)
    }

    /// A box across the antimeridian (east < west) is 20° wide, centred on it.
    func testFitAcrossTheAntimeridian() throws {
        let fit = try CameraFit.fit(west: 170, south: -10, east: -170, north: 10, width: 400, height: 4000)
        XCTAssertEqual(fit.zoom, log2(400 / (20.0 / 360 * 512)), accuracy: 1e-12)
        XCTAssertEqual(abs(fit.longitude), 180, accuracy: 1e-9)
    }

    /// Turned by 90°, the box's width meets the view's height.
    func testFitTurnedByTheBearing() throws {
        let fit = try CameraFit.fit(west: 0, south: 0, east: 40, north: 1, width: 1000, height: 300, bearing: 90)
        XCTAssertEqual(fit.zoom, log2(300 / (40.0 / 360 * 512)), accuracy: 1e-9)
    }

    func testFitRefusesWhatHasNoMeaning() {
        XCTAssertThrowsError(try CameraFit.fit(west: 0, south: 10, east: 1, north: 5, width: 100, height: 100))
        XCTAssertThrowsError(try CameraFit.fit(west: 0, south: 0, east: 1, north: 1, width: 100, height: 100, padding: 50))
        XCTAssertThrowsError(try CameraFit.fit(west: .nan, south: 0, east: 1, north: 1, width: 100, height: 100))
        XCTAssertThrowsError(try CameraFit.fit(west: 0, south: 0, east: 181, north: 1, width: 100, height: 100))
        XCTAssertEqual(try CameraFit.fit(west: 1, south: 1, east: 1, north: 1, width: 100, height: 100).zoom, .infinity)
    }

    /// A tilt below the minimum profile at the zoom is raised to it, interpolated as the
    /// maximum profile is; where the minimum passes the maximum, the maximum wins.
    func testMinimumTiltIsRaised() throws {
        let limits = try CameraLimits(maxTilt: TiltProfile(parsing: "0:60"), minTilt: TiltProfile(parsing: "15:0,17:30"))
        func pitch(_ asked: Double, _ zoom: Double) throws -> LimitedCamera {
            try limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: zoom, pitch: asked, width: 390, height: 844))
        }
        XCTAssertEqual(try pitch(0, 17).camera.pitch, 30)
        XCTAssertTrue(try pitch(0, 17).pitchRaisedToMinimum)
        XCTAssertEqual(try pitch(0, 16).camera.pitch, 15, "halfway between the stops")
        XCTAssertEqual(try pitch(0, 12).camera.pitch, 0)
        XCTAssertFalse(try pitch(0, 12).pitchRaisedToMinimum)
        XCTAssertEqual(try pitch(45, 17).camera.pitch, 45, "above the minimum: kept")
        let crossing = try CameraLimits(maxTilt: TiltProfile(parsing: "0:20"), minTilt: TiltProfile(parsing: "0:40"))
        XCTAssertEqual(try crossing.apply(to: Camera(longitude: 0, latitude: 0, zoom: 3, width: 10, height: 10)).camera.pitch, 20)
    }

    /// The world (512 · 2^z points) fills the view's height from log2(height / 512), and its
    /// width too with one world copy.
    func testEffectiveMinimumZoom() {
        XCTAssertEqual(CameraLimits.effectiveMinZoom(width: 390, height: 844), log2(844.0 / 512), accuracy: 1e-12)
        XCTAssertEqual(CameraLimits.effectiveMinZoom(width: 2048, height: 1024), 1, accuracy: 1e-12)
        XCTAssertEqual(CameraLimits.effectiveMinZoom(width: 2048, height: 1024, worldCopies: false), 2, accuracy: 1e-12)
        XCTAssertEqual(CameraLimits.effectiveMinZoom(width: 100, height: 100), CameraLimits.lowestZoom)
    }

    /// Google's zoom 0 (MapLibre −1) is one 256-point tile: 0/0/0.
    func testGoogleZoomZeroIsOneTile() throws {
        let limits = try CameraLimits(minZoom: ZoomConvention.google.mapLibreZoom(0))
        let camera = try limits.apply(to: Camera(longitude: 0, latitude: 0, zoom: -1, width: 256, height: 256)).camera
        XCTAssertEqual(camera.zoom, -1)
        let tiles = try CameraCoverage.tiles(for: camera, options: CameraCoverOptions(tileSize: 256, renderWorldCopies: false))
        XCTAssertEqual(tiles.map(\.tile), [TileID(z: 0, x: 0, y: 0)])
        XCTAssertThrowsError(try CameraLimits(minZoom: -1.5))
        XCTAssertThrowsError(try CameraCoverage.tiles(for: Camera(longitude: 0, latitude: 0, zoom: -1.5, width: 256, height: 256)))
    }
}
