import JSON
import GraticuleSupport
import GraticuleTestSupport
import XCTest
import GeoModel
import GeoJSON

final class GeoJSONWriterTests: XCTestCase {
    /// RFC 8259 §7: quote, backslash and control characters must be escaped.
    func testStringEscapes() {
        XCTAssertEqual(GeoJSONWriter.string("plain"), "\"plain\"")
        XCTAssertEqual(GeoJSONWriter.string("a\"b\\c"), "\"a\\\"b\\\\c\"")
        XCTAssertEqual(GeoJSONWriter.string("\n\t\u{01}\u{1F}"), "\"\\n\\t\\u0001\\u001f\"")
        XCTAssertEqual(GeoJSONWriter.string("é😀/"), "\"é😀/\"")
        // Long strings are checked eight bytes at a time: an escape at every position of
        // a word, and in the tail.
        for n in [7, 8, 9, 15, 16, 17, 31] {
            for at in 0..<n {
                var plain = Array(repeating: Character("a"), count: n)
                plain[at] = "\""
                let expected = "\"" + String(plain).replacingOccurrences(of: "\"", with: "\\\"") + "\""
                XCTAssertEqual(GeoJSONWriter.string(String(plain)), expected, "quote at \(at) of \(n)")
                plain[at] = "\u{1F}"
                XCTAssertEqual(GeoJSONWriter.string(String(plain)), "\"" + String(plain).replacingOccurrences(of: "\u{1F}", with: "\\u001f") + "\"")
            }
            let long = String(repeating: "é", count: n)
            XCTAssertEqual(GeoJSONWriter.string(long), "\"" + long + "\"", "bytes of 0x80 and above need no escape")
        }
    }

