import XCTest
import Foundation
import CorpusGenerators
import PBF

final class GeneratorTests: XCTestCase {
    func testPointsAreDeterministicValidGeoJSON() throws {
        let a = PointsGeoJSON.generate(count: 300, seed: 9)
        let b = PointsGeoJSON.generate(count: 300, seed: 9)
        XCTAssertEqual(a.bytes, b.bytes)
        XCTAssertNotEqual(a.bytes, PointsGeoJSON.generate(count: 300, seed: 10).bytes)
        XCTAssertEqual(a.items, 300)
        // Parsed by Foundation, independently of the generator.
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(a.bytes)) as? [String: Any])
        XCTAssertEqual(doc["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(doc["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 300)
        for f in features {
            let g = try XCTUnwrap(f["geometry"] as? [String: Any])
            XCTAssertEqual(g["type"] as? String, "Point")
            let c = try XCTUnwrap(g["coordinates"] as? [Double])
            XCTAssertEqual(c.count, 2)
            XCTAssertTrue((-180...180).contains(c[0]) && (-85...85).contains(c[1]))
        }
    }

    func testGeometryVarintsDecodeAsCommandStreams() throws {
        let g = GeometryVarints.generate(varints: 5000, seed: 3)
        XCTAssertEqual(g.bytes, GeometryVarints.generate(varints: 5000, seed: 3).bytes)
        let values: [UInt64] = try PBFReader.read(g.bytes) { (r: inout PBFReader) throws(PBFError) -> [UInt64] in
            var out: [UInt64] = []
            while !r.isAtEnd { out.append(try r.readVarint()) }
            return out
        }
        XCTAssertEqual(values.count, g.items)
        XCTAssertGreaterThanOrEqual(values.count, 5000)
        // Walk the command stream (MVT §4.3.1): MoveTo(1) + 2 params, LineTo(n) + 2n params.
        var i = 0
        while i < values.count {
            let cmd = values[i]
            XCTAssertEqual(cmd, 9, "MoveTo with count 1 at \(i)")
            i += 3
            let line = values[i]
            XCTAssertEqual(line & 7, 2, "LineTo at \(i)")
            i += 1 + 2 * Int(line >> 3)
        }
        XCTAssertEqual(i, values.count)
    }

    func testFixedDecimalFormatting() {
        // Through the public output: 6 decimals, sign kept, no exponent.
        let text = String(decoding: PointsGeoJSON.generate(count: 1, seed: 1).bytes, as: UTF8.self)
        XCTAssertNotNil(text.range(of: #"\"coordinates\":\[-?\d+\.\d{6},-?\d+\.\d{6}\]"#, options: .regularExpression))
    }
}

import VectorTile

final class SyntheticTilesTests: XCTestCase {
    struct Rings: GeometryHandler {
        var exterior = 0, interior = 0, points = 0, lineVertices = 0
        mutating func point(x: Int64, y: Int64) { points += 1 }
        mutating func linePoint(x: Int64, y: Int64) { lineVertices += 1 }
        mutating func ringEnd(_ kind: RingKind) { if kind == .exterior { exterior += 1 } else if kind == .interior { interior += 1 } }
    }

    func testTilesAreDeterministicAndValid() throws {
        let a = SyntheticTiles.generate(tiles: 4, seed: 11)
        XCTAssertEqual(a.bytes, SyntheticTiles.generate(tiles: 4, seed: 11).bytes)
        let ranges = try TileSet.unpack(a.bytes)
        XCTAssertEqual(ranges.count, 4)
        var rings = Rings()
        try a.bytes.withUnsafeBytes { raw in
            for r in ranges {
                let tile = VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r]))
                XCTAssertEqual(MVTValidator.validate(tile), [], "generated tiles follow every rule")
                let layers = try tile.layers()
                XCTAssertEqual(layers.map(\.name), ["poi", "roads", "buildings"])
                for l in layers {
                    XCTAssertEqual(l.extent, 4096)
                    XCTAssertEqual(Set(l.keys.map { Array($0) }).count, l.keys.count, "keys deduplicated")
                    try l.forEachFeature { (f: Feature) throws(MVTError) in try f.decodeGeometry(into: &rings) }
                }
            }
        }
        XCTAssertGreaterThan(rings.points, 0)
        XCTAssertGreaterThan(rings.lineVertices, 0)
        XCTAssertGreaterThan(rings.exterior, 0)
        XCTAssertGreaterThan(rings.interior, 0, "some buildings have courtyards")
    }
}
