import Foundation
import GeoModel
import GraticuleSupport
import GraticuleTestSupport
import JSON
import XCTest
@testable import GeoJSON

/// The feature fast path against the validating path alone, for both sinks: every batch,
/// column for column and offset for offset, every model feature and document, every error
/// (kind, location, path) and every skipped feature are the same, on the shared corpora, on texts of common features
/// with a byte changed or cut, and on the shapes the fast path hands over.
final class FeatureFastPathTests: XCTestCase {
    /// Everything a batch holds, comparable.
    struct BatchImage: Equatable {
        var count, firstIndex, dimensions: Int
        var featureOffsets, featureGeometryOffsets, geometryPositionOffsets, geometryPartOffsets, geometryPolygonOffsets,
            geometryMemberCounts, partStarts, polygonStarts, idByteEnds, memberOffsets: [Int]
        var coordinateBits: [UInt64]
        var geometryTypes, geometryDimensions, idBytes: [UInt8]
        var idKinds: [String]
        var idNumbers: [UInt64]
        var hasProperties: [Bool]
        var memberColumns: [Int32]
        var columns: [String]
        var repeated: [String]
        var extras: [String]

        init(_ b: GeoJSONFeatureBatch) {
            count = b.count; firstIndex = b.firstIndex; dimensions = b.dimensions
            featureOffsets = b.featureOffsets; featureGeometryOffsets = b.featureGeometryOffsets
            geometryPositionOffsets = b.geometryPositionOffsets; geometryPartOffsets = b.geometryPartOffsets
            geometryPolygonOffsets = b.geometryPolygonOffsets; geometryMemberCounts = b.geometryMemberCounts
            partStarts = b.partStarts; polygonStarts = b.polygonStarts; idByteEnds = b.idByteEnds
            memberOffsets = b.memberOffsets
            coordinateBits = b.coordinates.map(\.bitPattern)
            geometryTypes = b.geometryTypes; geometryDimensions = b.geometryDimensions; idBytes = b.idBytes
            idKinds = b.idKinds.map { "\($0)" }; idNumbers = b.idNumbers; hasProperties = b.hasProperties
            memberColumns = b.memberColumns
            columns = b.columns.map { "\($0.name) \($0.type) \($0.kinds) \($0.numbers) \($0.bytes) \($0.byteEnds)" }
            repeated = b.repeatedMembers.map { "\($0.name)=\($0.value)" }
            extras = b.extras.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        }
    }

