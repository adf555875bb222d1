import XCTest
import Foundation
import GeoModel
import GPX
import GraticuleTestSupport
import TileCover

/// The follow simulation's invariants, on a route from ../shared/corpora/gpx.
final class FollowTests: XCTestCase {
    func testProjectUnprojectRoundTrip() {
        for (pitch, bearing) in [(0.0, 0.0), (45, 30), (70, 300)] {
            let c = Camera(longitude: 13.4, latitude: 52.5, zoom: 15.5, bearing: bearing, pitch: pitch, width: 390, height: 844)
            for (x, y) in [(195.0, 422.0), (10, 800), (380, 300)] {
                guard let g = c.unproject(x: x, y: y), let p = c.project(longitude: g.longitude, latitude: g.latitude) else {
                    XCTFail("pitch \(pitch)"); continue
                }
                XCTAssertEqual(p.x, x, accuracy: 1e-6)
                XCTAssertEqual(p.y, y, accuracy: 1e-6)
            }
            let centre = c.unproject(x: 195, y: 422)!
            XCTAssertEqual(centre.longitude, 13.4, accuracy: 1e-9)
            XCTAssertEqual(centre.latitude, 52.5, accuracy: 1e-9)
        }
    }

    /// A route read from the shared GPX samples (the test is skipped where they are absent).
    func route() throws -> [GeoPosition] {
        let path = TestPaths.shared("gpx/gpxpy/Mojstrovka.gpx")
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("gpx corpus not found") }
        return try XCTUnwrap(try GPXReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).firstPath)
    }

    /// The tiles held after each update equal the starting cover plus every load minus
    /// every drop, and equal a fresh cover of that update's camera.
    func checkConservation(_ f: RouteFollower) -> [RouteFollower.Update] {
        var held = Set<CameraTile>()
        var updates: [RouteFollower.Update] = []
        f.run { u in
            held.subtract(u.drop)
            XCTAssertTrue(held.isDisjoint(with: u.load), "update \(u.index) loads a held tile")
            held.formUnion(u.load)
            XCTAssertEqual(held, Set((try? CameraCoverage.tiles(for: u.camera, options: f.options)) ?? []), "update \(u.index)")
            updates.append(u)
        }
        return updates
    }

    /// Navigation auto-pan pins the location on the vertical centre line at the height
    /// factor measured from the bottom edge of the view: 0 is the bottom edge, 1 the top
    /// edge (screen y grows downwards, so the pin is at y = (1 − factor) × height).
    func testNavigationPinsTheLocationHeadingUp() throws {
        let template = Camera(longitude: 0, latitude: 0, zoom: 15, pitch: 60, width: 390, height: 844)
        for factor in [0.0, 0.125, 0.5, 0.75, 1.0] {
            let f = try RouteFollower(route: try route(), template: template, mode: .navigation(heightFactor: factor))
            let updates = checkConservation(f)
            XCTAssertEqual(updates.count, try route().count)
            for u in updates {
                let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
                XCTAssertEqual(p.x, 195, accuracy: 1e-6)
                XCTAssertEqual(p.y, (1 - factor) * 844, accuracy: 1e-6, "factor \(factor)")
            }
            XCTAssertGreaterThan(Set(updates.map { Int($0.camera.bearing) }).count, 4, "the bearing follows the route")
        }
    }

    /// Near the bottom the view shows more of the road ahead: with the location at 0.125
    /// from the bottom, the view centre lies ahead of it along the heading.
    func testLowPinShowsTheRouteAhead() throws {
        let template = Camera(longitude: 0, latitude: 0, zoom: 15, pitch: 0, width: 390, height: 844)
        let f = try RouteFollower(route: try route(), template: template, mode: .navigation(heightFactor: 0.125))
        var ahead = 0, total = 0
        f.run { u in
            let p = u.camera.project(longitude: u.longitude, latitude: u.latitude)!
            total += 1
            if p.y > 422 { ahead += 1 }   // the location is below the centre on screen
        }
        XCTAssertEqual(ahead, total)
    }

    func testRecenterAndOff() throws {
        let r = try route()
        let template = Camera(longitude: 0, latitude: 0, zoom: 17, width: 390, height: 844)
        for factor in [0.0, 0.5, 1.0] {
            let updates = checkConservation(try RouteFollower(route: r, template: template, mode: .recenter(factor: factor)))
            for u in updates {
                let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
                if factor == 0 {
                    XCTAssertEqual(p.x, 195, accuracy: 1e-6)
                    XCTAssertEqual(p.y, 422, accuracy: 1e-6)
                }
                // After each update the location is inside the wander extent.
                XCTAssertLessThanOrEqual(abs(p.x - 195), factor * 195 + 1e-6)
                XCTAssertLessThanOrEqual(abs(p.y - 422), factor * 422 + 1e-6)
            }
            if factor == 1 { XCTAssertLessThan(updates.filter(\.moved).count, updates.count / 2, "few recentres") }
        }
        let off = checkConservation(try RouteFollower(route: r, template: template, mode: .off))
        XCTAssertEqual(off.filter(\.moved).count, 1, "only the first update places the camera")
    }

    func testFixedSpeedSampling() throws {
        let r = try route()
        let f = try RouteFollower(route: r, template: Camera(longitude: 0, latitude: 0, zoom: 16, width: 390, height: 844),
                                  mode: .recenter(factor: 0.5), sampling: .speed(metresPerSecond: 10, hertz: 2))
        let locs = f.locations()
        XCTAssertEqual(locs.first?.longitude, r.first?.longitude)
        XCTAssertEqual(locs.last?.longitude, r.last?.longitude)
        XCTAssertEqual(locs.last?.latitude, r.last?.latitude)
        for k in 1..<(locs.count - 1) { XCTAssertEqual(locs[k].time - locs[k - 1].time, 0.5, accuracy: 1e-9) }
        XCTAssertThrowsError(try RouteFollower(route: r, template: f.template, mode: .recenter(factor: 1.5)))
        XCTAssertThrowsError(try RouteFollower(route: [], template: f.template, mode: .off))
        XCTAssertThrowsError(try RouteFollower(route: r, template: f.template, mode: .off, sampling: .speed(metresPerSecond: 0, hertz: 1)))
    }
}

