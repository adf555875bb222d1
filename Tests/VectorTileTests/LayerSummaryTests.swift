import XCTest
import GeoModel
import VectorTile

/// A layer at a glance, findings by rule, and a layer's features as GeoModel features.
final class LayerSummaryTests: XCTestCase {
    func tile() throws -> [UInt8] {
        var enc = MVTEncoder()
        let line = Geometry(kind: .lineString, coordinates: [0, 0, 100, 0], partStarts: [0])
        try enc.addFeature(layer: "roads", id: 7, geometry: line, properties: [("class", .string("primary"))])
        try enc.addFeature(layer: "roads", geometry: line, properties: [("class", .string("minor")), ("lanes", .int(2))])
        try enc.addFeature(layer: "roads", geometry: Geometry(kind: .point, coordinates: [5, 5]))
        try enc.addFeature(layer: "poi", extent: 512, id: 1, geometry: Geometry(kind: .point, coordinates: [1, 2]))
        return enc.encode()
    }

    func testSummaryCountsFeaturesByType() throws {
        let bytes = try tile()
        try bytes.withUnsafeBytes { raw in
            let layers = try VectorTile(bytes: raw).layers()
            let roads = LayerSummary(layers[0])
            XCTAssertEqual([roads.name, "\(roads.version)", "\(roads.extent)"], ["roads", "2", "4096"])
            XCTAssertEqual([roads.features, roads.points, roads.lines, roads.polygons, roads.unknown, roads.badType], [3, 1, 2, 0, 0, 0])
            XCTAssertEqual([roads.keys, roads.values], [2, 3])
            let poi = LayerSummary(layers[1])
            XCTAssertEqual([poi.features, poi.points, poi.extent], [1, 1, 512])
            // The same summaries, and names, read one layer at a time; one layer by name.
            let tile = VectorTile(bytes: raw)
            XCTAssertEqual(LayerSummary.all(in: tile), [roads, poi])
            XCTAssertEqual(LayerSummary.all(in: tile, named: "poi"), [poi])
            XCTAssertEqual(LayerSummary.all(in: tile, named: "nope"), [])
            XCTAssertEqual(tile.layerNames(), ["roads", "poi"])
        }
    }

    func testLayerFeaturesAsGeoModelFeatures() throws {
        let bytes = try tile()
        try bytes.withUnsafeBytes { raw in
            let roads = try VectorTile(bytes: raw).layers()[0]
            var skipped: [Int] = []
            let features = roads.geoFeatures(in: nil) { i, _ in skipped.append(i) }
            XCTAssertEqual(skipped, [])
            XCTAssertEqual(features.map(\.id), [.uint(7), nil, nil])
            XCTAssertEqual(features[1].properties, PropertyList([("layer", .string("roads")), ("class", .string("minor")), ("lanes", .int(2))]))
            XCTAssertEqual(features[0].geometry, Geometry(kind: .lineString, coordinates: [0, 0, 100, 0], partStarts: [0]))
            // With the tile's address, coordinates are longitude and latitude.
            let placed = roads.geoFeatures(in: TileAddress(z: 0, x: 0, y: 0)) { _, _ in }
            let c = try XCTUnwrap(placed[2].geometry?.coordinates)
            XCTAssertEqual(c[0], -180 + 5.0 / 4096 * 360, accuracy: 1e-9)
        }
    }

    func testFindingsCountedByRule() throws {
        // extent 0 (D5) in a layer: one finding per rule, sorted by rule id.
        var enc = MVTEncoder()
        try enc.addFeature(layer: "a", extent: 0, geometry: Geometry(kind: .point, coordinates: [1, 1]))
        let findings = enc.encode().withUnsafeBytes { MVTValidator.validate(VectorTile(bytes: $0)) }
        XCTAssertFalse(findings.isEmpty)
        let counts = MVTFinding.countsByRule(findings + findings)
        XCTAssertEqual(counts.map(\.rule), counts.map(\.rule).sorted())
        XCTAssertEqual(counts.map(\.count).reduce(0, +), 2 * findings.count)
        XCTAssertTrue(counts.allSatisfy { $0.count % 2 == 0 })
    }
}
