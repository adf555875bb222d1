import XCTest
import Foundation
import TileCover

/// The GPX reader against the sample files of ../shared/corpora/gpx (expected counts and
/// first points from the table in its SOURCES.md, which were derived with another XML
/// parser), malformed input, and the follow simulation's invariants.
final class FollowTests: XCTestCase {
    func gpxFolder() throws -> String {
        let p = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora/gpx").path
        guard FileManager.default.fileExists(atPath: p) else { throw XCTSkip("gpx corpus not found") }
        return p
    }

    func read(_ path: String) throws -> GPXDocument {
        try GPXReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Every file listed in SOURCES.md's table (and present) reads to its stated counts.
    func testSamplesMatchTheSourcesTable() throws {
        let folder = try gpxFolder()
        let table = try String(contentsOfFile: folder + "/SOURCES.md", encoding: .utf8)
        var checked = 0
        for line in table.split(separator: "\n") where line.hasPrefix("| ") && line.contains(".gpx |") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 7, !cells[0].contains("→") else { continue }
            let path = folder + "/" + cells[0]
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let doc = try read(path)
            func ints(_ s: String) -> [Int] { s.split(separator: "/").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            XCTAssertEqual(doc.waypoints.count, Int(cells[2]), cells[0])
            XCTAssertEqual([doc.routes.count, doc.routes.map(\.count).reduce(0, +)], ints(cells[3]), cells[0])
            XCTAssertEqual([doc.tracks.count, doc.tracks.map(\.count).reduce(0, +), doc.tracks.flatMap { $0 }.map(\.count).reduce(0, +)],
                           ints(cells[4]), cells[0])
            func point(_ s: String) -> GPXDocument.Point? {
                let v = s.split(separator: ",").compactMap { Double($0) }
                return v.count == 2 ? GPXDocument.Point(latitude: v[0], longitude: v[1]) : nil
            }
            XCTAssertEqual(doc.tracks.flatMap { $0 }.flatMap { $0 }.first, point(cells[5]), cells[0])
            XCTAssertEqual(doc.routes.flatMap { $0 }.first, point(cells[6]), cells[0])
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    func testFirstPathAndMalformedInput() throws {
        let fells = try read(try gpxFolder() + "/openlayers/fells_loop.gpx")
        XCTAssertEqual(fells.firstPath?.count, 46, "no track: the first route")
        let doc = try GPXReader.read(Array("""
            \u{FEFF}<?xml version="1.0"?><!-- a comment with <trkpt> inside --><!DOCTYPE gpx>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:trk><g:trkseg/><g:trkseg>
            <g:trkpt lon='13.5' lat="46.25"><ele>10</ele><![CDATA[<trkpt lat="1" lon="1"/>]]></g:trkpt>
            <g:trkpt lat=" 46.5 " lon="13.75"/></g:trkseg></g:trk></g:gpx>
            """.utf8))
        XCTAssertEqual(doc.firstPath, [.init(latitude: 46.25, longitude: 13.5), .init(latitude: 46.5, longitude: 13.75)])
        func error(_ s: String) -> GPXError? {
            do { _ = try GPXReader.read(Array(s.utf8)); return nil } catch { return error }
        }
        XCTAssertEqual(error("<gpx><trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>")?.reason, "point without a numeric lat and lon")
        let e = error("<gpx>\n  <trk>\n  </gpx>")
        XCTAssertEqual(e?.line, 3)
        XCTAssertEqual(e?.column, 3)
        XCTAssertEqual(e?.reason, "end tag </gpx> closes <trk>")
        XCTAssertNotNil(error("<gpx><wpt lat=\"91\" lon=\"0\"/></gpx>"))
        XCTAssertNotNil(error("<gpx><!-- never closed </gpx>"))
        XCTAssertNotNil(error("<gpx><wpt lat=\"1\" lon=\"2\"></gpx>"))
        XCTAssertNotNil(error(""))
        // Every prefix of a sample either reads or fails with an offset inside it.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try gpxFolder() + "/gpxpy/track-with-empty-segment.gpx")))
        for cut in 0...bytes.count {
            do { _ = try GPXReader.read(Array(bytes[..<cut])) } catch { XCTAssertLessThanOrEqual(error.offset, cut) }
        }
    }

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

    func route() throws -> [GPXDocument.Point] {
        try XCTUnwrap(try read(try gpxFolder() + "/gpxpy/Mojstrovka.gpx").firstPath)
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

    func testNavigationPinsTheLocationHeadingUp() throws {
        let template = Camera(longitude: 0, latitude: 0, zoom: 15, pitch: 60, width: 390, height: 844)
        let f = try RouteFollower(route: try route(), template: template, mode: .navigation(heightFactor: 0.75))
        let updates = checkConservation(f)
        XCTAssertEqual(updates.count, try route().count)
        for u in updates {
            let p = try XCTUnwrap(u.camera.project(longitude: u.longitude, latitude: u.latitude))
            XCTAssertEqual(p.x, 195, accuracy: 1e-6)
            XCTAssertEqual(p.y, 0.75 * 844, accuracy: 1e-6)
        }
        XCTAssertGreaterThan(Set(updates.map { Int($0.camera.bearing) }).count, 4, "the bearing follows the route")
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
