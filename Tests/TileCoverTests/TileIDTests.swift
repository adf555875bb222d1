import XCTest
import TileCover

final class TileIDTests: XCTestCase {
    /// Bing Maps tile system documentation example: tile (3, 5) at level 3 is quadkey "213".
    func testQuadkeyKnownExample() {
        XCTAssertEqual(TileID(z: 3, x: 3, y: 5)!.quadkey, "213")
        XCTAssertEqual(TileID(quadkey: "213"), TileID(z: 3, x: 3, y: 5))
        XCTAssertEqual(TileID(quadkey: ""), TileID(z: 0, x: 0, y: 0))
        XCTAssertNil(TileID(quadkey: "214"))
        XCTAssertNil(TileID(quadkey: String(repeating: "1", count: 31)))
    }

    func testBoundsThroughZoom30() {
        XCTAssertNotNil(TileID(z: 30, x: (1 << 30) - 1, y: (1 << 30) - 1))
        XCTAssertNil(TileID(z: 30, x: 1 << 30, y: 0))
        XCTAssertNil(TileID(z: 31, x: 0, y: 0))
        XCTAssertNil(TileID(z: 2, x: -1, y: 0))
        let deep = TileID(z: 30, x: 987_654_321, y: 123_456_789)!
        XCTAssertEqual(TileID(quadkey: deep.quadkey), deep, "quadkeys round-trip at z30")
        XCTAssertTrue(deep.children.isEmpty)
    }

    func testParentChildrenAndTMS() {
        let t = TileID(z: 5, x: 17, y: 9)!
        XCTAssertEqual(t.parent, TileID(z: 4, x: 8, y: 4))
        XCTAssertNil(TileID(z: 0, x: 0, y: 0)!.parent)
        XCTAssertEqual(t.children.map(\.description), ["6/34/18", "6/35/18", "6/34/19", "6/35/19"])
        for c in t.children { XCTAssertEqual(c.parent, t) }
        XCTAssertEqual(TileID(z: 1, x: 0, y: 0)!.tmsY, 1)
        XCTAssertEqual(TileID(z: 3, x: 0, y: 5)!.tmsY, 2)
    }

    /// Property: quadkey round trip and parent/child consistency on random tiles.
    func testRandomRoundTrips() {
        var s: UInt64 = 5
        for _ in 0..<2000 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            let z = Int(s >> 59) % 31
            let x = Int((s >> 20) % (UInt64(1) << UInt64(z)))
            let y = Int((s >> 5) % (UInt64(1) << UInt64(z)))
            let t = TileID(z: z, x: x, y: y)!
            XCTAssertEqual(TileID(quadkey: t.quadkey), t)
            XCTAssertEqual(t.quadkey.count, z)
            if let p = t.parent { XCTAssertTrue(p.children.contains(t)) }
        }
    }
}
