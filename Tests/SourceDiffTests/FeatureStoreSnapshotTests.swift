import XCTest
import CorpusGenerators
import GeoJSON
import GeoModel
import SourceDiff

/// The snapshot a diff leaves: old order kept, updates in place, removals left out, adds
/// last in the diff's order; and a failing change named by its operation.
final class FeatureStoreSnapshotTests: XCTestCase {
    func point(_ id: Int64, _ lon: Double) -> GeoFeature {
        GeoFeature(id: .int(id), geometry: Geometry(kind: .point, coordinates: [lon, 0]), properties: [:])
    }

    func features(_ bytes: [UInt8]) throws -> [GeoFeature] {
        guard case .featureCollection(let fs) = try GeoJSONReader.read(bytes).object else { return [] }
        return fs
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
            let result = store.snapshot(after: diff, appliedTo: old)
            XCTAssertTrue(try FeatureStore(result).sameContent(as: try FeatureStore(new)), "count \(count), edits \(edits)")
            XCTAssertEqual(result.count, new.count)
        }
    }

    func testOrderAfterRemoveUpdateAndAdd() throws {
        let old = [point(1, 1), point(2, 2), point(3, 3)]
        var store = try FeatureStore(old, indexZooms: 0...4)
        let diff = GeoJSONSourceDiff(remove: [.integer(2)], add: [point(9, 9), point(4, 4)],
                                     update: [FeatureUpdate(id: .integer(3), newGeometry: Geometry(kind: .point, coordinates: [30, 0]))])
        _ = try store.apply(diff)
        let after = store.snapshot(after: diff, appliedTo: old)
        XCTAssertEqual(after.map(\.id), [.int(1), .int(3), .int(9), .int(4)])
        XCTAssertEqual(after[1].geometry?.coordinates, [30, 0], "updated in place")
    }

    /// A removed id added again in the same diff goes last, with the adds.
    func testRemovedThenAddedGoesWithTheAdds() throws {
        let old = [point(1, 1), point(2, 2)]
        var store = try FeatureStore(old, indexZooms: 0...4)
        let diff = GeoJSONSourceDiff(remove: [.integer(1)], add: [point(1, 5)])
        _ = try store.apply(diff)
        // As a keyed map deletes the key and sets it again: at the end, with the adds.
        XCTAssertEqual(store.snapshot(after: diff, appliedTo: old).map(\.id), [.int(2), .int(1)])
        XCTAssertEqual(store.snapshot(after: diff, appliedTo: old).last?.geometry?.coordinates, [5, 0])
    }

    /// A lenient add of a present id, without a remove, replaces the feature where it is
    /// (a keyed map's set of a present key); features without a key are kept at their
    /// places when asked, and dropped by a removeAll.
    func testReplacedInPlaceAndUnkeyedKept() throws {
        var unkeyed = point(7, 7)
        unkeyed.id = nil
        let old = [point(1, 1), unkeyed, point(2, 2)]
        var store = try FeatureStore(old.filter { $0.id != nil }, indexZooms: 0...4)
        let diff = GeoJSONSourceDiff(add: [point(1, 6), point(3, 3)])
        let report = try store.apply(diff, mode: .lenient)
        XCTAssertEqual(report.skipped.map(\.reason), [.duplicateAddReplaced])
        let after = store.snapshot(after: diff, appliedTo: old, keepingUnkeyed: true)
        XCTAssertEqual(after.map(\.id), [.int(1), nil, .int(2), .int(3)])
        XCTAssertEqual(after[0].geometry?.coordinates, [6, 0], "replaced in place")
        XCTAssertEqual(store.snapshot(after: diff, appliedTo: old).map(\.id), [.int(1), .int(2), .int(3)])
        var cleared = try FeatureStore(old.filter { $0.id != nil }, indexZooms: 0...4)
        let all = GeoJSONSourceDiff(removeAll: true, add: [point(5, 5)])
        _ = try cleared.apply(all)
        XCTAssertEqual(cleared.snapshot(after: all, appliedTo: old, keepingUnkeyed: true).map(\.id), [.int(5)])
    }

    func testFailingChangeNamesTheOperation() throws {
        let old = [point(1, 1)]
        let cases: [(GeoJSONSourceDiff, String)] = [
            (GeoJSONSourceDiff(remove: [.integer(7)]), "remove of id 7: no feature with that id"),
            (GeoJSONSourceDiff(update: [FeatureUpdate(id: .integer(8))]), "update of id 8: no feature with that id"),
            (GeoJSONSourceDiff(add: [point(1, 2)]), "add of id 1: a feature with that id is already there"),
        ]
        for (diff, words) in cases {
            var store = try FeatureStore(old, indexZooms: 0...4)
            XCTAssertThrowsError(try store.apply(diff)) { error in
                guard let e = error as? SourceDiffError else { return XCTFail("\(error)") }
                XCTAssertEqual(diff.failingChange(e), words)
            }
        }
    }
}
