import XCTest
@testable import TileCover

/// A tile layer's loading: cache hits, LRU eviction by tiles and bytes, "no tile" answers
/// never asked again until a clear, "not available" asked again, each update balanced.
final class TileLayerLoaderTests: XCTestCase {
    func t(_ x: Int) -> TileID { TileID(z: 5, x: x, y: 0)! }

    func testCacheHitsAndLRUEviction() {
        var layer = TileLayerLoader(capacity: .init(tiles: 3))
        var asked: [Int] = []
        func source(_ tile: TileID) -> TileLayerLoader.Answer { asked.append(Int(tile.x)); return .tile(bytes: 10) }
        var u = layer.update([t(0), t(1), t(2), t(1)], source: source)
        XCTAssertEqual([u.inView, u.requested, u.loaded, u.loadedBytes, u.fromCache, u.evicted, u.cachedTiles], [3, 3, 3, 30, 0, 0, 3])
        // 0 is touched, so 1 is the least recently used when 3 arrives.
        u = layer.update([t(0), t(3)], source: source)
        XCTAssertEqual([u.fromCache, u.loaded, u.evicted], [1, 1, 1])
        XCTAssertFalse(layer.isCached(t(1)))
        XCTAssertTrue(layer.isCached(t(2)))
        u = layer.update([t(1)], source: source)
        XCTAssertEqual([u.loaded, u.evicted], [1, 1])
        XCTAssertFalse(layer.isCached(t(2)), "2 was the least recently used")
        XCTAssertEqual(asked, [0, 1, 2, 3, 1])
        XCTAssertEqual(u.index, 2)
    }

    func testByteBoundAndOversizedTiles() {
        var layer = TileLayerLoader(capacity: .init(bytes: 100))
        var u = layer.update([t(0), t(1), t(2)]) { .tile(bytes: 40 + Int($0.x)) }   // 40, 41, 42
        XCTAssertEqual([u.loaded, u.evicted, u.cachedTiles, u.cachedBytes], [3, 1, 2, 83])
        u = layer.update([t(9)]) { _ in .tile(bytes: 500) }
        XCTAssertEqual([u.loaded, u.cachedTiles, u.evicted], [1, 2, 0], "a tile above the bound is loaded, not kept")
        var none = TileLayerLoader(capacity: .init(tiles: 0))
        u = none.update([t(0)]) { _ in .tile(bytes: 1) }
        u = none.update([t(0)]) { _ in .tile(bytes: 1) }
        XCTAssertEqual([u.loaded, u.fromCache, u.cachedTiles], [1, 0, 0])
    }

    func testNoTileUnavailableAndClear() {
        var layer = TileLayerLoader(capacity: .init())
        var calls = 0
        let answers: [Int: TileLayerLoader.Answer] = [0: .noTile, 1: .unavailable, 2: .tile(bytes: 5)]
        func source(_ tile: TileID) -> TileLayerLoader.Answer { calls += 1; return answers[Int(tile.x)]! }
        var u = layer.update([t(0), t(1), t(2)], source: source)
        XCTAssertEqual([u.requested, u.noTile, u.unavailable, u.loaded], [3, 1, 1, 1])
        u = layer.update([t(0), t(1), t(2)], source: source)
        XCTAssertEqual([u.requested, u.knownAbsent, u.unavailable, u.fromCache], [1, 1, 1, 1], "no tile: not asked again")
        u = layer.update([t(0), t(1), t(2)], clear: true, source: source)
        XCTAssertTrue(u.cleared)
        XCTAssertEqual([u.requested, u.noTile, u.unavailable, u.loaded, u.fromCache], [3, 1, 1, 1, 0], "a clear asks for everything again")
        XCTAssertEqual(calls, 7)
    }

    /// Random updates against a reference LRU written here with an ordered array.
    func testAgreesWithAReferenceLRU() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let cap = Int.random(in: 1...12, using: &rng)
            var layer = TileLayerLoader(capacity: .init(tiles: cap))
            var order: [Int] = []        // most recent last
            for _ in 0..<40 {
                let view = (0..<Int.random(in: 0...8, using: &rng)).map { _ in Int.random(in: 0..<20, using: &rng) }
                var hits = 0, loads = 0, evictions = 0, seen = Set<Int>()
                for x in view where seen.insert(x).inserted {
                    if let i = order.firstIndex(of: x) { hits += 1; order.remove(at: i); order.append(x); continue }
                    loads += 1
                    order.append(x)
                    if order.count > cap { order.removeFirst(); evictions += 1 }
                }
                let u = layer.update(view.map(t)) { _ in .tile(bytes: 1) }
                XCTAssertEqual([u.fromCache, u.loaded, u.evicted, u.cachedTiles], [hits, loads, evictions, order.count])
            }
        }
    }

    func testAvailabilityAndCameraLists() throws {
        let a = try TileAvailability(parsing: "# comment\n5/1/0 *\n5/2/0 3,5-7\n\n5/2/0 10 # again\n")
        XCTAssertTrue(a.isUnavailable(t(1), at: 99))
        XCTAssertEqual((0...11).filter { a.isUnavailable(t(2), at: $0) }, [3, 5, 6, 7, 10])
        XCTAssertFalse(a.isUnavailable(t(3), at: 0))
        XCTAssertEqual(a.count, 2)
        XCTAssertThrowsError(try TileAvailability(parsing: "5/99/0 *")) { XCTAssertEqual(($0 as? TileAvailability.ParseError)?.line, 1) }
        XCTAssertThrowsError(try TileAvailability(parsing: "5/1/0 *\n5/1/0 7-3")) { XCTAssertEqual(($0 as? TileAvailability.ParseError)?.line, 2) }
        let template = Camera(longitude: 0, latitude: 0, zoom: 10, width: 390, height: 844)
        let cams = try CameraSequence.parse(csv: "update,center_longitude,center_latitude,bearing,viewport\n0,1.5,2.5,90,844x390\n1,2,3,0,390x844\n",
                                            template: template)
        XCTAssertEqual(cams.count, 2)
        XCTAssertEqual([cams[0].longitude, cams[0].latitude, cams[0].bearing, cams[0].width, cams[0].zoom], [1.5, 2.5, 90, 844, 10])
        let zoomed = try CameraSequence.parse(csv: "longitude,latitude,zoom\n0,0,3\n", template: template, zoom: { $0 - 1 })
        XCTAssertEqual(zoomed[0].zoom, 2)
        XCTAssertThrowsError(try CameraSequence.parse(csv: "lon,lat\n0,0\n", template: template))
        XCTAssertThrowsError(try CameraSequence.parse(csv: "longitude,latitude\n0\n", template: template)) {
            XCTAssertEqual(($0 as? CameraSequence.ParseError)?.line, 2)
        }
        XCTAssertThrowsError(try CameraSequence.parse(csv: "longitude,latitude\nnan,0\n", template: template))
    }
}
