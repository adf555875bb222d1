import XCTest
import GeoModel

final class BoundingBoxTests: XCTestCase {
    func testFromFlatCoordinates() {
        let b = BoundingBox(flatCoordinates: [10, 20, -5, 40, 3, -1])
        XCTAssertEqual(b, BoundingBox(minX: -5, minY: -1, maxX: 10, maxY: 40))
        // Three values per position: the third (altitude) is not part of the box.
        XCTAssertEqual(BoundingBox(flatCoordinates: [1, 2, 999, 3, 4, -999], dimensions: 3),
                       BoundingBox(minX: 1, minY: 2, maxX: 3, maxY: 4))
        XCTAssertNil(BoundingBox(flatCoordinates: []))
        XCTAssertNil(BoundingBox(flatCoordinates: [1]))
    }

    /// A range of positions inside a shared buffer (a column batch's coordinates).
    func testFromARangeOfPositions() {
        // Positions (x, y, z): (0, 0, 7), (5, -2, 8), (-3, 4, 9), (100, 100, 0).
        let coords: [Double] = [0, 0, 7, 5, -2, 8, -3, 4, 9, 100, 100, 0]
        coords.withUnsafeBufferPointer { c in
            XCTAssertEqual(BoundingBox(flatCoordinates: c, positions: 1..<3, dimensions: 3),
                           BoundingBox(minX: -3, minY: -2, maxX: 5, maxY: 4))
            XCTAssertEqual(BoundingBox(flatCoordinates: c, positions: 3..<4, dimensions: 3),
                           BoundingBox(minX: 100, minY: 100, maxX: 100, maxY: 100))
            XCTAssertNil(BoundingBox(flatCoordinates: c, positions: 2..<2, dimensions: 3))
            // Read as two values per position, the same buffer has six positions.
            XCTAssertEqual(BoundingBox(flatCoordinates: c, positions: 4..<6, dimensions: 2),
                           BoundingBox(minX: 9, minY: 0, maxX: 100, maxY: 100))
        }
    }

    func testUnionContainsIntersects() {
        let a = BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1)
        let b = BoundingBox(minX: 1, minY: 1, maxX: 2, maxY: 3)
        XCTAssertEqual(a.union(b), BoundingBox(minX: 0, minY: 0, maxX: 2, maxY: 3))
        XCTAssertTrue(a.contains(x: 1, y: 1), "closed box: the corner is inside")
        XCTAssertFalse(a.contains(x: 1.0000001, y: 0.5))
        XCTAssertTrue(a.intersects(b), "touching at one corner counts")
        XCTAssertFalse(a.intersects(BoundingBox(minX: 1.5, minY: 0, maxX: 2, maxY: 1)))
    }
}
