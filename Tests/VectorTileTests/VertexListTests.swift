import XCTest
import GeoModel
import VectorTile

/// VertexList keeps every vertex in geometry order; a polygon's closing vertex is not repeated.
final class VertexListTests: XCTestCase {
    func testVerticesInOrder() throws {
        var enc = MVTEncoder()
        try enc.addFeature(layer: "a", geometry: Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4]))
        try enc.addFeature(layer: "a", geometry: Geometry(kind: .polygon, coordinates: [0, 0, 10, 0, 10, 10, 0, 0], partStarts: [0], polygonStarts: [0]))
        let bytes = enc.encode()
        var lists: [[(Int64, Int64)]] = []
        try bytes.withUnsafeBytes { raw in
            try VectorTile(bytes: raw).layers()[0].forEachFeature { (f: Feature) throws(MVTError) in
                var v = VertexList()
                try f.decodeGeometry(into: &v, mode: .tolerant)
                lists.append(v.xy)
            }
        }
        XCTAssertEqual(lists.count, 2)
        XCTAssertEqual(lists[0].map { [$0.0, $0.1] }, [[1, 2], [3, 4]])
        XCTAssertEqual(lists[1].map { [$0.0, $0.1] }, [[0, 0], [10, 0], [10, 10]])
    }
}