extension FollowTests {
    /// Compass navigation: the camera is centred on the location and its bearing is the
    /// device's compass heading at that location, whatever the direction of travel; turning
    /// on the spot turns the map.
    func testCompassModeCentresAndTakesTheDeviceHeading() throws {
        let r = try route()
        let headings = r.indices.map { Double(($0 * 37) % 360) - 180 }   // unrelated to travel, some negative
        let template = Camera(longitude: 0, latitude: 0, zoom: 16, pitch: 30, width: 390, height: 844)
        let f = try RouteFollower(route: r, template: template, mode: .compass(), headings: headings)
        let updates = checkConservation(f)
        XCTAssertEqual(updates.count, r.count)
        for u in updates {
            let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
            XCTAssertEqual(p.x, 195, accuracy: 1e-6)
            XCTAssertEqual(p.y, 422, accuracy: 1e-6)
            let want = (headings[u.index].truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            XCTAssertEqual(u.camera.bearing, want, accuracy: 1e-9)
        }
        // Standing still and turning: the same location twice with different headings moves the camera.
        let still = [r[0], r[0]]
        let g = try RouteFollower(route: still, template: template, mode: .compass(), headings: [10, 100])
        var moved: [Bool] = []
        g.run { moved.append($0.moved) }
        XCTAssertEqual(moved, [true, true])
        XCTAssertThrowsError(try RouteFollower(route: r, template: template, mode: .compass(), headings: [1, 2]),
                             "one heading per route point")
    }

    /// A user pan switches auto-pan off from that update on: the camera stays, the location
    /// may leave the view.
    func testUserPanSwitchesAutoPanOff() throws {
        let r = try route()
        let template = Camera(longitude: 0, latitude: 0, zoom: 17, width: 390, height: 844)
        let panAt = r.count / 3
        let f = try RouteFollower(route: r, template: template, mode: .navigation(heightFactor: 0.125), panAt: panAt)
        let updates = checkConservation(f)
        for u in updates {
            XCTAssertEqual(u.autoPan, u.index < panAt, "update \(u.index)")
            if u.index >= panAt { XCTAssertFalse(u.moved, "update \(u.index): the camera stays after the pan") }
        }
        XCTAssertTrue(updates[..<panAt].dropFirst().contains { $0.moved }, "auto-pan moved the camera before the pan")
        XCTAssertThrowsError(try RouteFollower(route: r, template: template, mode: .off, panAt: -1))
    }
}

extension FollowTests {
    /// Compass mode places the location at the height factor as navigation mode does
    /// (y = (1 − factor) × height from the top), with the compass bearing; 0.5 centres it.
    func testCompassModeHonoursTheHeightFactor() throws {
        let r = try route()
        let headings = r.indices.map { Double(($0 * 53) % 360) }
        let template = Camera(longitude: 0, latitude: 0, zoom: 16, pitch: 20, width: 390, height: 844)
        for factor in [0.125, 0.3, 0.5, 0.9] {
            let f = try RouteFollower(route: r, template: template, mode: .compass(heightFactor: factor), headings: headings)
            for u in checkConservation(f) {
                let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
                XCTAssertEqual(p.x, 195, accuracy: 1e-5)
                XCTAssertEqual(p.y, (1 - factor) * 844, accuracy: 1e-5, "factor \(factor)")
                XCTAssertEqual(u.camera.bearing, headings[u.index], accuracy: 1e-9)
            }
        }
        XCTAssertThrowsError(try RouteFollower(route: r, template: template, mode: .compass(heightFactor: 1.5), headings: headings))
    }