    /// RFC 8259 §7 on random strings of every length up to 40 (the writer checks and
    /// copies them a word at a time, in three ways by length), written one after another
    /// into one buffer, against a scalar-by-scalar escaper; small and heap strings alike.
    func testStringEscapesOfEveryLength() {
        let alphabet: [Unicode.Scalar] = ["a", "Z", " ", "/", "\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "😀"]
        func reference(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default:
                    if u.value < 0x20 { out += "\\u00" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16) } else { out.unicodeScalars.append(u) }
                }
            }
            return out + "\""
        }
        var rng = SplitMix64(seed: 42)
        for trial in 0..<400 {
            var items: [PropertyValue] = []
            var expected: [String] = []
            for _ in 0..<8 {
                let length = Int(rng.next() % 41)
                let plainOnly = rng.next() % 2 == 0
                var s = ""
                if rng.next() % 2 == 0 { s.reserveCapacity(64) }   // a heap string, even when short
                while s.utf8.count < length {
                    let u = plainOnly ? alphabet[Int(rng.next() % 4)] : alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    s.unicodeScalars.append(u)
                }
                items.append(.string(s))
                expected.append(reference(s))
            }
            let text = GeoJSONWriter.value(.array(items))
            XCTAssertEqual(text, "[" + expected.joined(separator: ",") + "]", "trial \(trial)")
        }
    }

    /// A copy of a writer is a value: writing into either (through every public entry)
    /// leaves the other's text as it was.
    func testCopiesAreIndependent() {
        var a = GeoJSONWriter()
        a.writeString("shared")
        let writes: [(inout GeoJSONWriter) -> Void] = [
            { $0.writeString("x") }, { $0.writeNumber(1.5) }, { $0.writeInteger(-7) }, { $0.writeUnsigned(1 << 63) },
            { $0.writeValue(.bool(true)) }, { $0.writeObject(["k": .null]) }, { $0.writeFeatureID(.int(3)) },
            { $0.writeGeometry(Geometry(kind: .point, coordinates: [1, 2])) },
            { $0.writeFeature(GeoFeature(geometry: nil)) }, { $0.write(.featureCollection([])) },
        ]
        for (i, write) in writes.enumerated() {
            var b = a
            write(&b)
            XCTAssertEqual(String(decoding: a.bytes, as: UTF8.self), "\"shared\"", "write \(i) changed the original")
            XCTAssertGreaterThan(b.count, a.count, "write \(i)")
            write(&a)
            XCTAssertEqual(a.bytes, b.bytes, "write \(i)")
            a = GeoJSONWriter()
            a.writeString("shared")
        }
    }

    /// Objects that share one array of names (as the reader makes them) are written from
    /// names rendered once: the text must be that of the same objects with arrays of
    /// their own, with nested objects that share another array between the members,
    /// names to escape, long names, the empty name, and a caller's change to the array.
    func testSharedMemberNamesWriteTheSameText() throws {
        var rng = SplitMix64(seed: 7)
        let pool = ["a", "", "name", "a\"quote", "back\\slash", "tab\t", "exactly-16-bytes", "a name longer than sixteen bytes", "é€😀"]
        for trial in 0..<300 {
            let outerCount = 2 + Int(rng.next() % 6)
            var outerKeys: [String] = []
            while outerKeys.count < outerCount { outerKeys.append(pool[Int(rng.next() % UInt64(pool.count))] + String(outerKeys.count)) }
            let innerKeys = ["x", "y\u{1}", String(trial)]
            func inner(_ i: Int) -> PropertyList {
                var l = PropertyList()
                l.keys = innerKeys
                l.values = [.int(Int64(i)), .string("v\(i)"), .null]
                return l
            }
            var shared: [PropertyValue] = []
            var own: [PropertyValue] = []
            var keys = outerKeys
            for f in 0..<(2 + Int(rng.next() % 4)) {
                if f == 3 { keys[0] += "!" }   // the caller changes its array: a new buffer
                var values: [PropertyValue] = []
                for i in 0..<outerCount {
                    values.append(rng.next() % 3 == 0 ? .object(inner(i)) : .string("s\(i)\(f)"))
                }
                var a = PropertyList()
                a.keys = keys
                a.values = values
                shared.append(.object(a))
                var b = PropertyList()
                b.keys = keys.map { String(decoding: Array($0.utf8), as: UTF8.self) }
                b.values = values
                own.append(.object(b))
            }
            let text = GeoJSONWriter.value(.array(shared))
            XCTAssertEqual(text, GeoJSONWriter.value(.array(own)), "trial \(trial)")
            let back = try JSONValueReader.read(Array(text.utf8))
            XCTAssertEqual(back, .array(shared), "trial \(trial)")
        }
    }

    func testNumbers() {
        XCTAssertEqual(GeoJSONWriter.number(10), "10")
        XCTAssertEqual(GeoJSONWriter.number(-0.5), "-0.5")
        XCTAssertEqual(GeoJSONWriter.number(0.1), "0.1")
        XCTAssertEqual(GeoJSONWriter.number(.nan), "null")
        // Zeros: a property's double keeps its fraction and sign; a coordinate's +0 is "0".
        XCTAssertEqual(GeoJSONWriter.value(.double(0)), "0.0")
        XCTAssertEqual(GeoJSONWriter.value(.double(-0.0)), "-0.0")
        XCTAssertEqual(GeoJSONWriter.number(0), "0")
        XCTAssertEqual(GeoJSONWriter.number(-0.0), "-0.0")
        XCTAssertEqual(Double(GeoJSONWriter.number(85.0511287798066)), 85.0511287798066, "round trip")
        // Where the point falls: after every digit count, and before padding zeros.
        let fixed: [(Double, String)] = [
            (1.5, "1.5"), (100.5, "100.5"), (123.0, "123.0"), (0.001, "0.001"), (1e-8, "0.00000001"),
            (0.000123, "0.000123"), (12.25, "12.25"), (-65.61361699999998, "-65.61361699999998"),
            (12345678901234.5, "12345678901234.5"), (0.1234567890123456, "0.1234567890123456"), (9.5, "9.5"),
            (99.25, "99.25"), (10.125, "10.125"),
        ]
        for (v, text) in fixed { XCTAssertEqual(GeoJSONWriter.value(.double(v)), text) }
    }

    /// RFC 7946 §3.1.2–3.1.7 and §3.2, hand-written expected text.
    func testGeometriesAndFeature() {
        let poly = Geometry(kind: .polygon, coordinates: [0, 0, 1, 0, 1, 1, 0, 0], partStarts: [0], polygonStarts: [0])
        XCTAssertEqual(GeoJSONWriter.geometry(poly),
                       "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}")
        let lines = Geometry(kind: .multiLineString, coordinates: [0, 0, 1, 1, 5, 5, 6, 6.5], partStarts: [0, 2])
        XCTAssertEqual(GeoJSONWriter.geometry(lines),
                       "{\"type\":\"MultiLineString\",\"coordinates\":[[[0,0],[1,1]],[[5,5],[6,6.5]]]}")
        XCTAssertEqual(GeoJSONWriter.geometry(Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4])),
                       "{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[3,4]]}")
        XCTAssertEqual(GeoJSONWriter.feature(id: .uint(7), geometry: Geometry(kind: .point, coordinates: [1.5, 2]),
                                             properties: [("name", .string("x")), ("n", .int(-3)), ("ok", .bool(true)), ("z", .null)]),
                       "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1.5,2]},\"properties\":{\"name\":\"x\",\"n\":-3,\"ok\":true,\"z\":null}}")
        XCTAssertEqual(GeoJSONWriter.feature(geometry: nil, properties: []),
                       "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}")
    }
}

