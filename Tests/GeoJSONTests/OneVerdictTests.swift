import JSON
import GraticuleTestSupport
import XCTest
import Foundation
@testable import GeoJSON
import GeoModel

/// Every reader of a file gives the validator's verdict: a feature that breaks a MUST of
/// RFC 7946 that reading could go past is invalid everywhere unless the reader is told to
/// be lenient, and then it is counted, never passed over in silence.
final class OneVerdictTests: XCTestCase {
    /// Feature 1 has no `geometry` (RFC7946-3.2), feature 2 no `properties` (RFC7946-3.2),
    /// feature 3 a `coordinates` member (RFC7946-7.1).
    static let collection = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}},
        {"type":"Feature","properties":{"a":2}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]}},
        {"type":"Feature","geometry":null,"properties":null,"coordinates":[5,6]}
        ]}
        """
    static let sequence = """
        {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}
        {"type":"Feature","properties":{"a":2}}
        {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":null}

        """

    var folder = ""

    override func setUpWithError() throws { folder = try TestPaths.newFolder("one-verdict") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// RFC7946-3.2, RFC7946-7.1: the validator's errors, located.
    func testValidatorFindsThree() {
        let report = GeoJSONValidator.validate(Array(Self.collection.utf8))
        XCTAssertEqual(report.errors.map(\.rule), ["RFC 7946 §3.2", "RFC 7946 §3.2", "RFC 7946 §7.1"])
        XCTAssertEqual(report.errors.map(\.location.line), [3, 4, 5])
        XCTAssertEqual(report.featureCount, 4)
    }

    /// RFC7946-3.2: a stream is strict by default, so a collection with such a feature ends
    /// with the validator's first error, in both the model and the batch reading.
    func testStreamRefusesByDefault() throws {
        let path = try file("c.geojson", Self.collection)
        var stream = try GeoJSONFeatureStream(path: path)
        var seen = 0
        XCTAssertThrowsError(try stream.forEach { _ in seen += 1 }) { e in
            XCTAssertEqual((e as? GeoJSONError)?.location.line, 3)
            XCTAssertTrue("\(e)".contains("\"geometry\" member"), "\(e)")
        }
        XCTAssertEqual(seen, 1)
        var batches = try GeoJSONFeatureStream(path: path)
        XCTAssertThrowsError(try batches.forEachBatch(options: .propertyNamesOnly) { _ in }) { e in
            XCTAssertEqual((e as? GeoJSONError)?.location.line, 3)
        }
    }

    /// Skipping invalid features (as `profile` reads) lists all three, in order.
    func testSkippingStreamListsEveryViolation() throws {
        let path = try file("c.geojson", Self.collection)
        for batched in [false, true] {
            var stream = try GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
            var problems: [GeoJSONFeatureStream.Problem] = []
            let n = batched
                ? try stream.forEachBatch(problem: { problems.append($0) }) { _ in }
                : try stream.forEach(problem: { problems.append($0) }) { _ in }
            XCTAssertEqual(n, 1, "batched: \(batched)")
            XCTAssertEqual(problems.map(\.index), [1, 2, 3], "batched: \(batched)")
            XCTAssertEqual(stream.toleratedViolations, 0)
        }
    }

    /// A lenient stream reads the four features and counts the three violations.
    func testLenientStreamCounts() throws {
        let path = try file("c.geojson", Self.collection)
        for batched in [false, true] {
            var stream = try GeoJSONFeatureStream(path: path, lenient: true)
            var nullGeometries = 0
            let n = batched
                ? try stream.forEachBatch { b in nullGeometries += (0..<b.count).filter { b.geometry($0) == nil }.count }
                : try stream.forEach { f in if f.geometry == nil { nullGeometries += 1 } }
            XCTAssertEqual(n, 4, "batched: \(batched)")
            XCTAssertEqual(nullGeometries, 2, "batched: \(batched)")
            XCTAssertEqual(stream.toleratedViolations, 3, "batched: \(batched)")
        }
    }

    /// RFC7946-3.2 in a newline-delimited sequence: a broken element by default (as the
    /// validator sees it), read and counted when lenient.
    func testSequenceElements() throws {
        let path = try file("s.ndjson", Self.sequence)
        var stream = try GeoJSONFeatureStream(path: path)
        var problems: [GeoJSONFeatureStream.Problem] = []
        XCTAssertEqual(try stream.forEach(problem: { problems.append($0) }) { _ in }, 2)
        XCTAssertEqual(problems.map(\.index), [1])
        var lenient = try GeoJSONFeatureStream(path: path, lenient: true)
        XCTAssertEqual(try lenient.forEach { _ in }, 3)
        XCTAssertEqual(lenient.toleratedViolations, 1)
        let report = try GeoJSONValidator.validateSequence(source: try FileByteSource(path: path))
        XCTAssertEqual(report.errors.count, 1)
        XCTAssertEqual(report.featureCount, 3)
    }

    /// A lone Feature is one feature to the validator as to the readers, and the stream
    /// names what the file is.
    func testLoneObjectsCountOne() throws {
        let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}"#
        XCTAssertEqual(GeoJSONValidator.validate(Array(feature.utf8)).featureCount, 1)
        let point = #"{"type":"Point","coordinates":[1,2]}"#
        XCTAssertEqual(GeoJSONValidator.validate(Array(point.utf8)).featureCount, 1)
        for (text, layout) in [(feature, "GeoJSON Feature"), (point, "GeoJSON Point"), (Self.sequence, "newline-delimited GeoJSON")] {
            for batched in [false, true] {
                var stream = try GeoJSONFeatureStream(path: try file(text == Self.sequence ? "one.ndjson" : "one.json", text), lenient: true)
                let n = batched ? try stream.forEachBatch { _ in } : try stream.forEach { _ in }
                XCTAssertEqual(n, text == Self.sequence ? 3 : 1)
                XCTAssertEqual(stream.layout, layout, "batched: \(batched)")
            }
        }
        let bare = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}"#
        XCTAssertEqual(GeoJSONValidator.validate(Array(bare.utf8)).errors.map(\.rule), ["RFC 7946 §3.2"])
        var strict = try GeoJSONFeatureStream(path: try file("bare.json", bare))
        XCTAssertThrowsError(try strict.forEach { _ in })
    }

    /// The count does not depend on the read window: a violation is counted once however
    /// the text is cut.
    func testCountIsIndependentOfChunks() throws {
        let bytes = Array(Self.collection.utf8)
        var options = GeoJSONReadOptions()
        options.strict = false
        for chunk in [1, 7, 64, bytes.count] {
            let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: max(chunk, 16),
                                              options: options)
            var n = 0
            while try reader.next() != nil { n += 1 }
            XCTAssertEqual(n, 4, "chunk \(chunk)")
            XCTAssertEqual(reader.toleratedViolations, 3, "chunk \(chunk)")
        }
    }
}
