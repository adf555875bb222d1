import JSON
import GraticuleSupport
import XCTest
@testable import GeoJSON
import GeoModel

/// A source that cannot re-read, so the reader counts lines itself as it releases bytes.
struct OneWaySource: GeoJSONByteSource {
    var inner: ChunkedByteSource
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(GeoJSONSourceError) -> Int {
        try inner.read(into: buffer)
    }
}

/// Randomised properties of the reader: whatever the input (valid or mutated), the
/// outcome — the document, or the error with its kind, location and path — is the same for
/// the whole-buffer reader and for chunked readers of any chunk size, over re-readable and
/// one-way sources; and nothing crashes or hangs.
final class ReaderPropertyTests: XCTestCase {

    func outcome(_ f: () throws -> GeoJSONDocument) -> String {
        do { return "ok \(try f())" } catch { return "error \(error)" }
    }

    func testChunkingNeverChangesTheOutcome() {
        var rng = SplitMix64(seed: 42)
        let base = Array((GeoJSONReaderTests.sample + "\n" + "\r\n  ").utf8)
        let alphabet = Array("{}[],:\"\\-0123456789.eE tfnul\n\r\u{1E}é".utf8)
        for round in 0..<400 {
            var bytes = base
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = alphabet.randomElement(using: &rng)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &rng)!, at: i)
                }
            }
            let whole = outcome { try GeoJSONReader.read(bytes) }
            let size = [1, 2, 3, 7, 64, 1000][round % 6]
            XCTAssertEqual(outcome { try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: size), chunkSize: size) },
                           whole, "round \(round) chunk \(size)")
            XCTAssertEqual(outcome { try GeoJSONReader.read(from: OneWaySource(inner: ChunkedByteSource(bytes, chunkSize: size)), chunkSize: size) },
                           whole, "round \(round) chunk \(size), one-way source")
        }
    }

    /// Random valid documents: write → read gives the same model; reading in chunks too.
    func testRandomDocumentsRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        func coordinate() -> Double {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return Double(Int.random(in: -180...180, using: &rng))
            case 1: return Double.random(in: -180...180, using: &rng)
            case 2: return Double(bitPattern: rng.next() & 0x3FFF_FFFF_FFFF_FFFF) // any finite positive
            default: return -Double.random(in: 0...1e-300, using: &rng)
            }
        }
        func value(_ depth: Int) -> PropertyValue {
            switch Int.random(in: 0..<(depth > 2 ? 6 : 8), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: .min ... .max, using: &rng))
            case 3: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &rng))
            case 4: return .double(coordinate())
            case 5: return .string(String((0..<Int.random(in: 0...12, using: &rng)).map { _ in "aé\"\\\n😀 \u{1}x".randomElement(using: &rng)! }))
            case 6: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) })
            default:
                var o = PropertyList()
                for k in 0..<Int.random(in: 0...3, using: &rng) { o.append(key: "k\(k)", value: value(depth + 1)) }
                return .object(o)
            }
        }
        func ring() -> [Double] {
            var c: [Double] = []
            for _ in 0..<Int.random(in: 3...6, using: &rng) { c += [coordinate(), coordinate()] }
            return c + [c[0], c[1]]
        }
        func geometry(_ depth: Int) -> Geometry {
            switch Int.random(in: 0..<(depth > 1 ? 6 : 7), using: &rng) {
            case 0: return Geometry(kind: .point, coordinates: [coordinate(), coordinate()])
            case 1: return Geometry(kind: .multiPoint, coordinates: (0..<4).flatMap { _ in [coordinate(), coordinate()] })
            case 2: return Geometry(kind: .lineString, coordinates: (0..<3).flatMap { _ in [coordinate(), coordinate()] }, partStarts: [0])
            case 3:
                let a = ring(), b = ring()
                return Geometry(kind: .polygon, coordinates: a + b, partStarts: [0, a.count / 2], polygonStarts: [0])
            case 4:
                let a = ring(), b = ring(), c = ring()
                return Geometry(kind: .multiPolygon, coordinates: a + b + c, partStarts: [0, a.count / 2, (a.count + b.count) / 2],
                                polygonStarts: [0, 2])
            case 5:
                let c: [Double] = [coordinate(), coordinate(), coordinate(), coordinate(), coordinate(), .nan]
                return Geometry(kind: .lineString, coordinates: c, partStarts: [0], dimensions: 3)
            default: return .collection((0..<Int.random(in: 0...3, using: &rng)).map { _ in geometry(depth + 1) })
            }
        }
        for round in 0..<100 {
            var features: [GeoFeature] = []
            for i in 0..<Int.random(in: 0...6, using: &rng) {
                let id: FeatureID? = [nil, .string("f\(i)"), .int(Int64(i) - 3), .double(0.5 + Double(i))][Int.random(in: 0..<4, using: &rng)]
                var props = PropertyList()
                for k in 0..<Int.random(in: 0...4, using: &rng) { props.append(key: "p\(k)", value: value(0)) }
                features.append(GeoFeature(id: id, geometry: Bool.random(using: &rng) ? geometry(0) : nil,
                                           properties: Bool.random(using: &rng) ? props : nil))
            }
            let doc = GeoJSONDocument(object: .featureCollection(features), bbox: nil, crs: nil)
            let text = GeoJSONWriter.encode(doc)
            XCTAssertEqual(try GeoJSONReader.read(text), doc, "round \(round): \(String(decoding: text, as: UTF8.self))")
            let size = Int.random(in: 1...50, using: &rng)
            XCTAssertEqual(try GeoJSONReader.read(from: ChunkedByteSource(text, chunkSize: size), chunkSize: size), doc)
        }
    }
}