import GeoJSON

/// write(read(x)) reads back equal, on hand-made objects and on the real-world files.
final class GeoJSONRoundTripTests: XCTestCase {
    func testRoundTripSample() throws {
        let doc = try GeoJSONReader.read(Array(GeoJSONReaderTests.sample.utf8))
        let text = GeoJSONWriter.encode(doc)
        XCTAssertEqual(try GeoJSONReader.read(text), doc)
        // Writing is deterministic: a second round gives the same bytes.
        XCTAssertEqual(GeoJSONWriter.encode(try GeoJSONReader.read(text)), text)
    }

    /// The obsolete `crs` member (RFC 7946 §4) is written back as read; regression input
    /// from the fuzzer (corpora/regressions/geojson).
    func testCRSIsWrittenBack() throws {
        for text in [#"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"x"}},"features":[]}"#,
                     #"{"type":"Point","bbox":[0,0,0,0],"crs":null,"coordinates":[0,0]}"#] {
            let doc = try GeoJSONReader.read(Array(text.utf8))
            XCTAssertEqual(try GeoJSONReader.read(GeoJSONWriter.encode(doc)), doc)
        }
        let dir = TestPaths.corpora("regressions/geojson")
        for f in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/" + f)!)
            if let doc = try? GeoJSONReader.read(bytes) {
                XCTAssertEqual(try GeoJSONReader.read(GeoJSONWriter.encode(doc)), doc, f)
            }
        }
    }

    func testNumberFormsRoundTripBitExact() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = GeoJSONWriter.number(d)
            let back = try? JSONValueReader.read(Array(text.utf8))
            switch back {
            case .double(let x)?: XCTAssertEqual(x.bitPattern, d.bitPattern, text)
            case .int(let i)?: XCTAssertEqual(Double(i), d, text)
            default: XCTFail("\(text) did not read back")
            }
        }
        XCTAssertEqual(GeoJSONWriter.number(-0.0), "-0.0")
        XCTAssertEqual(GeoJSONWriter.value(.double(10)), "10.0")
        XCTAssertEqual(GeoJSONWriter.number(1e300), "1e+300")
    }

    func testCorpusRoundTrip() throws {
        let dir = TestPaths.shared("geojson")
        for name in ["canada.json", "ne_10m_populated_places.json"] {
            guard let data = FileManager.default.contents(atPath: dir + "/" + name) else { throw XCTSkip("corpus missing") }
            let doc = try GeoJSONReader.read([UInt8](data))
            XCTAssertEqual(try GeoJSONReader.read(GeoJSONWriter.encode(doc)), doc, name)
        }
    }

    func testStreamWriterMatchesWholeWriter() throws {
        let doc = try GeoJSONReader.read(Array(GeoJSONReaderTests.sample.utf8))
        guard case .featureCollection(let fs) = doc.object else { return XCTFail() }
        var out: [UInt8] = []
        var pieces = 0
        var w = GeoJSONStreamWriter(flushThreshold: 16, bbox: doc.bbox) { out += $0; pieces += 1 }
        for f in fs { try w.write(f) }
        try w.finish()
        XCTAssertGreaterThan(pieces, 1)
        XCTAssertEqual(try GeoJSONReader.read(out), doc)
    }
}

