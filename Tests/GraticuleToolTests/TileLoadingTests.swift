import XCTest
import Foundation
import CorpusGenerators
import GraticuleTestSupport
@testable import GraticuleTool

/// `graticule tiles load` over the cameras `cover follow` wrote loads what the same route
/// followed in place loads: the CSV's camera centre is the camera, not the device location
/// beside it.
final class TileLoadingTests: XCTestCase {
    /// The rows of a `tiles load` report, as (in_view, requested) per update.
    func requests(_ path: String) throws -> [[String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try XCTUnwrap(lines.first)
        let inView = try XCTUnwrap(header.firstIndex(of: "in_view")), requested = try XCTUnwrap(header.firstIndex(of: "requested"))
        return lines.dropFirst().map { [$0[inView], $0[requested]] }
    }

    func run(_ args: [String]) throws {
        var command = try GraticuleCommand.parseAsRoot(args)
        try command.run()
    }

    func testFollowReportReplaysAsTheRouteFollowedInPlace() throws {
        let dir = try TestPaths.newFolder("tile-loading")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gpx = dir + "/route.gpx", source = dir + "/tiles"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try Data(GPXTrackGenerator.generate(points: 120, step: 0.002, courses: true).bytes).write(to: URL(fileURLWithPath: gpx))
        for mode in ["off", "recenter", "navigation", "compass"] {
            let follow = dir + "/follow-\(mode).csv", replayed = dir + "/replayed-\(mode).csv", inPlace = dir + "/in-place-\(mode).csv"
            try run(["cover", "follow", gpx, "--zoom", "15", "--mode", mode, "--output", follow])
            try run(["tiles", "load", source, "--cameras", follow, "--zoom", "15", "--output", replayed])
            try run(["tiles", "load", source, "--route", gpx, "--mode", mode, "--zoom", "15", "--output", inPlace])
            let a = try requests(replayed), b = try requests(inPlace)
            XCTAssertEqual(a.count, 120, mode)
            XCTAssertEqual(a, b, "mode \(mode): the replayed cameras request what the route followed in place does")
            let total = b.reduce(0) { $0 + Int($1[1])! }
            // With the camera fixed (off), the view of the first update is requested once and
            // served from the cache afterwards; a device location moving off it is not the camera.
            if mode == "off" { XCTAssertEqual(total, Int(b[0][1])!, "the camera stays: only the first update requests") }
            else { XCTAssertGreaterThan(total, Int(b[0][1])!, "mode \(mode): the camera moves and requests more") }
        }
    }

    /// The frames `cover transition` writes replay through `tiles load --cameras`, one update
    /// per frame, their zoom column read as the cameras' zoom.
    func testTransitionFramesReplay() throws {
        let dir = try TestPaths.newFolder("transition")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = dir + "/tiles", frames = dir + "/frames.csv", replayed = dir + "/replayed.csv"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try run(["cover", "transition", "--from", "-122.4,37.8,12", "--to", "-73.99,40.73,12,90,45", "--animation", "bow",
                 "--duration", "1", "--fps", "20", "--viewport", "390x844", "--output", frames])
        let lines = try String(contentsOfFile: frames, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first, "frame,time_s,longitude,latitude,zoom,bearing,pitch,event,tiles,load,drop")
        XCTAssertEqual(lines.count, 22)
        XCTAssertTrue(lines[1].contains(",began,") && lines[21].contains(",ended,"))
        try run(["tiles", "load", source, "--cameras", frames, "--viewport", "390x844", "--output", replayed])
        let rows = try requests(replayed)
        XCTAssertEqual(rows.count, 21)
        let loads = lines.dropFirst().map { Int($0.split(separator: ",", omittingEmptySubsequences: false)[9])! }
        XCTAssertEqual(Int(rows[0][1]), loads[0], "the first update requests what the first frame loads")
        XCTAssertGreaterThan(loads.reduce(0, +), loads[0])
    }

    /// A GeoJSON LineString (or MultiLineString, its lines joined) of the GPX route's points is
    /// the same route: the same cameras, the same requests. Compass mode needs headings,
    /// which GeoJSON does not record: --headings gives them.
    func testGeoJSONRouteIsTheSameRoute() throws {
        let dir = try TestPaths.newFolder("geojson-route")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let gpx = dir + "/route.gpx", source = dir + "/tiles"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        let bytes = GPXTrackGenerator.generate(points: 60, step: 0.002, courses: true).bytes
        try Data(bytes).write(to: URL(fileURLWithPath: gpx))
        // The points and courses as the generator wrote them, read back from its text.
        let text = String(decoding: bytes, as: UTF8.self)
        func values(_ pattern: String) throws -> [String] {
            let re = try NSRegularExpression(pattern: pattern)
            return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
        }
        let lats = try values("lat=\"([-0-9.]+)\""), lons = try values("lon=\"([-0-9.]+)\""), courses = try values("<gpxtpx:course>([0-9.]+)<")
        XCTAssertEqual(lats.count, 60)
        let positions = zip(lons, lats).map { "[\($0),\($1)]" }
        let line = dir + "/line.geojson", multi = dir + "/multi.geojson", headings = dir + "/headings.txt"
        try Data(#"{"type":"Feature","properties":null,"geometry":{"type":"LineString","coordinates":[\#(positions.joined(separator: ","))]}}"#.utf8)
            .write(to: URL(fileURLWithPath: line))
        let parts = "[" + positions.prefix(25).joined(separator: ",") + "],[" + positions.dropFirst(25).joined(separator: ",") + "]"
        try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[\#(parts)]}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: multi))
        try Data((courses.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: headings))
        for mode in ["navigation", "compass"] {
            let expected = dir + "/gpx-\(mode).csv"
            try run(["tiles", "load", source, "--route", gpx, "--mode", mode, "--zoom", "15", "--output", expected])
            for route in [line, multi] {
                let got = dir + "/got.csv"
                try run(["tiles", "load", source, "--route", route, "--mode", mode, "--zoom", "15", "--output", got]
                        + (mode == "compass" ? ["--headings", headings] : []))
                XCTAssertEqual(try requests(got), try requests(expected), "\(mode) over \(route)")
                let follow = dir + "/follow.csv"
                try run(["cover", "follow", route, "--zoom", "15", "--mode", mode, "--output", follow]
                        + (mode == "compass" ? ["--headings", headings] : []))
                XCTAssertEqual(try String(contentsOfFile: follow, encoding: .utf8).split(separator: "\n").count, 61)
            }
        }
    }
}
