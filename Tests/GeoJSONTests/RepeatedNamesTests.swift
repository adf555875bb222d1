import JSON
import GeoModel
import GraticuleSupport
import GraticuleTestSupport
import XCTest
@testable import GeoJSON

/// Property objects that repeat the last object's names, which the reader matches against
/// the expected bytes of each name instead of reading it afresh: every name must still come
/// out as written, escaped or not, whole or in chunks of any size (RFC 8259 §4, §7).
final class RepeatedNamesTests: XCTestCase {
    /// A JSON string literal for `s`, escaped here (not by the writer under test), with
    /// every other character as `\u` escapes when `escapeAll`.
    static func literal(_ s: String, escapeAll: Bool = false) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20 || (escapeAll && u.value < 0x10000):
                out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    func testNamesReadAsWrittenWhateverTheLastObjectsWere() throws {
        var rng = SplitMix64(seed: 2026)
        let pool = ["name", "rank", "a\"b", "back\\slash", "tab\there", "é", "ABC", "nested", "long_name_of_twenty_bytes",
                    "x", "", "😀", "name2", "NAME"]
        for round in 0..<40 {
            // A schema that repeats, with now and then one name changed, removed or added.
            var schema = (0..<(1 + Int(rng.next() % 6))).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
            var features: [String] = []
            var expected: [PropertyList] = []
            for _ in 0..<30 {
                if rng.chance(15) { schema[Int(rng.next() % UInt64(schema.count))] = pool[Int(rng.next() % UInt64(pool.count))] }
                if rng.chance(5) { schema.append(pool[Int(rng.next() % UInt64(pool.count))]) }
                if rng.chance(5), schema.count > 1 { schema.removeLast() }
                var list = PropertyList()
                var members: [String] = []
                for (i, key) in schema.enumerated() {
                    let value: PropertyValue
                    let text: String
                    if key == "nested" {
                        // Objects eight levels down share the slot of remembered names
                        // with this one, and replace its names while it is being read.
                        var v = PropertyValue.int(Int64(i)), t = "\(i)"
                        for _ in 0..<8 {
                            v = .object(["x": v])
                            t = "{\"x\":" + t + "}"
                        }
                        value = v
                        text = t
                    } else {
                        value = .int(Int64(i))
                        text = "\(i)"
                    }
                    list.append(key: key, value: value)
                    members.append(Self.literal(key, escapeAll: rng.chance(10)) + ":" + text)
                }
                expected.append(list)
                features.append("{\"type\":\"Feature\",\"geometry\":null,\"properties\":{" + members.joined(separator: rng.chance(50) ? "," : " , ") + "}}")
            }
            let bytes = Array(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").utf8)
            let chunk = 1 + round % 9
            for doc in [try GeoJSONReader.read(bytes),
                        try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk)] {
                guard case .featureCollection(let fs) = doc.object else { return XCTFail("not a collection") }
                XCTAssertEqual(fs.map(\.properties), expected, "round \(round)")
            }
        }
    }

    func testANameThatStopsMatchingIsReadWhole() throws {
        // The third object's first name shares the expected name's bytes up to its end,
        // then goes on; the fourth's is the same name written with an escape.
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":null,"properties":{"ab":1,"cd":2}},
        {"type":"Feature","geometry":null,"properties":{"ab":1,"cd":2}},
        {"type":"Feature","geometry":null,"properties":{"abx":1,"cd":2}},
        {"type":"Feature","geometry":null,"properties":{"a\\u0062":1,"cd":2}},
        {"type":"Feature","geometry":null,"properties":{"ab":1,"cd":2}}]}
        """
        let doc = try GeoJSONReader.read(Array(text.utf8))
        guard case .featureCollection(let fs) = doc.object else { return XCTFail("not a collection") }
        XCTAssertEqual(fs.map { $0.properties?.keys ?? [] }, [["ab", "cd"], ["ab", "cd"], ["abx", "cd"], ["ab", "cd"], ["ab", "cd"]])
        // A bad byte after a name that matched is still reported where it is.
        let bad = text.replacingOccurrences(of: "{\"ab\":1,\"cd\":2}}]}", with: "{\"ab\":1,\"cd\" 2}}]}")
        XCTAssertThrowsError(try GeoJSONReader.read(Array(bad.utf8))) { error in
            guard let e = error as? GeoJSONError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.location.line, 6)
            XCTAssertEqual(e.pathString, "features[4].properties")
        }
    }
}
