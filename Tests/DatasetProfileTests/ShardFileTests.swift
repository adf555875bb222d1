import XCTest
import DatasetProfile
import Foundation

/// Shard files are input: each lie a hostile or damaged file can tell is refused with the
/// file and the field, before anything is merged (issue cases: a count of 2^62 that
/// trapped, 10^7 that printed an 80 MB "missing" line, negative counts, zoom "99",
/// duplicate and unknown keys, values of the wrong type called "not valid JSON").
final class ShardFileTests: XCTestCase {
    func shardJSON() throws -> String {
        let path = temporaryPath("d.geojson")
        let text = #"{"type":"FeatureCollection","features":["#
            + (0..<5).map { #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#($0),1]},"properties":{"a":1}}"# }.joined(separator: ",")
            + #",{"type":"Feature","geometry":null,"properties":{}}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var p = DatasetProfile(zoom: 4, keep: 5)
        try p.profile(path: path)
        let s = p.shard(index: 0, count: 2, dataset: try DatasetProfile.shardDataset(path: path))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(s), as: UTF8.self)
    }

    func refused(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try DatasetProfile.Shard.read(Array(text.utf8), file: "s.json"), file: file, line: line) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("s.json: "), message, file: file, line: line)
            XCTAssertTrue(message.contains(expected), "\(message) should say \(expected)", file: file, line: line)
            XCTAssertLessThan(message.utf8.count, 400, file: file, line: line)
        }
    }

    func replacing(_ text: String, _ pattern: String, _ with: String) -> String {
        let r = text.range(of: pattern, options: .regularExpression)
        XCTAssertNotNil(r, pattern)
        return text.replacingCharacters(in: r!, with: with)
    }

    func testAGoodShardIsRead() throws {
        let good = try shardJSON()
        let s = try DatasetProfile.Shard.read(Array(good.utf8), file: "s.json")
        XCTAssertEqual(s.features, 6)
        XCTAssertEqual(s.byType["null"], 1)
    }

    func testLiesAreRefusedWithTheirField() throws {
        let good = try shardJSON()
        refused(replacing(good, #""count":2"#, #""count":4611686018427387904"#), "field 'count'")
        refused(replacing(good, #""count":2"#, #""count":1000000000"#), "field 'count'")
        refused(replacing(good, #""index":0"#, #""index":-1"#), "field 'index'")
        refused(replacing(good, #""features":6"#, #""features":-6"#), "field 'features'")
        refused(replacing(good, #""Point":5"#, #""Point":-5"#), "field 'byType.Point'")
        refused(replacing(good, #""Point":5"#, #""Point":4"#), "field 'byType' sums to 5, but features is 6")
        refused(replacing(good, #""seconds":[0-9.e-]+"#, #""seconds":-1"#), "field 'seconds'")
        refused(replacing(good, #""zoom":4"#, #""zoom":99"#), "field 'zoom'")
        refused(replacing(good, #""rawBytes":\{\}"#, #""rawBytes":{"99":5}"#), #"zoom "99""#)
        refused(replacing(good, #""rawBytes":\{\}"#, #""rawBytes":{"-1":5}"#), #"zoom "-1""#)
        refused(replacing(good, #""tileSizes":\{\}"#, #""tileSizes":{"3":[[10,1]]}"#), "field 'tileSizes' counts 1 tiles, but tiles is 0")
        refused(replacing(good, #""warnings":0"#, #""warnings":0,"features":6"#), "field 'features' is given twice")
        refused(replacing(good, #""warnings":0"#, #""warnings":0,"extra":1"#), "unknown field 'extra'")
        refused(replacing(good, #""bytes":"#, #""size":1,"bytes":"#), "unknown field 'dataset.size'")
        refused(replacing(good, #""features":6"#, #""features":"six""#), "field 'features' must be an integer")
        refused(replacing(good, #""features":6"#, #""features":6.5"#), "field 'features'")
        refused(replacing(good, #""features":6"#, #""features":"#), "not valid JSON")
    }

    /// A set whose count is large is refused with a short message, not a list of every
    /// missing index (10^7 once printed 80 MB).
    func testAnIncompleteSetNamesTenMissingShardsAtMost() throws {
        let good = try shardJSON()
        var big = replacing(good, #""count":2"#, #""count":1000000"#)
        big = replacing(big, #""bytes":[0-9]+"#, #""bytes":10000000"#)
        let s = try JSONDecoder().decode(DatasetProfile.Shard.self, from: Data(big.utf8))
        XCTAssertThrowsError(try DatasetProfile(merging: [s])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("missing: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 999989 more"), message)
            XCTAssertLessThan(message.utf8.count, 300)
        }
    }
}
