import XCTest
import Foundation
import DatasetProfile
import GraticuleTestSupport
import TileCover

/// `mvt inspect`'s library half: layer summaries and findings of a whole tile or one layer,
/// and its JSON.
final class TileInspectionTests: XCTestCase {
    func testWholeTileOneLayerAndJSON() throws {
        let path = TestPaths.shared("mvt-fixtures/real-world/chicago/13-2098-3042.mvt")
        guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("no \(path): ../shared is not beside the checkout") }
        let bytes = [UInt8](data)
        let whole = try TileInspection(bytes: bytes)
        XCTAssertEqual(whole.layers.count, 11)
        let road = try TileInspection(bytes: bytes, layer: "road")
        XCTAssertEqual(road.layers.map(\.name), ["road"])
        XCTAssertEqual(road.layers[0].features, 172)
        XCTAssertTrue(road.findings.allSatisfy { $0.layer == nil || $0.layer == 6 }, "only the road layer's findings")
        XCTAssertTrue(road.isValid)
        XCTAssertThrowsError(try TileInspection(bytes: bytes, layer: "nope")) { e in
            guard case .noSuchLayer("nope", let layers)? = e as? TileInspection.Failure else { return XCTFail("\(e)") }
            XCTAssertTrue(layers.contains("road"))
        }
        let json = road.json(file: "t.mvt", tile: TileID(z: 13, x: 2098, y: 3042), bytes: bytes.count)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["schema"] as? String, "graticule-mvt-inspect/1")
        XCTAssertEqual(object["tile"] as? String, "13/2098/3042")
        XCTAssertEqual((object["layers"] as? [[String: Any]])?.first?["features"] as? Int, 172)
        XCTAssertEqual((object["findings"] as? [Any])?.count, road.findings.count)
    }
}
