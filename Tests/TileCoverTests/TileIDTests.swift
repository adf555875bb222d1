import XCTest
import TileCover
import GeoModel

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
            XCTAssertEqual(TileID(packedValue: t.packedValue), t)
            XCTAssertEqual(t.packedValue >> UInt64(2 * z), 1, "the marker bit sits at 2z")
        }
    }

    /// Packed words: the extremes, and words that name no tile.
    func testPackedValue() {
        XCTAssertEqual(TileID(z: 0, x: 0, y: 0)!.packedValue, 1)
        XCTAssertEqual(TileID(z: 1, x: 1, y: 0)!.packedValue, 0b110)
        let corner = TileID(z: 30, x: (1 << 30) - 1, y: (1 << 30) - 1)!
        XCTAssertEqual(corner.packedValue, (1 << 61) - 1)
        XCTAssertEqual(TileID(packedValue: corner.packedValue), corner)
        XCTAssertNil(TileID(packedValue: 0))
        XCTAssertNil(TileID(packedValue: 0b10), "marker at an odd bit")
        XCTAssertNil(TileID(packedValue: 1 << 62), "z31")
        XCTAssertNil(TileID(packedValue: UInt64.max))
        // Different tiles, different words: every tile through z5.
        var seen = Set<UInt64>()
        for z in 0...5 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { XCTAssertTrue(seen.insert(TileID(z: z, x: x, y: y)!.packedValue).inserted) } } }
    }
}

/// Tile-set edges and union (the supermercado operations), against expectations worked out
/// by hand and, for random sets, against counts computed here independently.
final class TileSetTests: XCTestCase {
    func t(_ x: Int, _ y: Int, z: Int = 5) -> TileID { TileID(z: z, x: x, y: y)! }

    func testEdgesOfABlock() {
        let block = (10..<13).flatMap { y in (20..<23).map { x in t(x, y) } }
        XCTAssertEqual(Set(TileSet.edges(block)), Set(block).subtracting([t(21, 11)]))
        XCTAssertEqual(TileSet.edges([t(0, 0)]), [t(0, 0)], "a lone tile at the grid corner is an edge")
        XCTAssertEqual(TileSet.edges([]), [])
    }

    /// Twice the area in tile units of a lon/lat polygon, by reprojecting its rings.
    func tileArea(_ g: Geometry, z: Int) -> Double {
        let n = Double(1 << z)
        var total = 0.0
        for p in 0..<g.partStarts.count {
            let r = g.partRange(p)
            var s = 0.0
            for i in r.lowerBound..<(r.upperBound - 1) {
                let ax = WebMercator.x(longitude: g.x(i)) * n, ay = WebMercator.y(latitude: g.y(i)) * n
                let bx = WebMercator.x(longitude: g.x(i + 1)) * n, by = WebMercator.y(latitude: g.y(i + 1)) * n
                s += ax * by - bx * ay
            }
            total += s
        }
        return total
    }

    func testUnionShapes() {
        let pair = TileSet.union([t(3, 4), t(4, 4)])
        XCTAssertEqual(pair.count, 1)
        XCTAssertEqual(pair[0].positionCount, 5, "a 2×1 block is a rectangle")
        let ring = (0..<3).flatMap { y in (0..<3).map { x in t(x + 8, y + 8) } }.filter { $0 != t(9, 9) }
        let donut = TileSet.union(ring)
        XCTAssertEqual(donut.count, 1)
        XCTAssertEqual(donut[0].partStarts.count, 2, "one hole")
        XCTAssertEqual(TileSet.union([t(1, 1), t(2, 2)]).count, 2, "corner contact does not join")
        // RFC 7946 §3.1.6 winding: exterior counterclockwise (negative y-down area), hole clockwise.
        XCTAssertEqual(tileArea(donut[0], z: 5), -16, accuracy: 1e-6)   // −(18 exterior) + 2 hole = −16 = −2·8 cells
    }

    /// Random sets: as many polygons as 4-connected groups, and the polygons' area is the
    /// number of tiles.
    func testRandomUnions() {
        var s: UInt64 = 3
        for _ in 0..<200 {
            var tiles = Set<TileID>()
            for _ in 0..<30 {
                s = s &* 6364136223846793005 &+ 1442695040888963407
                tiles.insert(t(Int(s >> 60), Int((s >> 50) & 7)))
            }
            var seen = Set<TileID>(), groups = 0
            for c in tiles where !seen.contains(c) {
                groups += 1
                var stack = [c]
                seen.insert(c)
                while let d = stack.popLast() {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        if let n = TileID(z: 5, x: Int(d.x) + dx, y: Int(d.y) + dy), tiles.contains(n), !seen.contains(n) {
                            seen.insert(n); stack.append(n)
                        }
                    }
                }
            }
            let polygons = TileSet.union(Array(tiles))
            XCTAssertEqual(polygons.count, groups)
            XCTAssertEqual(polygons.map { -tileArea($0, z: 5) }.reduce(0, +), 2 * Double(tiles.count), accuracy: 1e-6)
        }
    }
}
