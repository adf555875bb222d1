import XCTest
import GeoModel
import GeoJSON

final class GeoJSONWriterTests: XCTestCase {
    /// RFC 8259 §7: quote, backslash and control characters must be escaped.
    func testStringEscapes() {
        XCTAssertEqual(GeoJSONWriter.string("plain"), "\"plain\"")
        XCTAssertEqual(GeoJSONWriter.string("a\"b\\c"), "\"a\\\"b\\\\c\"")
        XCTAssertEqual(GeoJSONWriter.string("\n\t\u{01}\u{1F}"), "\"\\n\\t\\u0001\\u001f\"")
        XCTAssertEqual(GeoJSONWriter.string("é😀/"), "\"é😀/\"")
    }

    func testNumbers() {
        XCTAssertEqual(GeoJSONWriter.number(10), "10")
        XCTAssertEqual(GeoJSONWriter.number(-0.5), "-0.5")
        XCTAssertEqual(GeoJSONWriter.number(0.1), "0.1")
        XCTAssertEqual(GeoJSONWriter.number(.nan), "null")
        XCTAssertEqual(Double(GeoJSONWriter.number(85.0511287798066)), 85.0511287798066, "round trip")
    }

    /// RFC 7946 §3.1.2–3.1.7 and §3.2, hand-written expected text.
    func testGeometriesAndFeature() {
        let poly = Geometry(kind: .polygon, coordinates: [0, 0, 1, 0, 1, 1, 0, 0], partStarts: [0], polygonStarts: [0])
        XCTAssertEqual(GeoJSONWriter.geometry(poly),
                       "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}")
        let lines = Geometry(kind: .multiLineString, coordinates: [0, 0, 1, 1, 5, 5, 6, 6.5], partStarts: [0, 2])
        XCTAssertEqual(GeoJSONWriter.geometry(lines),
                       "{\"type\":\"MultiLineString\",\"coordinates\":[[[0,0],[1,1]],[[5,5],[6,6.5]]]}")
        XCTAssertEqual(GeoJSONWriter.geometry(Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4])),
                       "{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[3,4]]}")
        XCTAssertEqual(GeoJSONWriter.feature(id: .uint(7), geometry: Geometry(kind: .point, coordinates: [1.5, 2]),
                                             properties: [("name", .string("x")), ("n", .int(-3)), ("ok", .bool(true)), ("z", .null)]),
                       "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1.5,2]},\"properties\":{\"name\":\"x\",\"n\":-3,\"ok\":true,\"z\":null}}")
        XCTAssertEqual(GeoJSONWriter.feature(geometry: nil, properties: []),
                       "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}")
    }
}
