import XCTest
import GeoModel
import TileCover

/// What a command hands TileCover before covering: several geometries, a view's bounds, a
/// headings file, and the totals of a follow run.
final class ViewAndRouteInputTests: XCTestCase {
    func testCoverOfSeveralGeometriesIsTheirUnionOnce() {
        let a = Geometry(kind: .point, coordinates: [1, 1])
        let b = Geometry(kind: .lineString, coordinates: [1, 1, 30, 20])
        let union = TileCoverage.tiles(for: [a, b, a], zoom: 5)
        let expected = Set(TileCoverage.tiles(for: a, zoom: 5) + TileCoverage.tiles(for: b, zoom: 5))
        XCTAssertEqual(Set(union), expected)
        XCTAssertEqual(union.count, expected.count, "each tile once")
        XCTAssertEqual(union, union.sorted { ($0.y, $0.x) < ($1.y, $1.x) }, "row, then column")
        XCTAssertEqual(TileCoverage.estimatedCount(for: [a, a], zoom: 5), 2 * TileCoverage.estimatedCount(for: a, zoom: 5))
        XCTAssertEqual(TileCoverage.tiles(for: [Geometry](), zoom: 5), [])
    }

    func testMapViewBounds() throws {
        try MapViewBounds.check(width: 16_384, height: 390, fieldOfView: 60)
        try MapViewBounds.check(width: 1, height: 1, fieldOfView: 0.01)
        XCTAssertThrowsError(try MapViewBounds.check(width: 390, height: 844, fieldOfView: 60.5)) {
            XCTAssertEqual($0 as? CameraError, .outOfRange("fieldOfView", 60.5))
        }
        XCTAssertThrowsError(try MapViewBounds.check(width: 390, height: 844, fieldOfView: .nan))
        XCTAssertThrowsError(try MapViewBounds.check(width: 16_385, height: 844)) {
            XCTAssertEqual($0 as? CameraError, .outOfRange("width", 16_385))
        }
        XCTAssertThrowsError(try MapViewBounds.check(width: 390, height: 20_000)) {
            XCTAssertEqual($0 as? CameraError, .outOfRange("height", 20_000))
        }
    }

    func testCompassHeadingsFile() throws {
        XCTAssertEqual(try CompassHeadings.parse("0\n 90.5 # east-ish\n\n# a comment\n\t-45\r\n359"), [0, 90.5, -45, 359])
        XCTAssertEqual(try CompassHeadings.parse(""), [])
        XCTAssertThrowsError(try CompassHeadings.parse("10\n\nnorth\n")) {
            XCTAssertEqual($0 as? CompassHeadings.ParseError, .init(line: 3, text: "north"))
        }
        XCTAssertThrowsError(try CompassHeadings.parse("inf"))
        XCTAssertThrowsError(try CompassHeadings.parse("1e400"))
    }

    /// The summary's totals equal those counted from the updates themselves.
    func testFollowSummaryCountsTheUpdates() throws {
        let route = (0..<40).map { GeoPosition(latitude: 52.5 + Double($0 % 7) * 0.001, longitude: 13.4 + Double($0) * 0.002) }
        let template = Camera(longitude: 13.4, latitude: 52.5, zoom: 15, width: 390, height: 844)
        let follower = try RouteFollower(route: route, template: template, mode: .recenter(factor: 0.5))
        var summary = RouteFollower.Summary()
        var updates: [RouteFollower.Update] = []
        follower.run { summary.add($0); updates.append($0) }
        XCTAssertEqual(summary.updates, 40)
        XCTAssertEqual(summary.moves, updates.filter(\.moved).count)
        XCTAssertGreaterThan(summary.moves, 0)
        XCTAssertEqual(summary.loads, updates.dropFirst().map(\.load.count).reduce(0, +), "the first view's tiles are not loads")
        XCTAssertEqual(summary.maxLoad, updates.dropFirst().map(\.load.count).max())
        XCTAssertEqual(summary.drops, updates.map(\.drop.count).reduce(0, +))
        XCTAssertEqual(summary.maxTiles, updates.map(\.tiles).max())
    }
}
