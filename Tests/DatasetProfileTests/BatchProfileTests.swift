import DatasetProfile
import Foundation
import GeoJSON
import GeoModel
import GraticuleSupport
import GraticuleTestSupport
import XCTest

/// `geojson stats` and `profile` read column batches (`FeatureStatistics.add(batch:)`,
/// `DatasetProfile.addFeatures(batch:)`): every figure equals the one added feature by
/// feature from the streaming reader, on the shared corpora, on generated collections and
/// past the key table's cap.
final class BatchProfileTests: XCTestCase {
    /// Every feature of a file, as `forEach` gives them.
    static func features(_ path: String) throws -> [GeoFeature] {
        var stream = try GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
        var out: [GeoFeature] = []
        try stream.forEach { out.append($0) }
        return out
    }

    /// The files the comparisons read: the three real-world GeoJSON files and a generated
    /// mix of every geometry type (collections, holes, 3D), as a collection and as a
    /// sequence.
    func files() throws -> [String] {
        var paths = ["canada.json", "ne_10m_coastline.json", "ne_10m_populated_places.json"]
            .map { TestPaths.shared("geojson/" + $0) }
            .filter { FileManager.default.fileExists(atPath: $0) }
        if paths.isEmpty { throw XCTSkip("no shared corpora") }
        let mixed = [
            #"{"type":"Feature","id":"a","properties":{"k":1,"k":2,"name":"x"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[10,20]},{"type":"LineString","coordinates":[[0,0],[30,-10,5]]}]}}"#,
            #"{"type":"Feature","id":7,"properties":null,"geometry":{"type":"Polygon","coordinates":[[[-10,-10],[10,-10],[10,10],[-10,10],[-10,-10]],[[-2,-2],[2,-2],[2,2],[-2,-2]]]}}"#,
            #"{"type":"Feature","properties":{"name":"y","z":[1,{"q":null}]},"geometry":null}"#,
            #"{"type":"Feature","id":1.5,"properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[100,0],[101,0],[101,1],[100,0]]],[[[-179,80],[179,80],[179,85],[-179,80]]]]}}"#,
            #"{"type":"Feature","properties":{"name":"w"},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[-120,45],[-60,-45]]]}}"#,
            #"{"type":"Feature","properties":{"name":"v","k":true},"geometry":{"type":"MultiPoint","coordinates":[[5,5],[6,6,1],[180,85.06]]}}"#,
        ]
        let collection = temporaryPath("mixed.geojson")
        try FileIO.writeText(collection, #"{"type":"FeatureCollection","features":["# + mixed.joined(separator: ",") + "]}")
        let sequence = temporaryPath("mixed.geojsonseq")
        try FileIO.writeText(sequence, mixed.map { "\u{1E}" + $0 + "\n" }.joined())
        paths += [collection, sequence]
        return paths
    }

    func testStatisticsFromBatchesEqualFeatureByFeature() throws {
        for path in try files() {
            var expected = FeatureStatistics()
            for f in try Self.features(path) { expected.add(f) }
            XCTAssertGreaterThan(expected.features, 0, path)
            for keepValues in [true, false] {
                for batchBytes in [1 << 20, 777] {
                    var options = GeoJSONReadOptions()
                    options.keepPropertyValues = keepValues
                    var stream = try GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
                    var got = FeatureStatistics()
                    var batches = 0
                    try stream.forEachBatch(options: options, batchBytes: batchBytes) { got.add(batch: $0); batches += 1 }
                    XCTAssertEqual(got.rows().map { [$0.0, $0.1] }, expected.rows().map { [$0.0, $0.1] },
                                   "\(path), values \(keepValues), \(batchBytes)-byte batches")
                    if batchBytes == 777 && expected.features > 100 { XCTAssertGreaterThan(batches, 1, path) }
                }
            }
        }
    }

    /// The figures of a profile, in the forms it is written in and the tables behind them.
    static func figures(_ p: DatasetProfile) -> [String] {
        [p.csv(), p.json(path: "x"), "\(p.keyCounts.sorted { $0.key < $1.key })", "\(p.otherKeys)",
         "\(p.coverage.sorted { $0.key < $1.key })", "\(p.byType.sorted { $0.key < $1.key })", "\(p.features)"]
    }

    func testProfileFromBatchesEqualsFeatureByFeature() throws {
        for path in try files() {
            let features = try Self.features(path)
            for zoom in [3, 9] {
                var expected = DatasetProfile(zoom: zoom, keep: 5)
                for f in features { expected.addFeature(f) }
                XCTAssertFalse(expected.coverage.isEmpty, path)
                for keepValues in [true, false] {
                    var options = GeoJSONReadOptions()
                    options.keepPropertyValues = keepValues
                    var stream = try GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
                    var got = DatasetProfile(zoom: zoom, keep: 5)
                    try stream.forEachBatch(options: options, batchBytes: 5_000) { got.addFeatures(batch: $0) }
                    XCTAssertEqual(Self.figures(got), Self.figures(expected), "\(path) z\(zoom), values \(keepValues)")
                }
            }
        }
    }

    /// A sequence's batches close early too when their features bring new property names,
    /// so the property table stays near 4 million cells.
    func testSequenceBatchesStayBounded() throws {
        let path = temporaryPath("names.ndjson")
        var text = ""
        for n in 0..<3_000 {
            text += #"{"type":"Feature","geometry":null,"properties":{"a\#(n)":1,"b\#(n)":2,"c":3}}"# + "\n"
        }
        try FileIO.writeText(path, text)
        var stream = try GeoJSONFeatureStream(path: path)
        XCTAssertTrue(stream.isSequence)
        var batches = 0, features = 0
        try stream.forEachBatch { b in
            batches += 1
            features += b.count
            XCTAssertLessThanOrEqual(b.columns.count * b.count, 4_000_000 + 3 * b.count)
        }
        XCTAssertEqual(features, 3_000)
        XCTAssertGreaterThan(batches, 1)
    }

    /// Past the 10,000-key cap, with schemas that change from feature to feature and keys
    /// repeated within a feature, batches of any size count as one pass does.
    func testKeyTableCapFromBatches() {
        var rng = SplitMix64(seed: 7)
        var features: [GeoFeature] = []
        for n in 0..<6_000 {
            var names = ["name", "k\(n)", "j\(n)", "z\(n % 50)"]
            if n % 11 == 0 { names.append("name") }
            names.shuffle(using: &rng)
            let point = Geometry(kind: .point, coordinates: [Double(n % 360) - 180, Double(n % 170) - 85])
            features.append(GeoFeature(geometry: n % 7 == 0 ? nil : point,
                                       properties: PropertyList(names.map { (key: $0, value: PropertyValue.int(1)) })))
        }
        var expected = DatasetProfile(zoom: 3, keep: 4)
        for f in features { expected.addFeature(f) }
        XCTAssertGreaterThan(expected.otherKeys, 0, "the cap is crossed")
        for size in [3, 250] {
            var got = DatasetProfile(zoom: 3, keep: 4)
            var start = 0
            while start < features.count {
                let end = min(start + size, features.count)
                got.addFeatures(batch: GeoJSONFeatureBatch(features: Array(features[start..<end])))
                start = end
            }
            XCTAssertEqual(Self.figures(got), Self.figures(expected), "batches of \(size)")
        }
    }
}
