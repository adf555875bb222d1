import JSON
import GraticuleTestSupport
import XCTest
import Foundation
@testable import GeoJSON
import GeoModel

final class StreamingTests: XCTestCase {
    static var corpus: String {
        TestPaths.shared("geojson")
    }

    func corpusFile(_ name: String) throws -> [UInt8] {
        let path = Self.corpus + "/" + name
        guard let d = FileManager.default.contents(atPath: path) else { throw XCTSkip("\(name) not found") }
        return [UInt8](d)
    }

    /// Every number of the real-world files, bit-identical to an independent oracle: the
    /// number tokens cut out by a regular expression and converted by the standard
    /// library's `Double(_:)` (glibc strtod_l, correctly rounded). Bit patterns are
    /// compared one by one (a sum would hide mis-rounding).
    func testCorpusNumbersAreBitExact() throws {
        for name in ["canada.json", "ne_10m_coastline.json", "ne_10m_populated_places.json"] {
            let bytes = try corpusFile(name)
            let text = String(decoding: bytes, as: UTF8.self)
            // Numbers outside strings: strip strings first, then take number tokens.
            let noStrings = text.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
            let regex = try NSRegularExpression(pattern: #"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?"#)
            let ns = noStrings as NSString
            var oracle: [Double] = []
            for m in regex.matches(in: noStrings, range: NSRange(location: 0, length: ns.length)) {
                oracle.append(Double(ns.substring(with: m.range))!)
            }
            var ours: [Double] = []
            func walk(_ v: PropertyValue) {
                switch v {
                case .double(let d): ours.append(d)
                case .int(let i): ours.append(Double(i))
                case .uint(let u): ours.append(Double(u))
                case .array(let a): a.forEach(walk)
                case .object(let o): o.values.forEach(walk)
                default: break
                }
            }
            walk(try JSONValueReader.read(bytes))
            XCTAssertEqual(ours.count, oracle.count, name)
            var mismatches = 0
            for (a, b) in zip(ours, oracle) where a.bitPattern != b.bitPattern { mismatches += 1 }
            XCTAssertEqual(mismatches, 0, name)
            print("\(name): \(ours.count) numbers, \(mismatches) differ from the oracle")
        }
    }

    /// The coordinates in the GeoModel equal the JSON numbers (canada: coordinates only).
    func testCanadaCoordinatesMatchJSONLayer() throws {
        let bytes = try corpusFile("canada.json")
        let doc = try GeoJSONReader.read(bytes)
        guard case .featureCollection(let fs) = doc.object else { return XCTFail() }
        var fromModel: [Double] = []
        for f in fs { fromModel += f.geometry?.coordinates ?? [] }
        var fromJSON: [Double] = []
        func walk(_ v: PropertyValue, inCoordinates: Bool) {
            switch v {
            case .double(let d) where inCoordinates: fromJSON.append(d)
            case .int(let i) where inCoordinates: fromJSON.append(Double(i))
            case .array(let a): a.forEach { walk($0, inCoordinates: inCoordinates) }
            case .object(let o): for (k, v) in o { walk(v, inCoordinates: inCoordinates || k == "coordinates") }
            default: break
            }
        }
        walk(try JSONValueReader.read(bytes), inCoordinates: false)
        XCTAssertEqual(fromModel.count, 111_126 - 0)
        XCTAssertEqual(fromModel.map(\.bitPattern), fromJSON.map(\.bitPattern))
    }

    /// Streaming gives exactly the features of the whole-buffer read, at several chunk
    /// sizes, on the real-world files.
    func testFeatureReaderMatchesWholeRead() throws {
        for name in ["canada.json", "ne_10m_populated_places.json"] {
            let bytes = try corpusFile(name)
            guard case .featureCollection(let whole) = try GeoJSONReader.read(bytes).object else { return XCTFail() }
            for chunk in [65_536, 4096, 1000] {
                let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk)
                var i = 0
                while let f = try reader.next() {
                    XCTAssertEqual(f, whole[i], "\(name) feature \(i) chunk \(chunk)")
                    i += 1
                }
                XCTAssertEqual(i, whole.count)
                XCTAssertLessThanOrEqual(reader.windowCapacity, 4 * max(chunk, 1 << 20), "window stays bounded")
            }
        }
    }

