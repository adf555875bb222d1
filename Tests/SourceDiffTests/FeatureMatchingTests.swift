import XCTest
import GeoModel
@testable import SourceDiff

/// Features without ids: an explicit pairing policy, never a silent skip.
final class FeatureMatchingTests: XCTestCase {
    func point(_ lon: Double, _ lat: Double, _ props: PropertyList = [:], id: FeatureID? = nil) -> GeoFeature {
        GeoFeature(id: id, geometry: Geometry(kind: .point, coordinates: [lon, lat]), properties: props)
    }

    func diff(_ old: [GeoFeature], _ new: [GeoFeature], _ policy: FeatureMatching) -> (GeoJSONSourceDiff, Int) {
        var sd = SnapshotDiff(indexZooms: 0...10)
        var a = FeatureMatcher(policy: policy), b = FeatureMatcher(policy: policy)
        for f in old { sd.addOld(a.keyed(f)) }
        for f in new { sd.addNew(b.keyed(f)) }
        return (sd.finish(), a.missingIDs + b.missingIDs)
    }

    /// Under `id`, features without an id are counted for the caller to refuse, not paired.
    func testIdPolicyCountsFeaturesWithoutIDs() {
        let (_, missing) = diff([point(1, 1), point(2, 2, id: .int(7))], [point(1, 1.5), point(2, 2, id: .int(7))], .id)
        XCTAssertEqual(missing, 2)
    }

    /// Under `index`, the n-th feature of each snapshot pair up: a moved point is an update.
    func testIndexPolicyPairsByPosition() {
        let (d, missing) = diff([point(1, 1), point(2, 2)], [point(1, 1), point(2, 2.5)], .index)
        XCTAssertEqual(missing, 4)
        XCTAssertEqual(d.update.map(\.id), [.string("index:1")])
        XCTAssertTrue(d.add.isEmpty && d.remove.isEmpty)
        // One feature fewer: the last position is removed.
        let (shorter, _) = diff([point(1, 1), point(2, 2)], [point(1, 1)], .index)
        XCTAssertEqual(shorter.remove, [.string("index:1")])
    }

    /// Under `geometry+properties`, order does not matter, identical copies pair in order,
    /// and a changed feature is a removal and an addition.
    func testContentPolicyPairsByContent() {
        let a = point(1, 1, ["name": .string("a"), "n": .int(1)])
        let aReordered = point(1, 1, ["n": .int(1), "name": .string("a")])
        let b = point(2, 2, ["name": .string("b")])
        let (same, _) = diff([a, b], [b, aReordered], .content)
        XCTAssertTrue(same.add.isEmpty && same.remove.isEmpty && same.update.isEmpty, "reordered members and features: no change")
        let (copies, _) = diff([a, a, b], [a, b], .content)
        XCTAssertEqual(copies.remove.count, 1, "two copies before, one after: one removal")
        XCTAssertTrue(copies.add.isEmpty)
        let moved = point(1, 1.5, ["name": .string("a"), "n": .int(1)])
        let (changed, _) = diff([a, b], [moved, b], .content)
        XCTAssertEqual(changed.remove.count, 1)
        XCTAssertEqual(changed.add.count, 1)
        XCTAssertTrue(changed.update.isEmpty)
    }

    /// Features that have ids keep them under every policy.
    func testFeaturesWithIDsAreUntouched() {
        for policy in FeatureMatching.allCases {
            var m = FeatureMatcher(policy: policy)
            let f = point(1, 1, id: .string("keep"))
            XCTAssertEqual(m.keyed(f), f)
            XCTAssertEqual(m.missingIDs, 0)
        }
    }

    func testPolicyNamesAreTheCommandLineValues() {
        XCTAssertEqual(FeatureMatching(rawValue: "geometry+properties"), .content)
        XCTAssertEqual(FeatureMatching(rawValue: "index"), .index)
        XCTAssertEqual(FeatureMatching(rawValue: "id"), .id)
    }
}

