import XCTest
import Foundation
import GeoModel
import GeoJSON
import SourceDiffJSON

/// A snapshot file read for a diff: a record that cannot be read stops the read (it must
/// never look deleted) unless the read is lenient, which skips and lists it.
final class SnapshotFileTests: XCTestCase {
    func file(_ text: String, _ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "snapshot-file-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        return dir + "/" + name
    }

    func testABrokenLineStopsTheReadUnlessLenient() throws {
        let path = try file(#"{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"# + "\n"
                            + #"{"type":"Feature","id":2,"geometry":{"type":"Point","coordi"# + "\n", "s.ndjson")
        XCTAssertThrowsError(try SnapshotFile.read(path, lenient: false) { _ in }) { e in
            guard case .brokenElement? = e as? SnapshotFile.Failure else { return XCTFail("\(e)") }
        }
        var n = 0
        let report = try SnapshotFile.read(path, lenient: true) { _ in n += 1 }
        XCTAssertEqual(n, 1)
        XCTAssertEqual(report.broken, 1)
        XCTAssertEqual(report.listed.count, 1)
    }

    /// RFC7946-3.2: a feature without geometry is invalid unless lenient, which counts it.
    func testAFeatureWithoutGeometry() throws {
        let path = try file(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"properties":{}}]}"#, "c.geojson")
        XCTAssertThrowsError(try SnapshotFile.read(path, lenient: false) { _ in }) { e in
            guard case .invalid? = e as? SnapshotFile.Failure else { return XCTFail("\(e)") }
        }
        var features: [GeoFeature] = []
        let report = try SnapshotFile.read(path, lenient: true) { features.append($0) }
        XCTAssertEqual(features.count, 1)
        XCTAssertNil(features[0].geometry)
        XCTAssertEqual(report.toleratedViolations, 1)
        XCTAssertThrowsError(try SnapshotFile.read(path + ".absent", lenient: true) { _ in }) { e in
            guard case .unreadable? = e as? SnapshotFile.Failure else { return XCTFail("\(e)") }
        }
    }
}
