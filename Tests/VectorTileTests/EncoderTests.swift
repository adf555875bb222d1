import XCTest
import GeoModel
@testable import VectorTile

final class EncoderTests: XCTestCase {
    func decode(_ bytes: [UInt8]) throws -> [(layer: String, id: UInt64?, geometry: Geometry?, props: [String: PropertyValue])] {
        var out: [(String, UInt64?, Geometry?, [String: PropertyValue])] = []
        try bytes.withUnsafeBytes { raw in
            let tile = VectorTile(bytes: raw)
            XCTAssertEqual(MVTValidator.validate(tile), [], "encoder output follows every rule")
            for l in try tile.layers() {
                try l.forEachFeature { (f: Feature) throws(MVTError) in
                    var props: [String: PropertyValue] = [:]
                    try f.forEachTag { k, v in props[String(decoding: l.keys[k], as: UTF8.self)] = l.values[v].propertyValue }
                    out.append((l.name, f.hasID ? f.id : nil, try f.geometry(), props))
                }
            }
        }
        return out.map { (layer: $0.0, id: $0.1, geometry: $0.2, props: $0.3) }
    }

    func testSpecExamplesEncodeToTheSpecCommands() throws {
        // §4.3.5: the multi-polygon example's command stream, from its geometry.
        let mp = Geometry(kind: .multiPolygon,
                          coordinates: [0, 0, 10, 0, 10, 10, 0, 10, 0, 0,
                                        11, 11, 20, 11, 20, 20, 11, 20, 11, 11,
                                        13, 13, 13, 17, 17, 17, 17, 13, 13, 13],
                          partStarts: [0, 5, 10], polygonStarts: [0, 1])
        XCTAssertEqual(try MVTEncoder.commands(for: mp).1,
                       [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
                        9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15])
        XCTAssertEqual(try MVTEncoder.commands(for: Geometry(kind: .point, coordinates: [25, 17])).1, [9, 50, 34])
        XCTAssertEqual(try MVTEncoder.commands(for: Geometry(kind: .lineString, coordinates: [2, 2, 2, 10, 10, 10],
                                                             partStarts: [0])).1, [9, 4, 4, 18, 0, 16, 16, 0])
    }

    func testRoundTripWithPropertiesAndDeduplication() throws {
        var enc = MVTEncoder()
        let line = Geometry(kind: .lineString, coordinates: [0, 0, 100, 0, 100, 0, 100, 50], partStarts: [0])
        try enc.addFeature(layer: "roads", id: 7, geometry: line,
                           properties: [("class", .string("primary")), ("lanes", .int(-2)), ("len", .double(2.5)),
                                        ("big", .uint(UInt64.max)), ("oneway", .bool(true)), ("gone", .null)])
        try enc.addFeature(layer: "roads", geometry: line, properties: [("class", .string("primary"))])
        try enc.addFeature(layer: "poi", id: 0, geometry: Geometry(kind: .multiPoint, coordinates: [1, 2, 3.4, 4.6]))
        let bytes = enc.encode()
        let features = try decode(bytes)
        XCTAssertEqual(features.map(\.layer), ["roads", "roads", "poi"])
        XCTAssertEqual(features.map(\.id), [7, nil, 0])
        XCTAssertEqual(features[0].props, ["class": .string("primary"), "lanes": .int(-2), "len": .double(2.5),
                                           "big": .uint(UInt64.max), "oneway": .bool(true)])
        // The repeated vertex is dropped (no zero-length LineTo, §4.3.3.2).
        XCTAssertEqual(features[0].geometry, Geometry(kind: .lineString, coordinates: [0, 0, 100, 0, 100, 50], partStarts: [0]))
        // Coordinates are rounded to integers.
        XCTAssertEqual(features[2].geometry, Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 5]))
        try bytes.withUnsafeBytes { raw in
            let roads = try VectorTile(bytes: raw).layers()[0]
            XCTAssertEqual(roads.keys.count, 5, "keys deduplicated")
            XCTAssertEqual(roads.values.count, 5, "values deduplicated")
            XCTAssertEqual(roads.extent, 4096)
        }
    }

    /// Rings given with the wrong winding come out as §4.3.4.4 requires, and a polygon
    /// with a hole decodes back to the same rings (closed, holes attached).
    func testWindingIsNormalised() throws {
        // Exterior counter-clockwise on screen and hole clockwise: both reversed on output.
        let poly = Geometry(kind: .polygon,
                            coordinates: [0, 0, 0, 100, 100, 100, 100, 0, 0, 0,
                                          20, 20, 80, 20, 80, 80, 20, 80, 20, 20],
                            partStarts: [0, 5], polygonStarts: [0])
        var enc = MVTEncoder()
        try enc.addFeature(layer: "b", geometry: poly)
        let g = try XCTUnwrap(try decode(enc.encode())[0].geometry)
        XCTAssertEqual(g.kind, .polygon)
        XCTAssertEqual(g.polygonStarts, [0])
        XCTAssertEqual(g.partStarts, [0, 5])
        XCTAssertEqual(Array(g.coordinates[0..<10]), [0, 0, 100, 0, 100, 100, 0, 100, 0, 0])
        XCTAssertEqual(Array(g.coordinates[10..<20]), [20, 20, 20, 80, 80, 80, 80, 20, 20, 20])
    }

    func testDegenerateAndOutOfRangeInput() {
        var enc = MVTEncoder()
        let flat = Geometry(kind: .polygon, coordinates: [0, 0, 10, 0, 20, 0, 0, 0], partStarts: [0], polygonStarts: [0])
        XCTAssertThrowsError(try enc.addFeature(layer: "x", geometry: flat)) {
            XCTAssertEqual($0 as? MVTEncodingError, .emptyGeometry)
        }
        XCTAssertThrowsError(try enc.addFeature(layer: "x", geometry: Geometry(kind: .point, coordinates: [1e12, 0]))) {
            XCTAssertEqual($0 as? MVTEncodingError, .coordinateOutOfRange(1e12))
        }
        XCTAssertEqual(enc.encode(), [], "failed features leave the tile unchanged")
    }

    /// Property: random geometries of every kind round-trip through encode and decode.
    func testRandomRoundTrips() throws {
        var s: UInt64 = 77
        func r(_ n: Int) -> Int { s = s &* 6364136223846793005 &+ 1442695040888963407; return Int(s >> 33) % n }
        for trial in 0..<200 {
            var enc = MVTEncoder()
            let n = 2 + r(20)
            var coords: [Double] = []
            var last = (-1, -1)
            while coords.count < 2 * n {
                let p = (r(4096), r(4096))
                if p != last { coords += [Double(p.0), Double(p.1)]; last = p }
            }
            let kind: Geometry.Kind = trial % 2 == 0 ? .lineString : .multiPoint
            let g = Geometry(kind: kind, coordinates: coords, partStarts: kind == .lineString ? [0] : [])
            try enc.addFeature(layer: "l", id: UInt64(trial), geometry: g, properties: [("i", .int(Int64(trial) - 100))])
            let back = try decode(enc.encode())
            XCTAssertEqual(back.count, 1)
            XCTAssertEqual(back[0].geometry, g)
            XCTAssertEqual(back[0].props["i"], .int(Int64(trial) - 100))
        }
    }
}
