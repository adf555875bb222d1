import XCTest
import GeoModel
@testable import VectorTile

final class GeometryConversionTests: XCTestCase {
    /// §4.3.5's multi-polygon: two polygons, the second with a hole.
    let multiPolygon: [UInt32] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
                                  9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15]

    func convert(_ commands: [UInt32], type: UInt64, tile: TileAddress? = nil) throws -> Geometry? {
        var spec = TileBuilder.LayerSpec()
        spec.features = [.init(type: type, geometry: commands)]
        var out: Geometry?
        try TileBuilder.tile([spec]).withUnsafeBytes { raw in
            let layer = try VectorTile(bytes: raw).layers()[0]
            try layer.forEachFeature { (f: Feature) throws(MVTError) in out = try f.geometry(in: tile, extent: 4096) }
        }
        return out
    }

    func testMultiPolygonGroupedByRingSign() throws {
        let g = try XCTUnwrap(convert(multiPolygon, type: 3))
        XCTAssertEqual(g.kind, .multiPolygon)
        XCTAssertEqual(g.polygonStarts, [0, 1])
        XCTAssertEqual(g.partStarts, [0, 5, 10])
        XCTAssertEqual(g.coordinates, [0, 0, 10, 0, 10, 10, 0, 10, 0, 0,
                                       11, 11, 20, 11, 20, 20, 11, 20, 11, 11,
                                       13, 13, 13, 17, 17, 17, 17, 13, 13, 13])
        XCTAssertEqual(g.partRange(2), 10..<15)
        XCTAssertEqual(g.polygonRange(1), 1..<3)
    }

    func testKindsOfPointsAndLines() throws {
        XCTAssertEqual(try convert([9, 50, 34], type: 1), Geometry(kind: .point, coordinates: [25, 17]))
        XCTAssertEqual(try convert([17, 10, 14, 3, 9], type: 1)?.kind, .multiPoint)
        XCTAssertEqual(try convert([9, 4, 4, 18, 0, 16, 16, 0], type: 2),
                       Geometry(kind: .lineString, coordinates: [2, 2, 2, 10, 10, 10], partStarts: [0]))
        XCTAssertEqual(try convert([9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8], type: 2)?.partStarts, [0, 3])
        XCTAssertNil(try convert([9, 50, 34], type: 0), "UNKNOWN geometry (B4)")
    }

    func testLonLatOfTileCornersAndCentre() {
        let t = TileAddress(z: 0, x: 0, y: 0)
        let nw = t.lonLat(x: 0, y: 0, extent: 4096)
        XCTAssertEqual(nw.lon, -180)
        XCTAssertEqual(nw.lat, 85.0511287798066, accuracy: 1e-12, "Web Mercator's latitude limit")
        let c = t.lonLat(x: 2048, y: 2048, extent: 4096)
        XCTAssertEqual(c.lon, 0)
        XCTAssertEqual(c.lat, 0, accuracy: 1e-12)
        // z1 tile 1/1/1 is the south-east quarter: its north-west corner is (0, 0).
        let se = TileAddress(z: 1, x: 1, y: 1).lonLat(x: 0, y: 0, extent: 4096)
        XCTAssertEqual(se.lon, 0)
        XCTAssertEqual(se.lat, 0, accuracy: 1e-12)
    }

    /// RFC 7946 §3.1.6: in longitude/latitude, exterior rings are counter-clockwise
    /// (positive signed area with y up) and holes clockwise.
    func testRightHandRuleInLonLat() throws {
        let g = try XCTUnwrap(convert(multiPolygon, type: 3, tile: TileAddress(z: 0, x: 0, y: 0)))
        func signedArea(_ part: Int) -> Double {
            let r = g.partRange(part)
            var a = 0.0
            for i in r.lowerBound..<(r.upperBound - 1) {
                a += g.coordinates[2 * i] * g.coordinates[2 * i + 3] - g.coordinates[2 * i + 2] * g.coordinates[2 * i + 1]
            }
            return a
        }
        XCTAssertGreaterThan(signedArea(0), 0)
        XCTAssertGreaterThan(signedArea(1), 0)
        XCTAssertLessThan(signedArea(2), 0)
        for p in 0..<3 {
            let r = g.partRange(p)
            XCTAssertEqual(g.coordinates[2 * r.lowerBound], g.coordinates[2 * (r.upperBound - 1)], "rings stay closed")
        }
    }
}
