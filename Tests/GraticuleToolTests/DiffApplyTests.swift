import XCTest
import Foundation
import CorpusGenerators
import GeoJSON
import GeoModel
import GraticuleTestSupport
import SourceDiff
@testable import GraticuleTool

/// `graticule diff apply`: its output written whole or not at all (the snapshot it writes is
/// SourceDiff's `FeatureStore.snapshot(after:appliedTo:)`, tested there).
final class DiffApplyTests: XCTestCase {
    func features(_ bytes: [UInt8]) throws -> [GeoFeature] {
        guard case .featureCollection(let fs) = try GeoJSONReader.read(bytes).object else { return [] }
        return fs
    }

    func point(_ id: Int64, _ lon: Double) -> GeoFeature {
        GeoFeature(id: .int(id), geometry: Geometry(kind: .point, coordinates: [lon, 0]), properties: [:])
    }

    /// The output appears whole or not at all: written beside, then renamed.
    func testWriteIsAtomic() throws {
        let dir = try TestPaths.newFolder("apply")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/new.geojson"
        try "old content".write(toFile: path, atomically: false, encoding: .utf8)
        let n = try DiffCommand.Apply.writeAtomically(path, [point(1, 1), point(2, 2)])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text.utf8.count, n)
        XCTAssertEqual(try features(Array(text.utf8)).map(\.id), [.int(1), .int(2)])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["new.geojson"], "no partial file left")
        XCTAssertThrowsError(try DiffCommand.Apply.writeAtomically(dir + "/missing/dir/x.geojson", [point(1, 1)]))
    }
}
