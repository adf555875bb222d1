import XCTest
import Foundation
import TileCover

/// Transitions checked against closed forms: straight lines in Web Mercator for `linear`,
/// and for a flight between equal zooms the lowest zoom of van Wijk and Nuij's path,
/// z − ½·log2(1 + b²) with b = ρ²·u / (2·w), reached halfway (u the distance and w the
/// larger viewport side, both in points at the start zoom).
final class CameraTransitionTests: XCTestCase {
    func camera(_ lon: Double, _ lat: Double, _ zoom: Double, bearing: Double = 0, pitch: Double = 0) -> Camera {
        Camera(longitude: lon, latitude: lat, zoom: zoom, bearing: bearing, pitch: pitch, width: 390, height: 844)
    }

    func mercatorX(_ lon: Double) -> Double { (lon + 180) / 360 }
    func mercatorY(_ lat: Double) -> Double { 0.5 - log(tan(.pi / 4 + lat * .pi / 360)) / (2 * .pi) }
    func latitude(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi }

    func testNoneIsOneFrameAtTheDestination() throws {
        let frames = try CameraTransition.frames(from: camera(0, 0, 3), to: camera(10, 20, 8, bearing: 30, pitch: 40),
                                                 animation: .none, duration: 5, fps: 60)
        XCTAssertEqual(frames.count, 1)
        XCTAssertEqual(frames[0].event, "began+ended")
        XCTAssertEqual(frames[0].camera.longitude, 10)
        XCTAssertEqual(frames[0].camera.zoom, 8)
        XCTAssertEqual(frames[0].camera.pitch, 40)
    }

    func testLinearFramesLieOnTheMercatorLine() throws {
        let a = camera(-122.4, 37.8, 10, bearing: 350, pitch: 0), b = camera(-73.99, 40.73, 14, bearing: 10, pitch: 60)
        let frames = try CameraTransition.frames(from: a, to: b, animation: .linear, duration: 2, fps: 10)
        XCTAssertEqual(frames.count, 21)
        XCTAssertEqual(frames.map(\.event).filter { !$0.isEmpty }, ["began", "ended"])
        XCTAssertEqual(frames.first?.event, "began")
        for f in frames {
            let t = Double(f.index) / 20
            XCTAssertEqual(f.time, 2 * t, accuracy: 1e-12)
            XCTAssertEqual(mercatorX(f.camera.longitude), mercatorX(-122.4) + t * (mercatorX(-73.99) - mercatorX(-122.4)), accuracy: 1e-12)
            XCTAssertEqual(mercatorY(f.camera.latitude), mercatorY(37.8) + t * (mercatorY(40.73) - mercatorY(37.8)), accuracy: 1e-12)
            XCTAssertEqual(f.camera.zoom, 10 + 4 * t, accuracy: 1e-12)
            XCTAssertEqual(f.camera.pitch, 60 * t, accuracy: 1e-12)
            // 350° to 10° turns 20° through north, not 340° back.
            let expected = (350 + 20 * t).truncatingRemainder(dividingBy: 360)
            XCTAssertEqual(f.camera.bearing, expected, accuracy: 1e-9, "frame \(f.index)")
        }
    }

    func testLinearCrossesTheAntimeridianTheShortWay() throws {
        let frames = try CameraTransition.frames(from: camera(170, 0, 5), to: camera(-170, 0, 5), animation: .linear, duration: 1, fps: 2)
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(abs(frames[1].camera.longitude), 180, accuracy: 1e-9)
    }

    func testFlightsZoomOutToTheClosedForm() throws {
        let a = camera(-122.4, 37.8, 12), b = camera(-73.99, 40.73, 12)
        let u = hypot(mercatorX(-73.99) - mercatorX(-122.4), mercatorY(40.73) - mercatorY(37.8)) * 512 * pow(2, 12)
        var lowest: [Double] = []
        for animation in [CameraTransition.Animation.bow, .rocket] {
            let rho = try XCTUnwrap(animation.curve)
            let frames = try CameraTransition.frames(from: a, to: b, animation: animation, duration: 2, fps: 30)
            XCTAssertEqual(frames.count, 61)
            let middle = frames[30].camera
            let bb = rho * rho * u / (2 * 844)
            XCTAssertEqual(middle.zoom, 12 - 0.5 * log2(1 + bb * bb), accuracy: 1e-9, "\(animation)")
            XCTAssertEqual(frames.map(\.camera.zoom).min()!, middle.zoom, accuracy: 1e-12, "the middle is the lowest")
            XCTAssertEqual(mercatorX(middle.longitude), (mercatorX(-122.4) + mercatorX(-73.99)) / 2, accuracy: 1e-9)
            XCTAssertEqual(middle.latitude, latitude((mercatorY(37.8) + mercatorY(40.73)) / 2), accuracy: 1e-9)
            XCTAssertEqual(frames[59].camera.longitude, -73.99, accuracy: 0.01, "the path ends at the destination")
            lowest.append(middle.zoom)
        }
        XCTAssertLessThan(lowest[1], lowest[0], "a rocket zooms out further than a bow")
        // A short flight between equal zooms barely zooms out.
        let short = try CameraTransition.frames(from: camera(0, 0, 10), to: camera(0.001, 0, 10), animation: .bow, duration: 1, fps: 10)
        XCTAssertGreaterThan(short.map(\.camera.zoom).min()!, 9.99)
    }

    func testAZoomOnTheSpotKeepsTheCentre() throws {
        let frames = try CameraTransition.frames(from: camera(5, 5, 4), to: camera(5, 5, 10), animation: .rocket, duration: 1, fps: 8)
        for (f, g) in zip(frames, frames.dropFirst()) {
            XCTAssertEqual(g.camera.longitude, 5, accuracy: 1e-9)
            XCTAssertGreaterThan(g.camera.zoom, f.camera.zoom)
        }
        XCTAssertEqual(frames[4].camera.zoom, 7, accuracy: 1e-9, "at constant speed on the path the zoom is linear in time")
    }

    func testRefusals() {
        let a = camera(0, 0, 3)
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: a, animation: .linear, duration: 0, fps: 60))
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: a, animation: .linear, duration: 1, fps: .nan))
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: a, animation: .linear, duration: 0.001, fps: 60))
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: a, animation: .bow, duration: 1e9, fps: 60))
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: a, animation: .bow, duration: 1, fps: 60, curve: 0))
        XCTAssertThrowsError(try CameraTransition.frames(from: a, to: camera(.infinity, 0, 3), animation: .none, duration: 1, fps: 1))
    }

    func testTileCountsFollowTheFrames() throws {
        let frames = try CameraTransition.frames(from: camera(0, 0, 3), to: camera(40, 0, 3), animation: .linear, duration: 1, fps: 4)
        let counts = try CameraTransition.tileCounts(frames.map(\.camera), options: CameraCoverOptions())
        XCTAssertEqual(counts.count, 5)
        XCTAssertEqual(counts[0].load, counts[0].tiles)
        XCTAssertEqual(counts[0].drop, 0)
        for (k, c) in counts.enumerated() {
            XCTAssertEqual(c.tiles, try CameraCoverage.tiles(for: frames[k].camera).count)
        }
    }
}