    /// The first feature is available after reading only its bytes.
    func testFirstFeatureArrivesEarly() throws {
        let bytes = try corpusFile("ne_10m_coastline.json")
        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: 4096), chunkSize: 4096)
        XCTAssertNotNil(try reader.next())
        XCTAssertLessThan(reader.bytesConsumed, bytes.count / 100)
    }

    /// Member order: `type` after `features`; `bbox` before `features`.
    func testFeatureReaderMemberOrder() throws {
        let text = #"{"bbox":[0,0,1,1],"features":[{"type":"Feature","geometry":null,"properties":{"k":1}}],"type":"FeatureCollection"}"#
        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(Array(text.utf8), chunkSize: 3), chunkSize: 3)
        XCTAssertEqual(try reader.next()?.properties?["k"], .int(1))
        XCTAssertNil(try reader.next())
        XCTAssertEqual(reader.bbox, [0, 0, 1, 1])
        // A collection whose type turns out wrong at the end is rejected.
        let wrong = #"{"features":[],"type":"Feature"}"#
        let r2 = GeoJSONFeatureReader(source: ChunkedByteSource(Array(wrong.utf8), chunkSize: 5))
        XCTAssertThrowsError(try r2.next())
    }

    /// Invalid features: fail by default; with `.skip` they are reported with index,
    /// location and reason, and the others still arrive.
    func testSkipInvalidFeatures() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"i":0},"geometry":{"type":"Point","coordinates":[0,0]}},
        {"type":"Feature","properties":{"i":1},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[0,0]]]}},
        {"type":"Feature","properties":{"i":2},"geometry":{"type":"Pointy","coordinates":[0,0]}},
        {"type":"Feature","properties":{"i":3},"geometry":null}
        ]}
        """
        let strict = GeoJSONFeatureReader(source: ChunkedByteSource(Array(text.utf8), chunkSize: 16), chunkSize: 16)
        XCTAssertNotNil(try strict.next())
        XCTAssertThrowsError(try strict.next()) { e in
            XCTAssertEqual((e as? GeoJSONError)?.path.prefix(2).map { $0 }, [.key("features"), .index(1)])
        }
        let lenient = GeoJSONFeatureReader(source: ChunkedByteSource(Array(text.utf8), chunkSize: 16), chunkSize: 16,
                                           onInvalidFeature: .skip)
        var got: [PropertyValue?] = []
        while let f = try lenient.next() { got.append(f.properties?["i"]) }
        XCTAssertEqual(got, [.int(0), .int(3)])
        XCTAssertEqual(lenient.skipped.map(\.index), [1, 2])
        XCTAssertEqual(lenient.skipped.map(\.location.line), [3, 4])
    }

    /// RFC 8142 sequences: heterogeneous elements, repeated RS, a truncated element
    /// reported and skipped (RFC 7464 §2.1); newline-delimited detected.
    func testTextSequences() throws {
        let rs = "\u{1E}"
        let text = rs + #"{"type":"Point","coordinates":[1,2]}"# + "\n" + rs + rs
            + #"{"type":"Feature","geometry":null,"properties":{}}"# + "\n" + rs
            + #"{"type":"FeatureCollection","features":[{"type":"Feat"# + "\n" + rs
            + #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"# + "\n"
        for chunk in [1, 5, 4096] {
            let r = GeoJSONSequenceReader(source: ChunkedByteSource(Array(text.utf8), chunkSize: chunk), chunkSize: chunk)
            var kinds: [String] = []
            while let o = try r.next() {
                switch o {
                case .geometry(let g): kinds.append(g.kind.rawValue)
                case .feature: kinds.append("Feature")
                case .featureCollection: kinds.append("FeatureCollection")
                }
            }
            XCTAssertEqual(kinds, ["Point", "Feature", "LineString"])
            XCTAssertEqual(r.format, .rfc8142)
            XCTAssertEqual(r.broken.map(\.index), [2])
        }
        let ndjson = #"{"type":"Point","coordinates":[1,2]}"# + "\n" + #"{"type":"Point","coordinates":[1,"#
            + "\n" + #"{"type":"Point","coordinates":[3,4]}"# + "\n"
        let r = GeoJSONSequenceReader(source: ChunkedByteSource(Array(ndjson.utf8), chunkSize: 8), chunkSize: 8)
        var n = 0
        while try r.next() != nil { n += 1 }
        XCTAssertEqual(n, 2)
        XCTAssertEqual(r.format, .newlineDelimited)
        XCTAssertEqual(r.broken.count, 1)
    }
}

/// Inputs that are not regular files: a directory is refused when opened; a pipe is read
/// once, its first bytes peeked for the format without being lost.
final class InputKindTests: XCTestCase {
    func testDirectoryIsRefused() {
        XCTAssertThrowsError(try FileByteSource(path: NSTemporaryDirectory())) {
            XCTAssertTrue("\($0)".contains("is a directory"), "\($0)")
        }
    }

    func testPipeIsPeekedAndReadOnce() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let text = "\u{1E}{\"type\":\"Point\",\"coordinates\":[1,2]}\n\u{1E}{\"type\":\"Point\",\"coordinates\":[3,4]}\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        let source = try FileByteSource(path: "/dev/fd/\(fds[0])")
        XCTAssertNil(source.size)
        XCTAssertEqual(source.peek(3), Array(bytes.prefix(3)))
        XCTAssertTrue(GeoJSONFeatureStream.isSequence(source, format: .auto), "the RS byte is seen in a pipe")
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 7)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            all += chunk.prefix(n)
        }
        XCTAssertEqual(all, bytes, "the peeked bytes are handed out first, nothing lost or repeated")
        XCTAssertEqual(source.bytesRead, bytes.count)
        close(fds[0])
    }
}
