import JSON
import XCTest
@testable import GeoJSON
import GeoModel

/// RFC 7946 reading; each test names the section it checks.
final class GeoJSONReaderTests: XCTestCase {
    func read(_ s: String, _ options: GeoJSONReadOptions = GeoJSONReadOptions()) throws -> GeoJSONDocument {
        try GeoJSONReader.read(Array(s.utf8), options: options)
    }

    func error(_ s: String, _ options: GeoJSONReadOptions = GeoJSONReadOptions(), file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
        do {
            _ = try read(s, options)
            XCTFail("accepted: \(s)", file: file, line: line)
            return nil
        } catch let e as GeoJSONError {
            return e
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func geometry(_ s: String) throws -> Geometry {
        guard case .geometry(let g) = try read(s).object else { throw XCTSkip("not a geometry") }
        return g
    }

    // §3.1.2–§3.1.8: all seven geometry types, coordinates stored flat.
    func testGeometryTypes() throws {
        let p = try geometry(#"{"type":"Point","coordinates":[1.5,-2]}"#)
        XCTAssertEqual(p, Geometry(kind: .point, coordinates: [1.5, -2]))
        let mp = try geometry(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#)
        XCTAssertEqual(mp, Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4]))
        let ls = try geometry(#"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#)
        XCTAssertEqual(ls, Geometry(kind: .lineString, coordinates: [1, 2, 3, 4], partStarts: [0]))
        let mls = try geometry(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8],[9,10]]]}"#)
        XCTAssertEqual(mls.partStarts, [0, 2])
        XCTAssertEqual(mls.positionCount, 5)
        let poly = try geometry(#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,0]],[[1,1],[2,2],[2,1],[1,1]]]}"#)
        XCTAssertEqual(poly.partStarts, [0, 4])
        XCTAssertEqual(poly.polygonStarts, [0])
        let mpoly = try geometry(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]],[[5.1,5.1],[5.2,5.2],[5.2,5.1],[5.1,5.1]]]]}"#)
        XCTAssertEqual(mpoly.partStarts, [0, 4, 8])
        XCTAssertEqual(mpoly.polygonStarts, [0, 1])
        let gc = try geometry(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[]}]}"#)
        XCTAssertEqual(gc.kind, .geometryCollection)
        XCTAssertEqual(gc.geometries.count, 2)
        XCTAssertEqual(gc.geometries[1].geometries, [])
    }

    // §3.2, §3.3: features, ids kept as string or number, null geometry and properties.
    func testFeaturesAndIds() throws {
        let doc = try read(#"""
        {"features":[
          {"type":"Feature","id":"1","geometry":null,"properties":null},
          {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[0,0]},"properties":{"a":[1,{"b":null}],"c":true}},
          {"type":"Feature","id":18446744073709551615,"geometry":null,"properties":{}},
          {"properties":{"coordinates":[[9,9]],"type":"Point"},"geometry":null,"type":"Feature","id":-7.5}
        ],"type":"FeatureCollection"}
        """#)
        guard case .featureCollection(let fs) = doc.object else { return XCTFail() }
        XCTAssertEqual(fs.count, 4)
        XCTAssertEqual(fs[0].id, .string("1"))
        XCTAssertNil(fs[0].geometry)
        XCTAssertNil(fs[0].properties)
        XCTAssertEqual(fs[1].id, .int(1))
        XCTAssertNotEqual(fs[0].id, fs[1].id)
        XCTAssertEqual(fs[1].properties?["a"], .array([.int(1), .object(["b": .null])]))
        XCTAssertEqual(fs[1].properties?["c"], .bool(true))
        XCTAssertEqual(fs[2].id, .uint(UInt64.max))
        XCTAssertEqual(fs[2].properties, PropertyList())
        // §6.1/§7.1: a "coordinates" key inside properties is data, not geometry.
        XCTAssertNil(fs[3].geometry)
        XCTAssertEqual(fs[3].properties?["type"], .string("Point"))
        XCTAssertEqual(fs[3].id, .double(-7.5))
    }

    // §2, §5, §4, §6.1: member order is free; bbox before features; crs surfaced; foreign
    // members ignored.
    func testMemberOrderBboxCrsForeign() throws {
        let doc = try read(#"""
        {"bbox":[-10,-5,10,5],"crs":{"type":"name","properties":{"name":"EPSG:4326"}},"foo":{"coordinates":[1,2],"type":"Point"},
         "features":[{"geometry":{"coordinates":[[1,2],[3,4]],"type":"LineString"},"properties":{},"type":"Feature"}],
         "type":"FeatureCollection"}
        """#)
        XCTAssertEqual(doc.bbox, [-10, -5, 10, 5])
        XCTAssertEqual(doc.crs, .object(["type": .string("name"), "properties": .object(["name": .string("EPSG:4326")])]))
        guard case .featureCollection(let fs) = doc.object else { return XCTFail() }
        XCTAssertEqual(fs[0].geometry?.kind, .lineString)
        XCTAssertEqual(doc.object.boundingBox, BoundingBox(minX: 1, minY: 2, maxX: 3, maxY: 4))
    }

    // §3.1.1: altitude kept; a position without one in a 3D geometry stores NaN and
    // compares equal to itself; more than three values are dropped with a warning.
    func testPositionsAndAltitude() throws {
        let g = try geometry(#"{"type":"LineString","coordinates":[[1,2],[3,4,5],[6,7,8,9]]}"#)
        XCTAssertEqual(g.dimensions, 3)
        XCTAssertEqual(g.positionCount, 3)
        XCTAssertTrue(g.coordinates[2].isNaN)
        XCTAssertEqual(Array(g.coordinates[3...]), [3, 4, 5, 6, 7, 8])
        XCTAssertEqual(g, g)
        let findings = GeoJSONValidator.validate(Array(#"{"type":"Point","coordinates":[1,2,3,4]}"#.utf8)).findings
        XCTAssertEqual(findings.map(\.rule), ["RFC 7946 §3.1.1"])
    }

    // §3.1: empty coordinates are empty geometries.
    func testEmptyGeometries() throws {
        XCTAssertTrue(try geometry(#"{"type":"LineString","coordinates":[]}"#).isEmpty)
        XCTAssertTrue(try geometry(#"{"type":"MultiPolygon","coordinates":[]}"#).isEmpty)
        XCTAssertTrue(try geometry(#"{"type":"Point","coordinates":[]}"#).isEmpty)
    }

    // §3.1.4–§3.1.7: parts that are present but empty fail the type's own rule, at the
    // empty part, whichever member comes first; coordinates before the type give the
    // same part starts as after it.
    func testEmptyPartsAndMemberOrder() throws {
        let cases: [(String, String, String)] = [
            (#"{"type":"Polygon","coordinates":[[]]}"#, "RFC 7946 §3.1.6", "coordinates[0]"),
            (#"{"coordinates":[[]],"type":"Polygon"}"#, "RFC 7946 §3.1.6", "coordinates[0]"),
            (#"{"type":"MultiLineString","coordinates":[[]]}"#, "RFC 7946 §3.1.5", "coordinates[0]"),
            (#"{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[]]}"#, "RFC 7946 §3.1.5", "coordinates[1]"),
            (#"{"type":"MultiPolygon","coordinates":[[]]}"#, "RFC 7946 §3.1.7", "coordinates[0]"),
            (#"{"type":"MultiPolygon","coordinates":[[[]]]}"#, "RFC 7946 §3.1.7", "coordinates[0][0]"),
            (#"{"coordinates":[[[]]],"type":"MultiPolygon"}"#, "RFC 7946 §3.1.7", "coordinates[0][0]"),
        ]
        for (text, rule, path) in cases {
            let e = error(text)
            if case .invalidGeoJSON(let r, _)? = e?.kind { XCTAssertEqual(r, rule, text) } else { XCTFail(text) }
            XCTAssertEqual(e?.pathString, path, text)
        }
        let mls = try geometry(#"{"coordinates":[[[1,2],[3,4]],[[5,6],[7,8],[9,10]]],"type":"MultiLineString"}"#)
        XCTAssertEqual(mls.partStarts, [0, 2])
        let mpoly = try geometry(#"{"coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]],[[5.1,5.1],[5.2,5.2],[5.2,5.1],[5.1,5.1]]]],"type":"MultiPolygon"}"#)
        XCTAssertEqual(mpoly.partStarts, [0, 4, 8])
        XCTAssertEqual(mpoly.polygonStarts, [0, 1])
        let ls = try geometry(#"{"coordinates":[[1,2],[3,4],[5,6]],"type":"LineString"}"#)
        XCTAssertEqual(ls, Geometry(kind: .lineString, coordinates: [1, 2, 3, 4, 5, 6], partStarts: [0]))
        let mp = try geometry(#"{"coordinates":[[1,2],[3,4]],"type":"MultiPoint"}"#)
        XCTAssertEqual(mp, Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4]))
    }

    // Errors carry the rule, byte offset, line, column and member path.
    func testInvalidGeoJSONIsLocated() throws {
        // §3.1.6: a ring with fewer than four positions.
        var e = error("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,0]]]}}]}")
        XCTAssertEqual(e?.pathString, "features[0].geometry.coordinates[0]")
        guard case .invalidGeoJSON(let rule, _) = e?.kind else { return XCTFail() }
        XCTAssertEqual(rule, "RFC 7946 §3.1.6")
        XCTAssertEqual(e?.location.line, 2)
        // §3.1.6: not closed.
        e = error(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#)
        XCTAssertEqual(e?.pathString, "coordinates[0]")
        // §3.1.4: a LineString needs two positions.
        e = error(#"{"type":"LineString","coordinates":[[0,0]]}"#)
        if case .invalidGeoJSON(let r, _)? = e?.kind { XCTAssertEqual(r, "RFC 7946 §3.1.4") } else { XCTFail() }
        // §1.4: types are case-sensitive; type is required.
        e = error(#"{"type":"point","coordinates":[0,0]}"#)
        XCTAssertEqual(e?.pathString, "type")
        e = error(#"{"coordinates":[0,0]}"#)
        if case .invalidGeoJSON(let r, _)? = e?.kind { XCTAssertEqual(r, "RFC 7946 §1.4") } else { XCTFail() }
        // §3.1.1: position members are numbers, at least two.
        e = error(#"{"type":"Point","coordinates":[0,"1"]}"#)
        XCTAssertEqual(e?.pathString, "coordinates[1]")
        e = error(#"{"type":"Point","coordinates":[0]}"#)
        XCTAssertNotNil(e)
        // Wrong nesting for the type.
        e = error(#"{"type":"Polygon","coordinates":[[0,0],[1,1],[1,0],[0,0]]}"#)
        if case .invalidGeoJSON(let r, _)? = e?.kind { XCTAssertEqual(r, "RFC 7946 §3.1.6") } else { XCTFail() }
        // §3.3: features hold Features.
        e = error(#"{"type":"FeatureCollection","features":[{"type":"Point","coordinates":[0,0]}]}"#)
        XCTAssertEqual(e?.pathString, "features[0]")
        // §3.2: geometry must be an object or null.
        e = error(#"{"type":"Feature","geometry":5,"properties":{}}"#)
        XCTAssertEqual(e?.pathString, "geometry")
        // Duplicate GeoJSON member.
        e = error(#"{"type":"Point","type":"Point","coordinates":[0,0]}"#)
        XCTAssertEqual(e?.kind, .duplicateMember("type"))
        // §2: a GeoJSON text is an object.
        e = error("[1,2]")
        XCTAssertEqual(e?.location.offset, 0)
    }

    // §3.2 lenient vs strict: missing members.
    func testMissingFeatureMembers() throws {
        let text = #"{"type":"Feature","geometry":null}"#
        guard case .feature(let f) = try read(text).object else { return XCTFail() }
        XCTAssertNil(f.properties)
        var strict = GeoJSONReadOptions()
        strict.strict = true
        XCTAssertNotNil(error(text, strict))
    }

    // JSON layer errors: line/column/offset and path.
    func testSyntaxErrorLocations() throws {
        let e = error("{\"type\":\"Feature\",\n \"properties\":{\"a\":[1,2,}],\"geometry\":null}")
        XCTAssertEqual(e?.location.line, 2)
        XCTAssertEqual(e?.location.column, 25)
        XCTAssertEqual(e?.pathString, "properties.a[2]")
        guard case .unexpectedByte(UInt8(ascii: "}"), _)? = e?.kind else { return XCTFail("\(String(describing: e))") }
    }

    // RFC 8259 §9: nesting limit instead of a stack overflow.
    func testDepthLimit() throws {
        let deep = "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"a\":" + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + "}}"
        XCTAssertEqual(error(deep)?.kind, .depthLimitExceeded(512))
        XCTAssertThrowsError(try JSONValueReader.read(Array(String(repeating: "[", count: 100_000).utf8)))
    }

    // RFC 8259 §8.1: BOM skipped; invalid UTF-8 rejected.
    func testBOMAndUTF8() throws {
        XCTAssertNoThrow(try GeoJSONReader.read([0xEF, 0xBB, 0xBF] + Array(#"{"type":"Point","coordinates":[0,0]}"#.utf8)))
        let bad: [UInt8] = Array(#"{"type":"Feature","geometry":null,"properties":{"a":""#.utf8) + [0xC0, 0xAF] + Array("\"}}".utf8)
        XCTAssertThrowsError(try GeoJSONReader.read(bad)) { e in
            XCTAssertEqual((e as? GeoJSONError)?.kind, .invalidUTF8)
            XCTAssertEqual((e as? GeoJSONError)?.location.offset, 53)
        }
    }

    // Escapes and surrogate pairs decode; lone surrogates are rejected (documented policy).
    func testStrings() throws {
        let v = try JSONValueReader.read(Array(#"["a\"b\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "é"]"#.utf8))
        XCTAssertEqual(v, .array([.string("a\"b\\/\u{8}\u{c}\n\r\té😀"), .string("é")]))
        XCTAssertThrowsError(try JSONValueReader.read(Array(#"["\ud800"]"#.utf8)))
        XCTAssertThrowsError(try JSONValueReader.read(Array("[\"\u{01}\"]".utf8)))
    }

    /// A sample covering every construct, used by the truncation and chunking tests.
    static let sample = """
    {"type":"FeatureCollection","bbox":[-180,-90,180,90],"features":[
      {"type":"Feature","id":"a\\u00e9","properties":{"name":"Zürich 😀","n":-0.0,"big":12345678901234567890,"arr":[true,false,null,{"x":1e-7}]},
       "geometry":{"type":"Polygon","coordinates":[[[8.5,47.3],[8.6,47.3],[8.6,47.4],[8.5,47.3]]]}},
      {"type":"Feature","id":42,"properties":null,"geometry":{"type":"GeometryCollection","geometries":[
        {"type":"Point","coordinates":[1.7976931348623157e308,-2.2250738585072014e-308,3]},
        {"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}]}}
    ]}
    """

    // Truncation at every byte offset is an error, never a partial success.
    func testTruncationAtEveryOffset() throws {
        let bytes = Array(Self.sample.utf8)
        XCTAssertNoThrow(try GeoJSONReader.read(bytes))
        var lastNonSpace = bytes.count - 1
        while bytes[lastNonSpace] == 0x20 || bytes[lastNonSpace] == 0x0A { lastNonSpace -= 1 }
        for n in 0...lastNonSpace {
            XCTAssertThrowsError(try GeoJSONReader.read(Array(bytes[..<n])), "prefix of \(n) bytes accepted")
            XCTAssertThrowsError(try GeoJSONReader.read(from: ChunkedByteSource(Array(bytes[..<n]), chunkSize: 7)),
                                 "prefix of \(n) bytes accepted (chunked)")
        }
    }

    // Chunk boundaries anywhere give identical results.
    func testChunkSizesGiveIdenticalResults() throws {
        let bytes = Array(Self.sample.utf8)
        let whole = try GeoJSONReader.read(bytes)
        for size in [1, 2, 3, 4, 5, 7, 13, 64, 100, 4096, 65_536] {
            XCTAssertEqual(try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: size), chunkSize: size), whole, "chunk \(size)")
        }
        // Errors are located identically too.
        var broken = bytes
        broken[broken.count / 2] = UInt8(ascii: "#")
        var expected: GeoJSONError?
        do { _ = try GeoJSONReader.read(broken) } catch { expected = error }
        for size in [1, 3, 64] {
            XCTAssertThrowsError(try GeoJSONReader.read(from: ChunkedByteSource(broken, chunkSize: size), chunkSize: size)) {
                XCTAssertEqual($0 as? GeoJSONError, expected)
            }
        }
    }
}
