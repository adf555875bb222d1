import GeoModel
import TileCover
import XCTest
@testable import SourceDiff

/// A snapshot diff keeps large covers as geometries and computes their tiles zoom by zoom:
/// the touched tiles are still every tile, at every zoom of the range, that a changed
/// feature's old or new geometry covers (checked here against covers computed zoom by zoom
/// with `TileCoverage.tiles`, not through the diff's own ancestor walk).
final class LargeCoverDiffTests: XCTestCase {
    func polygon(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> Geometry {
        Geometry(kind: .polygon, coordinates: [w, s, e, s, e, n, w, n, w, s], partStarts: [0], polygonStarts: [0])
    }

    func feature(_ id: Int64, _ g: Geometry?, _ v: Int64) -> GeoFeature {
        GeoFeature(id: .int(id), geometry: g, properties: ["v": .int(v)])
    }

    func expectedTouched(_ geometries: [Geometry], _ zooms: ClosedRange<Int>) -> Set<TileID> {
        var out = Set<TileID>()
        for z in zooms { for g in geometries { out.formUnion(TileCoverage.tiles(for: g, zoom: z)) } }
        return out
    }

    func testLargeAndSmallChangesTouchEveryCoveredTile() {
        let zooms = 0...9
        let big = polygon(-40, -30, 50, 40)          // thousands of tiles at z9: kept as a geometry
        let moved = polygon(-10, -10, 60, 20)
        let small = polygon(10.01, 10.01, 10.2, 10.2)
        let point = Geometry(kind: .point, coordinates: [3.3, 4.4])
        let line = Geometry(kind: .lineString, coordinates: [-170, 60, 170, -60])
        var d = SnapshotDiff(indexZooms: zooms)
        d.addOld(feature(1, big, 1))       // property changes: old cover touched
        d.addOld(feature(2, big, 1))       // geometry changes: old and new covers
        d.addOld(feature(3, small, 1))     // removed
        d.addOld(feature(4, point, 1))     // unchanged
        d.addOld(feature(5, line, 1))      // unchanged, large
        d.addNew(feature(1, big, 2))
        d.addNew(feature(2, moved, 1))
        d.addNew(feature(4, point, 1))
        d.addNew(feature(5, line, 1))
        d.addNew(feature(6, line, 1))      // added, large
        _ = d.finish()
        XCTAssertFalse(d.touchedGeometries.isEmpty, "the large covers are kept as geometries")
        let expected = expectedTouched([big, moved, small, line], zooms)
        XCTAssertEqual(d.touchedTiles, expected)
        XCTAssertEqual(d.touchedTileCount, expected.count)
        XCTAssertGreaterThanOrEqual(d.touchedTileEstimate, Double(expected.count))
        var listed: [TileID] = []
        d.forEachTouchedTileInOrder { listed.append($0) }
        XCTAssertEqual(listed, expected.sorted { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) })
    }

    func testSmallChangesListInOrderToo() {
        let zooms = 3...8
        var d = SnapshotDiff(indexZooms: zooms)
        let a = polygon(1.01, 1.01, 1.3, 1.3), b = polygon(2.01, 2.01, 2.2, 2.2)
        d.addOld(feature(1, a, 1))
        d.addNew(feature(1, b, 1))
        _ = d.finish()
        XCTAssertTrue(d.touchedGeometries.isEmpty)
        let expected = expectedTouched([a, b], zooms)
        var listed: [TileID] = []
        d.forEachTouchedTileInOrder { listed.append($0) }
        XCTAssertEqual(listed, expected.sorted { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) })
        XCTAssertEqual(d.touchedTileCount, expected.count)
    }

    /// The world polygon over z0-14 (3.6e8 tiles) is counted without holding its tiles.
    func testTheWorldOverZ0To14IsCountedFromRuns() {
        let world = polygon(-180, -86, 180, 86)
        var d = SnapshotDiff(indexZooms: 0...14)
        d.addOld(feature(1, world, 1))
        d.addNew(feature(1, world, 2))
        _ = d.finish()
        XCTAssertEqual(d.touched.count, 0)
        XCTAssertEqual(d.touchedTileCount, (0...14).reduce(0) { $0 + (1 << (2 * $1)) })
    }
}
