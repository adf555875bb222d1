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
        try Data(GPXTrackGenerator.generate(points: 120, step: 0.002).bytes).write(to: URL(fileURLWithPath: gpx))
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        for mode in ["off", "recenter", "navigation"] {
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
}