    /// An orientation change resizes the view from its update on; navigation keeps the
    /// location at its height factor of the new height, the tiles follow the new view.
    func testViewportChangesRepositionTheLocation() throws {
        let r = try route()
        let template = Camera(longitude: 0, latitude: 0, zoom: 16, width: 390, height: 844)
        let at = r.count / 2
        let f = try RouteFollower(route: r, template: template, mode: .navigation(heightFactor: 0.125),
                                  viewportChanges: [.init(update: at, width: 844, height: 390)])
        let updates = checkConservation(f)
        for u in updates {
            let (w, h) = u.index < at ? (390.0, 844.0) : (844.0, 390.0)
            XCTAssertEqual(u.camera.width, w)
            XCTAssertEqual(u.camera.height, h)
            let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
            XCTAssertEqual(p.x, w / 2, accuracy: 1e-5)
            XCTAssertEqual(p.y, 0.875 * h, accuracy: 1e-5)
        }
        XCTAssertTrue(updates[at].moved, "the view changed")
        XCTAssertEqual(updates[at].tiles, try CameraCoverage.tiles(for: updates[at].camera).count)
        // With auto-pan off the camera keeps its centre, and the view still changes size.
        let off = try RouteFollower(route: r, template: template, mode: .off, viewportChanges: [.init(update: 3, width: 500, height: 500)])
        let o = checkConservation(off)
        XCTAssertEqual(o[3].camera.longitude, o[2].camera.longitude)
        XCTAssertEqual(o[3].camera.width, 500)
        XCTAssertTrue(o[3].moved)
        XCTAssertThrowsError(try RouteFollower(route: r, template: template, mode: .off,
                                               viewportChanges: [.init(update: 5, width: 1, height: 1), .init(update: 5, width: 2, height: 2)]))
    }
}
