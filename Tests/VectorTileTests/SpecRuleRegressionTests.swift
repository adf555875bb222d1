import Foundation
import GeoModel
import XCTest
import GraticuleTestSupport
@testable import VectorTile

/// MVT 2.1 §4.1 rules a decoder could pass over silently, reported by the validator
/// (crafted tiles in corpora/regressions/mvt-spec).
final class SpecRuleRegressionTests: XCTestCase {
    func tile(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.corpora("regressions/mvt-spec/" + name))))
    }

    /// A11: a layer's extent is the size of its grid; 0 leaves nowhere to put a
    /// coordinate. The validator reports it, and longitude/latitude are refused rather
    /// than computed as infinities.
    func testExtentZeroIsAFinding() throws {
        let bytes = try tile("extent-0.mvt")
        try bytes.withUnsafeBytes { raw in
            let findings = MVTValidator.validate(VectorTile(bytes: raw))
            XCTAssertTrue(findings.contains { $0.error == .invalidExtent(offset: 2) && $0.error.rule == "A11" }, "\(findings)")
            let layer = try XCTUnwrap(try VectorTile(bytes: raw).layers().first)
            XCTAssertEqual(layer.extent, 0)
            var outcome: Result<Geometry?, MVTError>?
            layer.forEachFeature { (f: Feature) in
                do throws(MVTError) { outcome = .success(try f.geometry(in: TileAddress(z: 3, x: 1, y: 1), extent: layer.extent)) }
                catch { outcome = .failure(error) }
            }
            guard case .failure(.invalidExtent)? = outcome else { return XCTFail("\(String(describing: outcome))") }
        }
    }

    /// A10: a Value holds exactly one typed field. One with a string and an int is
    /// decoded tolerantly (the last wins, P8) and reported by the validator.
    func testValueWithTwoTypesIsAFinding() throws {
        let bytes = try tile("value-string-and-int.mvt")
        try bytes.withUnsafeBytes { raw in
            let findings = MVTValidator.validate(VectorTile(bytes: raw))
            XCTAssertEqual(findings.filter { $0.error.rule == "A10" }.count, 1, "\(findings)")
            XCTAssertEqual(try VectorTile(bytes: raw).layers().first?.values, [.int(7)])
        }
        // Single-typed values are not reported.
        var one = TileBuilder.LayerSpec()
        one.keys = ["k"]
        one.values = [TileBuilder.stringValue("x")]
        TileBuilder.tile([one]).withUnsafeBytes { raw in
            XCTAssertFalse(MVTValidator.validate(VectorTile(bytes: raw)).contains { $0.error.rule == "A10" })
        }
    }
}
