import GeoModel
import XCTest
@testable import SourceDiff

/// Strict apply names both changes when two of one diff cannot both apply: an update of a
/// feature the diff removes, and a second remove of an id (once "no feature with id").
final class ConflictingChangesTests: XCTestCase {
    func store() throws -> FeatureStore {
        let fs = (1...2).map { GeoFeature(id: .int(Int64($0)), geometry: Geometry(kind: .point, coordinates: [1, 2]), properties: [:]) }
        return try FeatureStore(fs, indexZooms: 0...4)
    }

    func testRemoveThenUpdateNamesBoth() throws {
        var s = try store()
        var d = GeoJSONSourceDiff()
        d.remove = [.integer(2)]
        var u = FeatureUpdate(id: .integer(2))
        u.removeAllProperties = true
        d.update = [u]
        XCTAssertThrowsError(try s.apply(d)) {
            XCTAssertEqual($0 as? SourceDiffError, .conflict(.integer(2), "update[0] changes the feature that remove[0] of the same diff removes (a diff removes, then adds, then updates)"))
        }
        XCTAssertEqual(s.count, 2, "nothing applied")
    }

    func testARepeatedRemoveNamesTheFirst() throws {
        var s = try store()
        var d = GeoJSONSourceDiff()
        d.remove = [.integer(1), .integer(1)]
        XCTAssertThrowsError(try s.apply(d)) {
            XCTAssertEqual($0 as? SourceDiffError, .conflict(.integer(1), "remove[1] repeats remove[0]"))
        }
        d.remove = [.integer(7)]
        XCTAssertThrowsError(try s.apply(d)) { XCTAssertEqual($0 as? SourceDiffError, .unknownID(.integer(7))) }
    }
}
