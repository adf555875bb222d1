import XCTest
import GeoJSON
import GeoModel

/// Objects whose member names repeat the previous object's share one array of names; the
/// names read must still be exactly those of the text, whatever the sequence.
final class SharedNamesTests: XCTestCase {
    func testEveryObjectKeepsItsOwnNamesInOrder() throws {
        let schemas: [[String]] = [
            ["a", "b", "c"], ["a", "b", "c"],        // the same names: shared
            ["a", "b"],                              // a prefix
            ["a", "b", "c", "d"],                    // one more
            ["a", "x", "c"],                         // a difference in the middle
            ["c", "b", "a"],                         // reordered
            ["a", "a", "a"],                         // duplicates are kept
            ["a", "a", "a"],
            ["a"], [], ["a", "b", "c"],
        ]
        var features: [String] = []
        for (n, names) in schemas.enumerated() {
            // A nested object at every member of the first schema, to mix depths.
            let members = names.enumerated().map { i, k in
                i == 0 ? "\"\(k)\":{\"inner\":\(n),\"k\(n)\":true}" : "\"\(k)\":\(i)"
            }
            features.append(#"{"type":"Feature","geometry":null,"properties":{"# + members.joined(separator: ",") + "}}")
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let doc = try GeoJSONReader.read(Array(text.utf8))
        guard case .featureCollection(let fs) = doc.object else { return XCTFail("not a collection") }
        XCTAssertEqual(fs.count, schemas.count)
        for (f, names) in zip(fs, schemas) {
            let p = try XCTUnwrap(f.properties)
            XCTAssertEqual(p.keys, names)
            XCTAssertEqual(p.values.count, names.count)
            if let first = p.values.first, case .object(let inner) = first {
                XCTAssertEqual(inner.keys.count, 2)
                XCTAssertEqual(inner.keys.first, "inner")
            } else if !names.isEmpty {
                XCTFail("the first member should be an object: \(p)")
            }
        }
    }
}