/// The writer's own shortest formatting against the standard library's (shortest,
/// correctly rounded): the same value read back, and the same number of significant digits.
final class ShortestDecimalTests: XCTestCase {
    func significantDigits(_ s: String) -> Int {
        var mantissa = s.lowercased()
        if let e = mantissa.firstIndex(of: "e") { mantissa = String(mantissa[..<e]) }
        var digits = mantissa.filter(\.isNumber)
        while digits.hasPrefix("0") { digits.removeFirst() }
        while digits.hasSuffix("0") { digits.removeLast() }
        return max(digits.count, 1)
    }

    func testAgainstStandardLibrary() throws {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0.1, 0.2, 0.3, 1e-8, 9.999999999999999e14, 47.123456, -65.61361699999998, 123.0, 5e-7, 1.5]
        for _ in 0..<100_000 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: values.append(Double.random(in: -180...180, using: &rng))
            case 1: values.append((Double.random(in: -180...180, using: &rng) * 1e6).rounded() / 1e6)
            case 2: values.append(Double(bitPattern: UInt64.random(in: 0x3E40_0000_0000_0000...0x42C0_0000_0000_0000, using: &rng)))
            default: values.append(Double.random(in: 1e-8...1e15, using: &rng))
            }
        }
        for v in values {
            let text = GeoJSONWriter.value(.double(v))
            guard case .double(let back)? = try? JSONValueReader.read(Array(text.utf8)) else { return XCTFail("\(text) unreadable") }
            XCTAssertEqual(back.bitPattern, v.bitPattern, text)
            XCTAssertEqual(significantDigits(text), significantDigits(v.description), "\(text) vs \(v.description)")
        }
    }
}

/// A feature's bbox and foreign members are read into the model and written back, in a
/// collection, streamed, or as the document's root.
final class FeatureMembersRoundTripTests: XCTestCase {
    func testBBoxAndForeignMembersRoundTrip() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","bbox":[1,2,1,2],"id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1},"title":"x","extra":{"k":[1,2.5]}},{"type":"Feature","geometry":null,"properties":null}]}"#
        let doc = try GeoJSONReader.read(Array(text.utf8))
        guard case .featureCollection(let fs) = doc.object else { return XCTFail("not a collection") }
        XCTAssertEqual(fs[0].bbox, [1, 2, 1, 2])
        XCTAssertEqual(fs[0].foreignMembers?.keys, ["title", "extra"])
        XCTAssertNil(fs[1].bbox)
        XCTAssertNil(fs[1].foreignMembers)
        XCTAssertEqual(String(decoding: GeoJSONWriter.encode(doc), as: UTF8.self), text)
        let streamed = GeoJSONFeatureReader(source: ChunkedByteSource(Array(text.utf8), chunkSize: 7))
        var read: [GeoFeature] = []
        while let f = try streamed.next() { read.append(f) }
        XCTAssertEqual(read, fs)
        let root = #"{"type":"Feature","bbox":[1,2,1,2],"geometry":null,"properties":{},"note":[true,null]}"#
        let rootDoc = try GeoJSONReader.read(Array(root.utf8))
        XCTAssertEqual(String(decoding: GeoJSONWriter.encode(rootDoc), as: UTF8.self), root)
        XCTAssertEqual(try GeoJSONReader.read(GeoJSONWriter.encode(rootDoc)), rootDoc)
    }
}