    struct Outcome: Equatable {
        var batches: [BatchImage] = []
        var error: GeoJSONError?
        var skipped: [GeoJSONFeatureReader.SkippedFeature] = []
        /// Features the fast path read (not compared).
        var fastReads = 0

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.batches == b.batches && a.error == b.error && a.skipped == b.skipped
        }
    }

    static func read(_ bytes: [UInt8], fast: Bool, chunk: Int?, options: GeoJSONReadOptions = GeoJSONReadOptions(),
                     policy: GeoJSONFeatureReader.InvalidFeaturePolicy, batchBytes: Int) -> Outcome {
        var options = options
        options._fastPath = fast
        let reader = chunk.map {
            GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: $0), chunkSize: $0, options: options,
                               onInvalidFeature: policy, batchBytes: batchBytes)
        } ?? GeoJSONBatchReader(bytes: bytes, options: options, onInvalidFeature: policy, batchBytes: batchBytes)
        return drain(reader)
    }

    /// Every batch of `reader`, then how it ended.
    static func drain(_ reader: GeoJSONBatchReader) -> Outcome {
        var out = Outcome()
        var batch = GeoJSONFeatureBatch()
        do {
            while try reader.next(into: &batch) { out.batches.append(BatchImage(batch)) }
        } catch {
            out.batches.append(BatchImage(batch))
            out.error = error
        }
        out.skipped = reader.skipped
        out.fastReads = reader.reader.parser.fastPathReads
        return out
    }

    /// What the model readers made of a text: the streaming reader's features, error and
    /// skipped features, and the whole-document reader's document or error.
    struct ModelOutcome: Equatable {
        var features: [GeoFeature] = []
        var error: GeoJSONError?
        var skipped: [GeoJSONFeatureReader.SkippedFeature] = []
        var document: GeoJSONDocument?
        var documentError: GeoJSONError?
        var fastReads = 0

        static func == (a: ModelOutcome, b: ModelOutcome) -> Bool {
            a.features == b.features && a.error == b.error && a.skipped == b.skipped && a.document == b.document
                && a.documentError == b.documentError
        }
    }

    static func readModel(_ bytes: [UInt8], fast: Bool, chunk: Int?, options: GeoJSONReadOptions,
                          policy: GeoJSONFeatureReader.InvalidFeaturePolicy) -> ModelOutcome {
        var options = options
        options._fastPath = fast
        let size = chunk ?? max(bytes.count, 1)
        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: size), chunkSize: size, options: options,
                                          onInvalidFeature: policy)
        var out = ModelOutcome()
        do {
            while let f = try reader.next() { out.features.append(f) }
        } catch {
            out.error = error
        }
        out.skipped = reader.skipped
        out.fastReads = reader.parser.fastPathReads
        do {
            out.document = try GeoJSONReader.read(bytes, options: options)
        } catch {
            out.documentError = error
        }
        return out
    }

    /// Both paths on one text, in memory and in small reads, under both policies, with
    /// values, names only, and geometry only.
    func assertPathsAgree(_ bytes: [UInt8], _ label: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        var namesOnly = GeoJSONReadOptions.propertyNamesOnly
        namesOnly.skipContract = .structural
        let geometryOnly = GeoJSONReadOptions(skipProperties: true)
        for (options, name) in [(GeoJSONReadOptions(), "values"), (namesOnly, "names"), (geometryOnly, "geometry")] {
            for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
                for chunk in [nil, 7] as [Int?] {
                    let slowModel = Self.readModel(bytes, fast: false, chunk: chunk, options: options, policy: policy)
                    let fastModel = Self.readModel(bytes, fast: true, chunk: chunk, options: options, policy: policy)
                    if slowModel != fastModel {
                        XCTFail("\(label().prefix(1_500)) (model, \(name), \(policy), chunk \(chunk.map(String.init) ?? "whole")):"
                                + "\n slow \(String(describing: slowModel).prefix(3_000))\n fast \(String(describing: fastModel).prefix(3_000))",
                                file: file, line: line)
                        return
                    }
                    let slow = Self.read(bytes, fast: false, chunk: chunk, options: options, policy: policy, batchBytes: 300)
                    let fast = Self.read(bytes, fast: true, chunk: chunk, options: options, policy: policy, batchBytes: 300)
                    if slow != fast {
                        XCTFail("\(label().prefix(1_500)) (\(name), \(policy), chunk \(chunk.map(String.init) ?? "whole")):"
                                + "\n slow \(String(describing: slow).prefix(3_000))\n fast \(String(describing: fast).prefix(3_000))",
                                file: file, line: line)
                        return
                    }
                }
            }
        }
    }

    /// Common features: the shapes the fast path reads, in several member orders.
    static func commonFeature(_ i: Int, _ rng: inout SplitMix64) -> String {
        let x = Double(Int.random(in: -18_000_000...18_000_000, using: &rng)) / 100_000
        let y = Double(Int.random(in: -9_000_000...9_000_000, using: &rng)) / 100_000
        let geometries = [
            #"{"type":"Point","coordinates":[\#(x),\#(y)]}"#,
            #"{"coordinates":[\#(x),\#(y),12.5],"type":"Point"}"#,
            #"{"type":"LineString","coordinates":[[\#(x),\#(y)],[1,2],[3,4,5]]}"#,
            #"{"type":"MultiPoint","coordinates":[[\#(x),\#(y)]]}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[\#(x),0],[\#(x),\#(y)],[0,0]]]}"#,
            #"{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[\#(x),\#(y)],[2,2]]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]],[[5.1,5.1],[5.2,5.1],[5.2,5.2],[5.1,5.1]]]]}"#,
        ]
        let properties = [
            #"{"name":"place \#(i)","pop":\#(i * 37),"area":\#(x),"capital":\#(i % 2 == 0),"note":null}"#,
            #"{"name":"é\u00e9 \#(i)","pop":-\#(i),"tags":["a",{"b":1}],"area":1e3}"#,
            #"{"pop":\#(i),"name":"n"}"#,
            "{}",
        ]
        let ids = ["", #""id":\#(i),"#, #""id":"f\#(i)","#, #""id":-\#(i).5,"#]
        let geometry = geometries[Int.random(in: 0..<geometries.count, using: &rng)]
        let props = properties[i % 3 == 0 ? Int.random(in: 0..<properties.count, using: &rng) : 0]
        let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return #"{"type":"Feature",\#(id)"geometry":\#(geometry),"properties":\#(props)}"#
        case 1: return #"{ "properties" : \#(props) , \#(id) "geometry" : \#(geometry) , "type" : "Feature" }"#
        default: return #"{\#(id)"type":"Feature","properties":\#(props),"geometry":\#(geometry)}"#
        }
    }

    /// Collections of common features, then with one byte changed or the text cut: the
    /// fast path reads what it can and hands the rest over, and nothing differs.
    func testCommonFeaturesWithEditsAgree() {
        var rng = SplitMix64(seed: 6901)
        var fast = 0, features = 0, modelFast = 0, modelFeatures = 0
        for round in 0..<400 {
            var text = #"{"type":"FeatureCollection","features":["#
            for i in 0..<Int.random(in: 1...12, using: &rng) {
                if i > 0 { text += "," }
                text += Self.commonFeature(i, &rng)
            }
            text += "]}"
            var bytes = Array(text.utf8)
            if round % 3 != 0 {
                let k = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[k] = Array(#"{}[],:"0-9 .eE\nulxt"#.utf8).randomElement(using: &rng)!
            }
            if round % 5 == 1 { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
            assertPathsAgree(bytes, String(decoding: bytes, as: UTF8.self))
            let read = Self.read(bytes, fast: true, chunk: nil, policy: .skip, batchBytes: 300)
            fast += read.fastReads
            features += read.batches.reduce(0) { $0 + $1.count }
            let model = Self.readModel(bytes, fast: true, chunk: nil, options: GeoJSONReadOptions(), policy: .skip)
            modelFast += model.fastReads
            modelFeatures += model.features.count
        }
        // The fast path reads most of these features (not only hands them over), and never
        // runs when it is off.
        XCTAssertGreaterThan(fast, features * 3 / 4, "\(fast) of \(features) features read by the fast path")
        XCTAssertGreaterThan(modelFast, modelFeatures * 3 / 4, "\(modelFast) of \(modelFeatures) model features read by the fast path")
        XCTAssertEqual(Self.read(Array(#"{"type":"FeatureCollection","features":[\#(Self.commonFeature(1, &rng))]}"#.utf8), fast: false,
                                 chunk: nil, policy: .fail, batchBytes: 300).fastReads, 0)
    }

    /// The shapes the fast path hands over: each is read by the validating path, with its
    /// result, error or finding, exactly as before.
    func testHandedOverShapesAgree() {
        let features = [
            #"{"type":"Feature","geometry":null,"properties":{"a":1}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}"#,
            #"{"type":"Feature","properties":{}}"#,
            #"{"type":"Feature","bbox":[0,0,1,1],"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","title":"kept","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2],"bbox":[1,2,1,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3,4]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[[1,2]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[[3,4]]]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1,"a":2}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"\u0061":1}}"#,
            #"{"type":"Feature","id":"\u0041","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","id":true,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","id":1,"id":2,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Point","coordinates":[1,2]}"#,
            #"{"type":"Featur","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","coordinates":[1,2],"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"point","coordinates":[1,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1e400,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[01,2]},"properties":{}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"big":18446744073709551616}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"s":"\ud800"}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"x":[1,2}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"x":1},"geometries":[]}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"x":1},"crs":null}"#,
            #"{}"#, "[]", "null", "7",
        ]
        let common = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"a":1,"b":"x"}}"#
        for f in features {
            let text = #"{"type":"FeatureCollection","features":[\#(common),\#(f),\#(common)]}"#
            assertPathsAgree(Array(text.utf8), text)
        }
    }

    /// A source that fails after `failAt` bytes (an I/O error, not bad data).
    struct FailingSource: GeoJSONByteSource {
        let bytes: [UInt8]
        let failAt: Int
        var position = 0

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(GeoJSONSourceError) -> Int {
            guard position < failAt else { throw GeoJSONSourceError("disk gone") }
            let n = min(buffer.count, 5, failAt - position, bytes.count - position)
            guard n > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
            position += n
            return n
        }
    }

    /// A read that fails inside a feature the fast path is reading: the same error (kind,
    /// location and member path) and the same batches (the unfinished feature taken back
    /// out) as the validating path's. (A failure is reported at the first byte the reader
    /// needs and cannot have, so the sizes of the reads before it, which the fast path
    /// changes, do not matter.)
    func testFailedReadsAgree() {
        var rng = SplitMix64(seed: 6902)
        var text = #"{"type":"FeatureCollection","features":["#
        for i in 0..<6 {
            if i > 0 { text += "," }
            text += Self.commonFeature(i, &rng)
        }
        text += "]}"
        let bytes = Array(text.utf8)
        var failures = 0
        for failAt in stride(from: 40, to: bytes.count, by: 7) {
            func read(fast: Bool) -> Outcome {
                var options = GeoJSONReadOptions()
                options._fastPath = fast
                return Self.drain(GeoJSONBatchReader(source: FailingSource(bytes: bytes, failAt: failAt), chunkSize: 16,
                                                     options: options, batchBytes: 1 << 20))
            }
            let slow = read(fast: false), fast = read(fast: true)
            XCTAssertTrue(slow == fast, "failing at byte \(failAt):\n slow \(slow)\n fast \(fast)")
            if case .readFailed? = fast.error?.kind { failures += 1 }
        }
        XCTAssertGreaterThan(failures, 50)
    }

    /// Every JSON file of the shared corpora, in memory and in small reads.
    func testCorporaAgree() throws {
        let root = TestPaths.shared("")
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw XCTSkip("no shared corpora") }
        var files = 0
        while let name = walker.nextObject() as? String {
            guard name.hasSuffix(".json") || name.hasSuffix(".geojson"),
                  let data = FileManager.default.contents(atPath: root + "/" + name), data.count < 3_000_000 else { continue }
            files += 1
            let bytes = [UInt8](data)
            if bytes.count < 200_000 {
                assertPathsAgree(bytes, name)
            } else {
                let slow = Self.read(bytes, fast: false, chunk: nil, policy: .fail, batchBytes: 1 << 20)
                let fast = Self.read(bytes, fast: true, chunk: nil, policy: .fail, batchBytes: 1 << 20)
                XCTAssertTrue(slow == fast, name)
            }
        }
        if files == 0 { throw XCTSkip("no shared corpora") }
    }
}