extension FeatureMatchingTests {
    /// Applying a diff of id-less features to the old snapshot keyed the same way, then
    /// taking the synthetic keys off, gives the new snapshot; under `index` and `content`.
    func testKeyedApplyRoundTripsIdlessSnapshots() throws {
        let old = [point(1, 1, ["n": .int(1)]), point(2, 2, ["n": .int(2)], id: .string("a")), point(3, 3, ["n": .int(3)])]
        let new = [point(1, 1, ["n": .int(10)]), point(2, 2, ["n": .int(2)], id: .string("a")), point(4, 4, ["n": .int(4)]),
                   point(5, 5)]
        for policy in [FeatureMatching.index, .content] {
            var (d, _) = diff(old, new, policy)
            d.matching = policy
            var m = FeatureMatcher(policy: policy)
            let keyed = old.map { m.keyed($0) }
            var store = try FeatureStore(keyed, indexZooms: 0...6)
            try store.apply(d)
            let after = store.snapshot(after: d, appliedTo: keyed).map { m.unkeyed($0) }
            XCTAssertEqual(after.count, new.count, "\(policy)")
            for f in new {
                XCTAssertTrue(after.contains { FeatureStore.sameContent($0, f) && $0.id == f.id }, "\(policy): \(f) missing")
            }
            XCTAssertTrue(after.allSatisfy { $0.id == nil || $0.id == .string("a") }, "no synthetic key is left")
        }
    }

    func testSyntheticKeysAndUnkeying() {
        XCTAssertTrue(FeatureMatcher.isSyntheticKey("index:12"))
        XCTAssertTrue(FeatureMatcher.isSyntheticKey("content:9f3a:0"))
        for s in ["index:", "index:1a", "content:zz:0", "content:9f:", "idx:1", "a"] { XCTAssertFalse(FeatureMatcher.isSyntheticKey(s), s) }
        var m = FeatureMatcher(policy: .index, promoteId: "key")
        let keyed = m.keyed(point(0, 0, ["v": .int(1)]))
        XCTAssertEqual(keyed.id, .string("index:0"))
        let back = m.unkeyed(keyed)
        XCTAssertNil(back.id)
        XCTAssertEqual(back.properties, ["v": .int(1)], "the promoted property the key was written to is taken off")
        // Under the id policy nothing is taken off, whatever the id looks like.
        XCTAssertEqual(FeatureMatcher(policy: .id).unkeyed(point(0, 0, id: .string("index:3"))).id, .string("index:3"))
        // Each policy takes off only its own form: a real id of the other form stays.
        XCTAssertEqual(FeatureMatcher(policy: .content).unkeyed(point(0, 0, id: .string("index:0"))).id, .string("index:0"))
        XCTAssertEqual(FeatureMatcher(policy: .index).unkeyed(point(0, 0, id: .string("content:9f:0"))).id, .string("content:9f:0"))
    }

    /// A real key of the policy's synthetic form is counted, and pairing refuses it: a feature
    /// without an id keyed `index:0` and a feature whose id is "index:0" are never one.
    func testRealKeysOfTheSyntheticFormAreRefused() throws {
        var m = FeatureMatcher(policy: .index)
        _ = m.keyed(point(0, 0))
        _ = m.keyed(point(1, 1, id: .string("index:0")))
        _ = m.keyed(point(2, 2, id: .string("content:ab:0")))     // the other policy's form: fine
        XCTAssertEqual(m.syntheticLookingKeys, 1)
        XCTAssertEqual(m.firstSyntheticLooking?.position, 1)
        XCTAssertEqual(m.firstSyntheticLooking?.key, .string("index:0"))
        var promoted = FeatureMatcher(policy: .content, promoteId: "key")
        _ = promoted.keyed(point(0, 0, ["key": .string("content:1:0")]))
        XCTAssertEqual(promoted.syntheticLookingKeys, 1, "a promoted property is a key too")

        let old = [point(0, 0), point(1, 1, id: .string("index:0"))]
        let new = [point(0, 0), point(1, 1, id: .string("index:0")), point(3, 3)]
        let pairing = SnapshotPairing(matching: .index, indexZooms: 0...4)
        XCTAssertThrowsError(try pairing.diff(old: { _, body in old.forEach(body) }, new: { _, body in new.forEach(body) })) { e in
            XCTAssertEqual(e as? SnapshotPairingError,
                           .syntheticLookingKey(snapshot: "old", position: 1, key: .string("index:0"), count: 1))
            XCTAssertTrue("\(e)".contains("old feature 1 has the key"), "\(e)")
        }
        // Under the id policy such an id is an ordinary id.
        let byID = SnapshotPairing(matching: .id, indexZooms: 0...4)
        let ided = [point(1, 1, id: .string("index:0"))]
        XCTAssertNoThrow(try byID.diff(old: { _, body in ided.forEach(body) }, new: { _, body in ided.forEach(body) }))
    }
}
