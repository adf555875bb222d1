import XCTest
import Foundation
import CorpusGenerators
import GeoJSON
import GeoModel
import SourceDiff
@testable import GraticuleTool

/// `graticule diff apply`: what it writes, and that applying a diff gives the new snapshot.
final class DiffApplyTests: XCTestCase {
    func features(_ bytes: [UInt8]) throws -> [GeoFeature] {
        guard case .featureCollection(let fs) = try GeoJSONReader.read(bytes).object else { return [] }
        return fs
    }

    func point(_ id: Int64, _ lon: Double) -> GeoFeature {
        GeoFeature(id: .int(id), geometry: Geometry(kind: .point, coordinates: [lon, 0]), properties: [:])
    }

    /// apply(OLD, diff(OLD, NEW)) is NEW as a model, on generated snapshots with moves,
    /// removals and additions, for several seeds and sizes.
    func testApplyingTheDiffGivesTheNewSnapshot() throws {
        for (count, edits, seed) in [(2_000, 50, UInt64(1)), (500, 400, 3), (5_000, 1, 8)] {
            let old = try features(PointsGeoJSON.generate(count: count, seed: seed).bytes)
            let new = try features(PointsGeoJSON.generate(count: count, seed: seed, edits: edits).bytes)
            var sd = SnapshotDiff(indexZooms: 0...14)
            for f in old { sd.addOld(f) }
            for f in new { sd.addNew(f) }
            let diff = sd.finish()
            var store = try FeatureStore(old, indexZooms: 0...14)
            try store.apply(diff)
            let result = DiffCommand.Apply.result(old, store: store, change: diff, promoteId: nil)
            XCTAssertTrue(try FeatureStore(result).sameContent(as: try FeatureStore(new)), "count \(count), edits \(edits)")
            XCTAssertEqual(result.count, new.count)
        }
    }

    /// The snapshot's order is kept, removed features are left out, added ones follow in
    /// the diff's order.
    func testResultOrder() throws {
        let old = [point(1, 1), point(2, 2), point(3, 3)]
        var diff = GeoJSONSourceDiff()
        diff.remove = [.integer(2)]
        diff.add = [point(5, 5), point(4, 4)]
        diff.update = [FeatureUpdate(id: .integer(3), newGeometry: Geometry(kind: .point, coordinates: [30, 0]))]
        var store = try FeatureStore(old)
        try store.apply(diff)
        let result = DiffCommand.Apply.result(old, store: store, change: diff, promoteId: nil)
        XCTAssertEqual(result.map(\.id), [.int(1), .int(3), .int(5), .int(4)])
        XCTAssertEqual(result[1].geometry?.coordinates, [30, 0])
    }

    /// A strict failure names the operation and the id.
    func testFailingOperationIsNamed() {
        var diff = GeoJSONSourceDiff()
        diff.remove = [.integer(9)]
        diff.update = [FeatureUpdate(id: .string("x"), newGeometry: nil)]
        XCTAssertEqual(DiffCommand.Apply.operation(failing: .unknownID(.integer(9)), in: diff),
                       "remove of id 9: no feature with that id")
        XCTAssertEqual(DiffCommand.Apply.operation(failing: .unknownID(.string("x")), in: diff),
                       "update of id \"x\": no feature with that id")
        XCTAssertEqual(DiffCommand.Apply.operation(failing: .duplicateID(.integer(1)), in: diff),
                       "add of id 1: a feature with that id is already there")
    }

    /// The output appears whole or not at all: written beside, then renamed.
    func testWriteIsAtomic() throws {
        let dir = NSTemporaryDirectory() + "graticule-apply-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
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
