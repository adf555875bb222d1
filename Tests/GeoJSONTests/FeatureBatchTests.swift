import JSON
import GraticuleSupport
import GraticuleTestSupport
import XCTest
import Foundation
@testable import GeoJSON
import GeoModel

/// The columnar reader (`GeoJSONBatchReader`) against the streaming reader it shares its
/// parser with: the same features, errors, skipped features and findings on every file of
/// the shared corpora and on random texts; and the batch's columns as documented.
final class FeatureBatchTests: XCTestCase {
    /// What a reader made of a text: its features, then how it ended.
    struct Outcome: Equatable {
        var features: [GeoFeature] = []
        var error: GeoJSONError?
        var skipped: [GeoJSONFeatureReader.SkippedFeature] = []
        var findings: [GeoJSONFinding] = []
        var bbox: [Double]?
    }

    static func streamed(_ bytes: [UInt8], chunk: Int?, options: GeoJSONReadOptions,
                         policy: GeoJSONFeatureReader.InvalidFeaturePolicy) -> Outcome {
        var out = Outcome()
        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk ?? max(bytes.count, 1)),
                                          chunkSize: chunk ?? max(bytes.count, 1), options: options, onInvalidFeature: policy)
        do {
            while let f = try reader.next() { out.features.append(f) }
        } catch {
            out.error = error
        }
        out.skipped = reader.skipped
        out.findings = reader.findings
        out.bbox = reader.bbox
        return out
    }

    static func batched(_ bytes: [UInt8], chunk: Int?, options: GeoJSONReadOptions,
                        policy: GeoJSONFeatureReader.InvalidFeaturePolicy, batchBytes: Int) -> Outcome {
        var out = Outcome()
        let reader = chunk.map {
            GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: $0), chunkSize: $0, options: options,
                               onInvalidFeature: policy, batchBytes: batchBytes)
        } ?? GeoJSONBatchReader(bytes: bytes, options: options, onInvalidFeature: policy, batchBytes: batchBytes)
        var batch = GeoJSONFeatureBatch()
        var expectedFirst = 0
        do {
            while try reader.next(into: &batch) {
                precondition(batch.firstIndex >= expectedFirst)
                out.features += batch.features
                expectedFirst = batch.firstIndex + batch.count
            }
        } catch {
            out.features += batch.features
            out.error = error
        }
        out.skipped = reader.skipped
        out.findings = reader.findings
        out.bbox = reader.bbox
        return out
    }

    /// Every JSON and GeoJSON file of the shared corpora (valid and invalid, GeoJSON or
    /// not): the batches' features, the error, the skipped features and the findings are
    /// the streaming reader's, in memory and in small reads, under both policies.
    func testCorporaAgreeWithStreamingReader() throws {
        let root = TestPaths.shared("")
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw XCTSkip("no shared corpora") }
        var files = 0
        while let name = walker.nextObject() as? String {
            guard name.hasSuffix(".json") || name.hasSuffix(".geojson") else { continue }
            guard let data = FileManager.default.contents(atPath: root + "/" + name) else { continue }
            let bytes = [UInt8](data)
            files += 1
            var options = GeoJSONReadOptions()
            let a = Self.streamed(bytes, chunk: nil, options: options, policy: .fail)
            let b = Self.batched(bytes, chunk: nil, options: options, policy: .fail, batchBytes: 64 << 10)
            XCTAssertTrue(a == b, name)
            guard bytes.count < 300_000 else { continue }
            options.collectFindings = true
            let c = Self.streamed(bytes, chunk: 61, options: options, policy: .skip)
            let d = Self.batched(bytes, chunk: 61, options: options, policy: .skip, batchBytes: 500)
            XCTAssertTrue(c == d, name + " (skip, findings, 61-byte reads)")
            options.strict = true
            options.collectFindings = false
            XCTAssertTrue(Self.streamed(bytes, chunk: nil, options: options, policy: .skip)
                          == Self.batched(bytes, chunk: nil, options: options, policy: .skip, batchBytes: 1), name + " (strict)")
        }
        if files == 0 { throw XCTSkip("no shared corpora") }
        XCTAssertGreaterThan(files, 100)
    }

    /// Random texts built from GeoJSON pieces, then cut or mutated: both readers reach the
    /// same outcome (features, error with location and path, skipped features).
    func testRandomTextsAgreeWithStreamingReader() {
        var rng = SplitMix64(seed: 59)
        for round in 0..<1_500 {
            let bytes = Self.randomText(round: round, &rng)
            for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
                var options = GeoJSONReadOptions()
                options.collectFindings = round % 2 == 0
                let chunk = 1 + round % 17
                let a = Self.streamed(bytes, chunk: chunk, options: options, policy: policy)
                let b = Self.batched(bytes, chunk: chunk, options: options, policy: policy, batchBytes: 1 + round % 300)
                XCTAssertEqual(a, b, String(decoding: bytes, as: UTF8.self))
                let c = Self.batched(bytes, chunk: nil, options: options, policy: policy, batchBytes: 1 << 20)
                XCTAssertEqual(a, c, String(decoding: bytes, as: UTF8.self))
                if a != b || a != c { return }
            }
        }
    }

    /// A collection (or, every seventh round, a lone Feature) of random GeoJSON pieces,
    /// sometimes with one byte changed or cut short.
    static func randomText(round: Int, _ rng: inout SplitMix64) -> [UInt8] {
        let geometries = [
            #"{"type":"Point","coordinates":[1,2]}"#, #"{"type":"Point","coordinates":[1,2,3]}"#,
            #"{"type":"Point","coordinates":[]}"#, #"{"coordinates":[[0,0],[1,1]],"type":"LineString"}"#,
            #"{"type":"LineString","coordinates":[[0,0]]}"#, #"{"type":"MultiPoint","coordinates":[[0,0,5],[1,1]]}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.1,0.1],[0.2,0.1],[0.2,0.2],[0.1,0.1]]]}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#, #"{"type":"Polygon","coordinates":[[]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[]]}"#, #"{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3,3]]]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[0,0],[1,1]]}]}"#,
            #"{"type":"Point","geometries":[],"coordinates":[1,2]}"#, #"{"type":"Point","coordinates":[1,2],"geometry":{"type":"Point","coordinates":[3,4]}}"#,
            #"{"type":"Point","coordinates":[1,2],"geometries":[{"type":"Point","coordinates":[7,8]}]}"#,
            #"{"type":"Pointy","coordinates":[1,2]}"#, #"{"coordinates":[1,2]}"#, "null", #"{"type":"Point","coordinates":[[1,2]]}"#,
            #"{"type":"LineString","coordinates":[[0,0],[200,0]],"bbox":[0,0,200,0]}"#,
        ]
        let properties = [
            #"{"a":1,"b":"x"}"#, #"{"b":"y","a":2.5}"#, #"{"a":"s","c":[1,{"d":null}]}"#, #"{"a":18446744073709551615}"#,
            #"{"a":true,"a":false}"#, #"{"\u0061":"\n\u00e9"}"#, "{}", "null", #"{"a":-0.0,"e":1e400}"#, #"{"a":[}"#,
            #"{"big":-9223372036854775808,"f":false,"n":null}"#, #"{"x":{"y":{"z":[[[]]]}}}"#,
        ]
        let ids = ["", #""id":7,"#, #""id":"k\"1","#, #""id":1.5,"#, #""id":18446744073709551615,"#, #""id":[1],"#, #""id":"a","id":"b","#]
        let extras = ["", #""bbox":[0,0,1,1],"#, #""title":"t","#, #""foreign":{"k":[1]},"#]
        var text = #"{"type":"FeatureCollection","features":["#
        let n = Int.random(in: 0...5, using: &rng)
        for i in 0..<n {
            if i > 0 { text += "," }
            if Int.random(in: 0..<15, using: &rng) == 0 { text += #"{"type":"Point","coordinates":[0,0]}"#; continue }
            text += "{" + ids.randomElement(using: &rng)! + extras.randomElement(using: &rng)!
            text += #""type":"Feature","geometry":"# + geometries.randomElement(using: &rng)!
            text += #","properties":"# + properties.randomElement(using: &rng)! + "}"
        }
        text += "]}"
        if round % 7 == 0 { text = #"{"type":"Feature","properties":{"p":1},"geometry":"# + geometries.randomElement(using: &rng)! + "}" }
        var bytes = Array(text.utf8)
        if Int.random(in: 0..<4, using: &rng) == 0, !bytes.isEmpty {
            let k = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[k] = Array(#"{}[],:"0-9 .eE\"#.utf8).randomElement(using: &rng)!
        }
        if Int.random(in: 0..<6, using: &rng) == 0 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
        return bytes
    }

    /// Features with property names of their own close batches early: the property table
    /// (a row per feature in every column) stays near 4 million cells, and the features
    /// are the streaming reader's.
    func testManyDistinctNamesCloseBatchesEarly() {
        var text = #"{"type":"FeatureCollection","features":["#
        for n in 0..<3_000 {
            if n > 0 { text += "," }
            text += #"{"type":"Feature","geometry":null,"properties":{"a\#(n)":1,"b\#(n)":"x","c":\#(n)}}"#
        }
        text += "]}"
        let bytes = Array(text.utf8)
        let reader = GeoJSONBatchReader(bytes: bytes)
        var batch = GeoJSONFeatureBatch()
        var features: [GeoFeature] = [], batches = 0
        do {
            while try reader.next(into: &batch) {
                batches += 1
                XCTAssertLessThanOrEqual(batch.columns.count * batch.count, 4_000_000 + 3 * batch.count)
                features += batch.features
            }
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertGreaterThan(batches, 1)
        XCTAssertEqual(features, Self.streamed(bytes, chunk: nil, options: GeoJSONReadOptions(), policy: .fail).features)
    }

    /// An outcome with every property value replaced by null (what a read without
    /// property values keeps: the names).
    static func namesOnly(_ o: Outcome) -> Outcome {
        var o = o
        for i in o.features.indices {
            guard let p = o.features[i].properties else { continue }
            var names = PropertyList()
            for k in p.keys { names.append(key: k, value: .null) }
            o.features[i].properties = names
        }
        return o
    }

    /// Without property values, a batch read keeps each feature's member names and reaches
    /// the same outcome as a read with values (features, errors, skipped features,
    /// findings), on random texts and on the corpora, both skip contracts on valid text.
    func testPropertyNamesWithoutValues() throws {
        var rng = SplitMix64(seed: 5959)
        var names = GeoJSONReadOptions()
        names.keepPropertyValues = false
        for round in 0..<1_500 {
            let bytes = Self.randomText(round: round, &rng)
            for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
                var options = GeoJSONReadOptions()
                options.collectFindings = round % 2 == 0
                names.collectFindings = options.collectFindings
                let chunk = round % 3 == 0 ? nil : 1 + round % 17
                let a = Self.namesOnly(Self.batched(bytes, chunk: chunk, options: options, policy: policy, batchBytes: 1 + round % 300))
                let b = Self.batched(bytes, chunk: chunk, options: names, policy: policy, batchBytes: 1 + round % 300)
                XCTAssertEqual(a, b, String(decoding: bytes, as: UTF8.self))
                if a != b { return }
            }
        }
        let root = TestPaths.shared("")
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw XCTSkip("no shared corpora") }
        var files = 0
        names.collectFindings = false
        while let name = walker.nextObject() as? String {
            guard name.hasSuffix(".json") || name.hasSuffix(".geojson") else { continue }
            guard let data = FileManager.default.contents(atPath: root + "/" + name) else { continue }
            let bytes = [UInt8](data)
            files += 1
            let a = Self.namesOnly(Self.batched(bytes, chunk: nil, options: GeoJSONReadOptions(), policy: .skip, batchBytes: 64 << 10))
            XCTAssertTrue(a == Self.batched(bytes, chunk: nil, options: names, policy: .skip, batchBytes: 64 << 10), name)
            if a.error == nil {
                var structural = names
                structural.skipContract = .structural
                XCTAssertTrue(a == Self.batched(bytes, chunk: nil, options: structural, policy: .skip, batchBytes: 64 << 10),
                              name + " (structural)")
            }
        }
        if files == 0 { throw XCTSkip("no shared corpora") }
    }

    /// The big corpus files agree in one batch and in many, read in place or in reads.
    func testLargeFilesAgree() throws {
        for name in ["canada.json", "ne_10m_coastline.json", "ne_10m_populated_places.json"] {
            let path = TestPaths.shared("geojson") + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("\(name) not found") }
            let bytes = [UInt8](data)
            guard case .featureCollection(let whole) = try GeoJSONReader.read(bytes).object else { return XCTFail() }
            for (chunk, batchBytes) in [(nil, 1 << 30), (nil, 100_000), (4096, 1 << 20)] as [(Int?, Int)] {
                let b = Self.batched(bytes, chunk: chunk, options: GeoJSONReadOptions(), policy: .fail, batchBytes: batchBytes)
                XCTAssertNil(b.error)
                XCTAssertEqual(b.features.count, whole.count, name)
                XCTAssertTrue(b.features == whole, "\(name) chunk \(String(describing: chunk)) batch \(batchBytes)")
            }
        }
    }

    /// Columns as documented: a column's type is its first non-null value's; other types,
    /// unsigned 64-bit numbers and nested values are JSON text; strings are decoded; a
    /// feature keeps its own member order; a repeated name goes beside the columns.
    func testColumns() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":3,"geometry":null,"properties":{"n":null,"a":1,"s":"x\u00e9","o":{"k":[1,2]}}},
        {"type":"Feature","id":"f\"2","geometry":null,"properties":{"s":"plain","a":2.5,"n":true}},
        {"type":"Feature","geometry":null,"properties":null},
        {"type":"Feature","id":18446744073709551615,"geometry":null,"properties":{"a":18446744073709551615,"a":-7,"\u0073":"esc"}}
        ]}
        """#
        let reader = GeoJSONBatchReader(bytes: Array(text.utf8))
        var batch = GeoJSONFeatureBatch()
        XCTAssertTrue(try reader.next(into: &batch))
        XCTAssertEqual(batch.count, 4)
        XCTAssertEqual(batch.columns.map(\.name), ["n", "a", "s", "o"])
        let n = batch.columns[0], a = batch.columns[1], s = batch.columns[2], o = batch.columns[3]
        XCTAssertEqual(n.type, .bool)
        XCTAssertEqual(n.kinds, [.null, .bool, .absent, .absent])
        XCTAssertEqual(a.type, .int)
        XCTAssertEqual(a.kinds, [.int, .json, .absent, .json])
        XCTAssertEqual(Array(a.bytes(at: 1)), Array("2.5".utf8))
        XCTAssertEqual(a.value(at: 3), .uint(18_446_744_073_709_551_615))
        XCTAssertEqual(s.type, .string)
        XCTAssertEqual(s.value(at: 0), .string("xé"))
        XCTAssertEqual(s.value(at: 3), .string("esc"))
        XCTAssertEqual(o.kinds, [.json, .absent, .absent, .absent])
        XCTAssertEqual(o.value(at: 0), .object(["k": .array([.int(1), .int(2)])]))
        XCTAssertEqual(batch.idKinds, [.int, .string, .none, .uint])
        XCTAssertEqual(batch.id(1), .string("f\"2"))
        XCTAssertEqual(batch.hasProperties, [true, true, false, true])
        XCTAssertEqual(batch.properties(1)?.keys, ["s", "a", "n"])
        XCTAssertEqual(batch.properties(3)?.keys, ["a", "a", "s"])
        XCTAssertEqual(batch.properties(3)?.values, [.uint(18_446_744_073_709_551_615), .int(-7), .string("esc")])
        XCTAssertEqual(batch.repeatedMembers.count, 1)
        XCTAssertFalse(try reader.next(into: &batch))
        XCTAssertEqual(batch.count, 0)
    }

    /// Geometry arrays as documented, written out by hand for a small mixed batch; and a
    /// MultiPolygon batch's arrays are GeoArrow's offsets.
    func testGeometryLayout() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1],[2,2]]}},
        {"type":"Feature","properties":{},"geometry":null},
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]}},
        {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[9,9,9]},{"type":"MultiPoint","coordinates":[[5,5],[6,6]]}]}}
        ]}
        """#
        var batch = GeoJSONFeatureBatch()
        XCTAssertTrue(try GeoJSONBatchReader(bytes: Array(text.utf8)).next(into: &batch))
        XCTAssertEqual(batch.featureGeometryOffsets, [0, 1, 2, 2, 3, 6])
        XCTAssertEqual(batch.geometryTypes, [1, 2, 3, 7, 1, 4])
        XCTAssertEqual(batch.geometryDimensions, [2, 2, 2, 2, 3, 2])
        XCTAssertEqual(batch.geometryMemberCounts, [0, 0, 0, 2, 0, 0])
        XCTAssertEqual(batch.dimensions, 3)        // the collection's 3D point
        XCTAssertEqual(batch.geometryPositionOffsets, [0, 1, 4, 12, 12, 13, 15])
        XCTAssertEqual(batch.partStarts, [1, 4, 8])
        XCTAssertEqual(batch.geometryPartOffsets, [0, 0, 1, 3, 3, 3, 3])
        XCTAssertEqual(batch.polygonStarts, [1])
        XCTAssertEqual(batch.geometryPolygonOffsets, [0, 0, 0, 1, 1, 1, 1])
        XCTAssertEqual(Array(batch.coordinates[0..<2]), [1, 2])
        XCTAssertTrue(batch.coordinates[2].isNaN)
        XCTAssertEqual(Array(batch.coordinates[36..<39]), [9, 9, 9])

        let multi = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":null,"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]],[[5.1,5.1],[5.2,5.1],[5.2,5.2],[5.1,5.1]]]]}},
        {"type":"Feature","properties":null,"geometry":{"type":"MultiPolygon","coordinates":[[[[9,9],[8,9],[8,8],[9,9]]]]}}
        ]}
        """#
        XCTAssertTrue(try GeoJSONBatchReader(bytes: Array(multi.utf8)).next(into: &batch))
        // GeoArrow multipolygon: geometry → polygon → ring → coordinate offsets.
        XCTAssertEqual(batch.geometryPolygonOffsets, [0, 2, 3])
        XCTAssertEqual(batch.polygonStarts + [batch.partStarts.count], [0, 1, 3, 4])
        XCTAssertEqual(batch.partStarts + [batch.positionCount], [0, 4, 8, 12, 16])
        XCTAssertEqual(batch.coordinates.count, 32)
        XCTAssertEqual(batch.dimensions, 2)
    }

    /// A batch that closes on its byte budget after the last feature must not end the
    /// reading: the rest of the text (here a stray byte after `]`) is still read, and its
    /// error reported (found by the fuzz target, corpora/regressions/geojson).
    func testTheTextIsReadToItsEndAfterTheLastBatch() throws {
        let path = TestPaths.corpora("regressions/geojson") + "/stray-byte-after-features.geojson"
        let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path)))
        for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
            for batchBytes in [1, 3, 68, 1 << 20] {
                let a = Self.streamed(bytes, chunk: 8, options: GeoJSONReadOptions(), policy: policy)
                XCTAssertNotNil(a.error)
                XCTAssertTrue(a == Self.batched(bytes, chunk: 8, options: GeoJSONReadOptions(), policy: policy, batchBytes: batchBytes))
                XCTAssertTrue(a == Self.batched(bytes, chunk: nil, options: GeoJSONReadOptions(), policy: policy, batchBytes: batchBytes))
            }
        }
    }

    /// Buffers are reused from batch to batch: the same storage after the first batch, and
    /// a batch made from features reads back equal.
    func testReuseAndModelRoundTrip() throws {
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<400 {
            if i > 0 { text += "," }
            text += #"{"type":"Feature","id":\#(i),"geometry":{"type":"Point","coordinates":[\#(i),1]},"properties":{"name":"n\#(i)","v":\#(i)}}"#
        }
        text += "]}"
        let reader = GeoJSONBatchReader(bytes: Array(text.utf8), batchBytes: 2_000)
        var batch = GeoJSONFeatureBatch()
        var all: [GeoFeature] = []
        var batches = 0
        while try reader.next(into: &batch) {
            batches += 1
            XCTAssertEqual(batch.columns.map(\.name), ["name", "v"])
            all += batch.features
        }
        XCTAssertGreaterThan(batches, 10)
        XCTAssertEqual(all.count, 400)
        guard case .featureCollection(let whole) = try GeoJSONReader.read(Array(text.utf8)).object else { return XCTFail() }
        XCTAssertTrue(all == whole)
        XCTAssertTrue(GeoJSONFeatureBatch(features: whole).features == whole)
    }
}

