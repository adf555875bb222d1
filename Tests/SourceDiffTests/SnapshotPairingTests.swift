import XCTest
import GeoModel
import SourceDiff

/// Pairing two snapshots: repeated ids refused with their places or resolved to the first or
/// last copy, features without ids refused under `id` and paired under the other policies.
final class SnapshotPairingTests: XCTestCase {
    func point(_ lon: Double, _ lat: Double, id: Int64? = nil) -> GeoFeature {
        GeoFeature(id: id.map { .int($0) }, geometry: Geometry(kind: .point, coordinates: [lon, lat]), properties: [:])
    }

    /// A snapshot over an array that counts its reads of each kind.
    final class Reads {
        var diff = 0, extra = 0
        func snapshot(_ features: [GeoFeature]) -> SnapshotPairing.Snapshot {
            { read, body in
                if read == .diff { self.diff += 1 } else { self.extra += 1 }
                for f in features { body(f) }
            }
        }
    }

    func testRepeatedIDsAreRefusedWithTheirPlaces() {
        let reads = Reads()
        let old = [point(0, 0, id: 1), point(1, 1, id: 2), point(2, 2, id: 1)]
        let new = [point(0, 0, id: 1)]
        let pairing = SnapshotPairing(indexZooms: 0...4)
        XCTAssertThrowsError(try pairing.diff(old: reads.snapshot(old), new: reads.snapshot(new))) { error in
            XCTAssertEqual(error as? SnapshotPairingError,
                           .repeatedIDs(count: 1, places: [.init(key: .integer(1), snapshot: "old", positions: [0, 2])]))
            XCTAssertEqual("\(error)", "1 repeated ids within a snapshot (id 1 at old features 0, 2)")
        }
        // The places are found by one more read of each snapshot.
        XCTAssertEqual(reads.diff, 2)
        XCTAssertEqual(reads.extra, 2)
    }

    /// `first` keeps the first copy, `last` the last one (as MapLibre's sources do).
    func testFirstAndLastCopyStand() throws {
        let old = [point(0, 0, id: 1)]
        let new = [point(5, 5, id: 1), point(0, 0, id: 1)]
        var first = try SnapshotPairing(duplicates: .first, indexZooms: 0...4).diff(old: Reads().snapshot(old), new: Reads().snapshot(new))
        XCTAssertEqual(first.diff.finish().update.map(\.id), [.integer(1)], "the first copy moved the point")
        var last = try SnapshotPairing(duplicates: .last, indexZooms: 0...4).diff(old: Reads().snapshot(old), new: Reads().snapshot(new))
        let d = last.diff.finish()
        XCTAssertTrue(d.update.isEmpty && d.add.isEmpty && d.remove.isEmpty, "the last copy equals the old feature")
    }

    func testFeaturesWithoutIDsAreRefusedUnderIDAndPairedByIndex() throws {
        let old = [point(0, 0), point(1, 1, id: 9)]
        let new = [point(0, 0.5), point(1, 1, id: 9)]
        XCTAssertThrowsError(try SnapshotPairing(indexZooms: 0...4).diff(old: Reads().snapshot(old), new: Reads().snapshot(new))) {
            XCTAssertEqual($0 as? SnapshotPairingError, .missingIDs(old: 1, new: 1, promoteId: nil))
            XCTAssertEqual("\($0)", "2 features have no id (old: 1, new: 1)")
        }
        var paired = try SnapshotPairing(matching: .index, indexZooms: 0...4).diff(old: Reads().snapshot(old), new: Reads().snapshot(new))
        XCTAssertEqual(paired.matchedLine, "matched \(FeatureMatching.index.summary): 1 old and 1 new features without an id")
        XCTAssertEqual(paired.diff.finish().update.count, 1)
    }

    /// A snapshot that cannot be read stops the pairing with its own error.
    func testASnapshotsErrorPassesThrough() {
        struct Unreadable: Error {}
        let broken: SnapshotPairing.Snapshot = { _, _ in throw Unreadable() }
        XCTAssertThrowsError(try SnapshotPairing(indexZooms: 0...4).diff(old: broken, new: Reads().snapshot([]))) {
            XCTAssertTrue($0 is Unreadable)
        }
    }
}
