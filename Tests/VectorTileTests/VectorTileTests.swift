import XCTest
import PBF
@testable import VectorTile

/// Rule ids refer to ../shared/specs/mvt-pbf.md; geometry examples are MVT 2.1 §4.3.5's.
final class VectorTileTests: XCTestCase {
    struct Recorder: GeometryHandler {
        var events: [String] = []
        mutating func point(x: Int64, y: Int64) { events.append("P(\(x),\(y))") }
        mutating func lineBegin() { events.append("L[") }
        mutating func linePoint(x: Int64, y: Int64) { events.append("(\(x),\(y))") }
        mutating func lineEnd() { events.append("]") }
        mutating func ringBegin() { events.append("R[") }
        mutating func ringPoint(x: Int64, y: Int64) { events.append("(\(x),\(y))") }
        mutating func ringEnd(_ kind: RingKind) { events.append("]\(kind)") }
    }

    func geometry(_ commands: [UInt32], type: UInt64, mode: GeometryMode = .strict) throws(MVTError) -> String {
        var spec = TileBuilder.LayerSpec()
        spec.features = [.init(type: type, geometry: commands)]
        let bytes = TileBuilder.tile([spec])
        var result = ""
        var failure: MVTError?
        bytes.withUnsafeBytes { raw in
            do throws(MVTError) {
                let layer = try VectorTile(bytes: raw).layers()[0]
                layer.forEachFeature { (f: Feature) in
                    var r = Recorder()
                    do throws(MVTError) { try f.decodeGeometry(into: &r, mode: mode) } catch { failure = error }
                    result = r.events.joined(separator: " ")
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return result
    }

    func geometryError(_ commands: [UInt32], type: UInt64) -> MVTError? {
        do throws(MVTError) { _ = try geometry(commands, type: type); return nil } catch { return error }
    }

    // §4.3.5 examples.
    func testSpecPointExamples() throws {
        XCTAssertEqual(try geometry([9, 50, 34], type: 1), "P(25,17)")
        XCTAssertEqual(try geometry([17, 10, 14, 3, 9], type: 1), "P(5,7) P(3,2)")
    }

    func testSpecLineExamples() throws {
        XCTAssertEqual(try geometry([9, 4, 4, 18, 0, 16, 16, 0], type: 2), "L[ (2,2) (2,10) (10,10) ]")
        XCTAssertEqual(try geometry([9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8], type: 2),
                       "L[ (2,2) (2,10) (10,10) ] L[ (1,1) (3,5) ]")
    }

    func testSpecPolygonExamples() throws {
        XCTAssertEqual(try geometry([9, 6, 12, 18, 10, 12, 24, 44, 15], type: 3),
                       "R[ (3,6) (8,12) (20,34) ]exterior")
        // Multi-polygon with a hole: the cursor carries across rings and polygons (C6, D4).
        XCTAssertEqual(try geometry([9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
                                     9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15], type: 3),
                       "R[ (0,0) (10,0) (10,10) (0,10) ]exterior R[ (11,11) (20,11) (20,20) (11,20) ]exterior "
                       + "R[ (13,13) (13,17) (17,17) (17,13) ]interior")
    }

    func testGrammarViolations() {
        // C3: command id 3 does not exist.
        XCTAssertEqual(geometryError([3], type: 1)?.rule, "C3")
        // C4: MoveTo announces two points, one follows; a count of 2^29-1 with one pair ends
        // the same way, after reading only the bytes present (F).
        XCTAssertEqual(geometryError([17, 10, 14], type: 1)?.rule, "C4")
        XCTAssertEqual(geometryError([0xFFFF_FFF9, 50, 34], type: 1)?.rule, "C4")
        // C7: ClosePath count 2 and 0.
        XCTAssertEqual(geometryError([9, 6, 12, 18, 10, 12, 24, 44, 23], type: 3)?.rule, "C7")
        XCTAssertEqual(geometryError([9, 6, 12, 18, 10, 12, 24, 44, 7], type: 3)?.rule, "C7")
        // D1: LineTo in a POINT; D2: ClosePath in a LINESTRING; D3: ring starting with ClosePath.
        XCTAssertEqual(geometryError([9, 50, 34, 10, 2, 2], type: 1)?.rule, "D1-D3")
        XCTAssertEqual(geometryError([9, 4, 4, 18, 0, 16, 16, 0, 15], type: 2)?.rule, "D1-D3")
        XCTAssertEqual(geometryError([15, 9, 6, 12], type: 3)?.rule, "D1-D3")
        // D3: a ring needs LineTo count ≥ 2.
        XCTAssertEqual(geometryError([9, 6, 12, 10, 10, 12, 15], type: 3)?.rule, "D1-D3")
        // D4: a polygon cannot start with an interior (counter-clockwise) ring.
        XCTAssertEqual(geometryError([9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15], type: 3)?.rule, "D4")
        // B3: type 7 is not a geometry type.
        XCTAssertEqual(geometryError([9, 50, 34], type: 7)?.rule, "B3")
    }

    /// At each place of the LINESTRING and POLYGON grammars (§4.3.4.3, §4.3.4.4), a command
    /// id that does not exist is reported as such (C3) at its own offset, a known command in
    /// the wrong place as a grammar error (D2, D3) at the offset of the part's MoveTo (or, for
    /// a ring's end, of its LineTo), and a ClosePath with a count other than 1 (C7) at its own.
    func testCommandErrorsAtEachPlaceOfTheGrammar() throws {
        // Every value below 128: value k of the geometry is byte k of its packed record.
        func check(_ commands: [UInt32], type: UInt64, _ expected: (Int) -> MVTError,
                   line: UInt = #line) throws {
            var spec = TileBuilder.LayerSpec()
            spec.features = [.init(type: type, geometry: commands)]
            let tile = TileBuilder.tile([spec]), record = TileBuilder.packed(commands)
            let start = try XCTUnwrap((0...(tile.count - record.count)).first { Array(tile[$0..<$0 + record.count]) == record },
                                      line: line)
            XCTAssertEqual(geometryError(commands, type: type), expected(start), line: line)
        }
        let ring: [UInt32] = [9, 6, 12, 18, 10, 12, 24, 44]
        // POLYGON: a ring's MoveTo, in the first ring and in a later one.
        try check([11, 6, 12] + ring, type: 3) { .invalidCommand(3, offset: $0) }
        try check(ring + [15, 11, 0, 0], type: 3) { .invalidCommand(3, offset: $0 + 9) }
        try check([10, 6, 12] + ring, type: 3) {
            .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: $0) }
        try check([17, 6, 12, 2, 2] + Array(ring.dropFirst()), type: 3) {
            .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: $0) }
        // Its LineTo: an unknown id, another command, a count below 2, none at all.
        try check([9, 6, 12, 19, 10, 12, 24, 44, 15], type: 3) { .invalidCommand(3, offset: $0 + 3) }
        for commands: [UInt32] in [[9, 6, 12, 9, 10, 12, 15], [9, 6, 12, 10, 10, 12, 15], [9, 6, 12]] {
            try check(commands, type: 3) { .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: $0) }
        }
        // Its ClosePath: an unknown id, another command, none, a count other than 1.
        try check(ring + [13], type: 3) { .invalidCommand(5, offset: $0 + 8) }
        try check(ring + [9, 2, 2], type: 3) {
            .invalidGeometry(reason: "ring must end with ClosePath", offset: $0 + 3) }
        try check(ring, type: 3) { .invalidGeometry(reason: "ring must end with ClosePath", offset: $0 + 3) }
        try check(ring + [23], type: 3) { .invalidClosePath(count: 2, offset: $0 + 8) }
        try check(ring + [7], type: 3) { .invalidClosePath(count: 0, offset: $0 + 8) }
        // LINESTRING: a part's MoveTo, in the first part and in a later one.
        let part: [UInt32] = [9, 4, 4, 18, 0, 16, 16, 0]
        try check([11, 4, 4, 10, 2, 2], type: 2) { .invalidCommand(3, offset: $0) }
        try check(part + [14, 1, 1], type: 2) { .invalidCommand(6, offset: $0 + 8) }
        try check(part + [15], type: 2) { .invalidGeometry(reason: "ClosePath in a LINESTRING", offset: $0 + 8) }
        try check([10, 4, 4], type: 2) {
            .invalidGeometry(reason: "LINESTRING part must start with MoveTo(1)", offset: $0) }
        // Its LineTo: an unknown id, another command, a count of 0, none at all.
        try check([9, 4, 4, 12, 0, 16], type: 2) { .invalidCommand(4, offset: $0 + 3) }
        for commands: [UInt32] in [[9, 4, 4, 9, 2, 2], [9, 4, 4, 2], [9, 4, 4]] {
            try check(commands, type: 2) {
                .invalidGeometry(reason: "MoveTo must be followed by LineTo with count ≥ 1", offset: $0) }
        }
    }

    /// C8: a zero-length LineTo fails strict decoding and is dropped in tolerant mode.
    func testZeroLengthSegment() throws {
        XCTAssertEqual(geometryError([9, 4, 4, 26, 0, 0, 0, 16, 16, 0], type: 2)?.rule, "C8")
        XCTAssertEqual(try geometry([9, 4, 4, 26, 0, 0, 0, 16, 16, 0], type: 2, mode: .tolerant),
                       "L[ (2,2) (2,10) (10,10) ]")
    }

    /// C6: deltas that overflow 32 bits accumulate exactly in 64 bits.
    func testCursorDoesNotOverflow() throws {
        let big = ZigZag.encode(Int32.max)
        XCTAssertEqual(try geometry([9, big, 0, 10, big, 0], type: 2),
                       "L[ (2147483647,0) (4294967294,0) ]")
    }

    /// P7, B9: a geometry or tag list split over several records, at any point and even in
    /// the middle of a parameter pair, or written unpacked, decodes (tolerant mode) exactly
    /// like the single packed record; strict mode reports the repeated record.
    func testSplitRecordsDecodeLikeOne() throws {
        let rings: [UInt32] = [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
                               9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15]
        let line: [UInt32] = [9, 4, 4, 26, 0, 0, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]
        let tags: [UInt32] = [0, 1, 1, 0, 1, 1]
        func decode(_ f: TileBuilder.FeatureSpec) throws(MVTError) -> String {
            var spec = TileBuilder.LayerSpec()
            spec.keys = ["a", "b"]
            spec.values = [TileBuilder.stringValue("x"), TileBuilder.stringValue("y")]
            spec.features = [f]
            let result: Result<String, MVTError> = TileBuilder.tile([spec]).withUnsafeBytes { raw in
                do throws(MVTError) {
                    var out = ""
                    let layer = try VectorTile(bytes: raw).layers()[0]
                    try layer.forEachFeature { (f: Feature) throws(MVTError) in
                        var r = Recorder()
                        try f.decodeGeometry(into: &r, mode: .tolerant)
                        var t: [String] = []
                        try f.forEachTag { k, v in t.append("\(k)=\(v)") }
                        out = r.events.joined(separator: " ") + " | " + t.joined(separator: ",")
                    }
                    return .success(out)
                } catch { return .failure(error) }
            }
            return try result.get()
        }
        for (type, g) in [(UInt64(3), rings), (UInt64(2), line)] {
            let whole = try decode(.init(tags: tags, type: type, geometry: g))
            XCTAssertEqual(try decode(.init(tags: tags, type: type, geometry: g, unpacked: true)), whole)
            for cut in 1..<g.count {
                let split = TileBuilder.FeatureSpec(tags: tags, type: type, geometry: Array(g[..<cut]),
                                                    extraGeometryRecords: [Array(g[cut...])])
                XCTAssertEqual(try decode(split), whole, "geometry split at \(cut)")
            }
        }
        // Strict decoding names the repeated record (B9).
        var spec = TileBuilder.LayerSpec()
        spec.features = [.init(type: 2, geometry: Array(line[..<3]), extraGeometryRecords: [Array(line[3...])])]
        var rules: [String] = []
        TileBuilder.tile([spec]).withUnsafeBytes { raw in
            (try? VectorTile(bytes: raw).layers()[0])?.forEachFeature { (f: Feature) in
                var r = Recorder()
                do throws(MVTError) { try f.decodeGeometry(into: &r, mode: .strict) } catch { rules.append(error.rule) }
            }
        }
        XCTAssertEqual(rules, ["B9"])
    }

    /// Features need not be contiguous in the layer (A3, P9): a feature after the keys and
    /// values is still iterated, and its tags resolve against the whole tables.
    func testFeaturesInterleavedWithTables() throws {
        var w = PBFWriter()
        w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("mixed".utf8))
        w.writeKey(field: 2, wireType: .lengthDelimited)
        w.writeLengthDelimited(TileBuilder.feature(.init(id: 1, tags: [0, 0])))
        w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array("k".utf8))
        w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.stringValue("v"))
        w.writeKey(field: 2, wireType: .lengthDelimited)
        w.writeLengthDelimited(TileBuilder.feature(.init(id: 2, tags: [0, 0])))
        var t = PBFWriter()
        t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
        try t.bytes.withUnsafeBytes { raw in
            let l = try VectorTile(bytes: raw).layers()[0]
            var ids: [UInt64] = []
            try l.forEachFeature { (f: Feature) throws(MVTError) in
                try f.forEachTag { k, v in XCTAssertEqual(k, 0); XCTAssertEqual(v, 0) }
                ids.append(f.id)
            }
            XCTAssertEqual(ids, [1, 2])
            XCTAssertEqual(l.featureCount, 2)
        }
    }

    /// B4: UNKNOWN features decode to nothing, without error.
    func testUnknownTypeIsSkipped() throws {
        XCTAssertEqual(try geometry([9, 50, 34], type: 0), "")
    }

    func testLayerHeaderAndValues() throws {
        var spec = TileBuilder.LayerSpec()
        spec.keys = ["name", "rank"]
        var v = PBFWriter()
        v.writeKey(field: 6, wireType: .varint); v.writeSInt64(-87948)
        spec.values = [TileBuilder.stringValue("Montevideo"), v.bytes]
        spec.features = [.init(id: nil, tags: [0, 0, 1, 1]), .init(id: 0, tags: [1, 0], unpacked: true)]
        spec.unknownField = true
        let bytes = TileBuilder.tile([spec])
        try bytes.withUnsafeBytes { raw in
            let layers = try VectorTile(bytes: raw).layers()
            XCTAssertEqual(layers.count, 1)
            let l = layers[0]
            XCTAssertEqual(l.name, "hello")
            XCTAssertEqual(l.version, 2)
            XCTAssertEqual(l.extent, 4096, "A11: absent extent is 4096")
            XCTAssertEqual(l.keys.map { String(decoding: $0, as: UTF8.self) }, ["name", "rank"])
            XCTAssertEqual(l.values[0].stringValue, "Montevideo")
            XCTAssertEqual(l.values[1], .sint(-87948))
            XCTAssertEqual(l.featureCount, 2)
            var seen: [String] = []
            try l.forEachFeature { (f: Feature) in
                var tags: [String] = []
                XCTAssertNoThrow(try f.forEachTag { k, v in tags.append("\(k)=\(v)") })
                seen.append("\(f.hasID ? String(f.id) : "none") \(tags.joined(separator: ","))")
            }
            // B5: absent id and id 0 differ; P7: unpacked tags read like packed ones.
            XCTAssertEqual(seen, ["none 0=0,1=1", "0 1=0"])
        }
    }

    func testLayerErrors() {
        func error(_ spec: TileBuilder.LayerSpec) -> MVTError? {
            TileBuilder.tile([spec]).withUnsafeBytes { raw in
                do throws(MVTError) { _ = try VectorTile(bytes: raw).layers(); return nil } catch { return error }
            }
        }
        var s = TileBuilder.LayerSpec(); s.version = nil
        XCTAssertEqual(error(s)?.rule, "A2")
        s = TileBuilder.LayerSpec(); s.version = 3
        XCTAssertEqual(error(s)?.rule, "A4")
        s = TileBuilder.LayerSpec(); s.name = nil
        XCTAssertEqual(error(s)?.rule, "A5")
        s = TileBuilder.LayerSpec(); s.values = [[0x40, 0x01]]   // field 8, varint: unknown only
        XCTAssertEqual(error(s)?.rule, "A10")
        s = TileBuilder.LayerSpec(); s.values = [[]]             // no field at all
        XCTAssertEqual(error(s)?.rule, "A10")
        s = TileBuilder.LayerSpec(); s.values = [[0x08, 0x05]]   // string field as varint
        XCTAssertEqual(error(s)?.rule, "P5")
    }

    func testValidatorCollectsEveryFinding() {
        var a = TileBuilder.LayerSpec()
        a.keys = ["k"]
        a.values = [TileBuilder.stringValue("v")]
        a.features = [
            .init(tags: [0]),                                      // B6
            .init(tags: [0, 5]),                                   // B7
            .init(type: nil),                                      // B2
            .init(geometry: nil),                                  // B1
            .init(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0], extraGeometryRecords: [[9, 2, 2, 10, 2, 2]]), // B9
            .init(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0]), // fine
        ]
        let b = a   // same name: A6
        var c = TileBuilder.LayerSpec(); c.version = 9            // A4, layer skipped
        c.name = "other"
        let findings = TileBuilder.tile([a, b, c]).withUnsafeBytes { MVTValidator.validate(VectorTile(bytes: $0)) }
            .filter { $0.severity != .warning }
        let rules = findings.map { "\($0.layer ?? -1):\($0.feature ?? -1):\($0.rule)" }
        XCTAssertEqual(rules, ["0:0:B6", "0:1:B7", "0:2:B2", "0:3:B1", "0:4:B9",
                               "1:-1:A6", "1:0:B6", "1:1:B7", "1:2:B2", "1:3:B1", "1:4:B9", "2:-1:A4"])
        XCTAssertEqual(findings.filter { $0.severity == .fatal }.map(\.rule), ["B7", "B7", "A4"])
    }

    /// SHOULD-level rules are reported as warnings, never as errors.
    func testWarnings() {
        var l = TileBuilder.LayerSpec()
        l.keys = ["k", "k"]                                                       // A8
        l.values = [TileBuilder.stringValue("v"), TileBuilder.stringValue("v")]  // A9
        l.features = [.init(id: 5), .init(id: 5),                                 // B5
                      .init(id: 6, type: 3, geometry: [9, 0, 0, 18, 10, 0, 20, 0, 15])]  // D7: collinear ring
        var empty = TileBuilder.LayerSpec()
        empty.name = "empty"
        empty.features = []                                                       // A7
        var tile = TileBuilder.tile([l, empty])
        // A3: move the version after the name in a third layer.
        var w = PBF.PBFWriter()
        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("late".utf8))
        w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
        w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.feature(.init()))
        var t = PBF.PBFWriter()
        t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
        tile += t.bytes
        let findings = tile.withUnsafeBytes { MVTValidator.validate(VectorTile(bytes: $0)) }
        XCTAssertEqual(findings.map { "\($0.layer ?? -1):\($0.rule)" }, ["0:A8", "0:A9", "0:B5", "0:D7", "1:A7", "2:A3"])
        XCTAssertTrue(findings.allSatisfy { $0.severity == .warning })
    }

    /// A4, A13: unreadable layers are skipped and reported, the others returned.
    func testReadableLayersSkipAndReport() {
        var bad = TileBuilder.LayerSpec(); bad.version = 7; bad.name = "future"
        var good = TileBuilder.LayerSpec(); good.name = "ok"
        var noName = TileBuilder.LayerSpec(); noName.name = nil
        var tile = TileBuilder.tile([bad, good, noName, good])
        tile += [0x1A, 0x05, 0x01]   // a layer record cut short: the scan ends there
        tile.withUnsafeBytes { raw in
            let (layers, skipped) = VectorTile(bytes: raw).readableLayers()
            XCTAssertEqual(layers.map(\.name), ["ok", "ok"])
            XCTAssertEqual(skipped.map { "\($0.layer ?? -1):\($0.rule)" }, ["0:A4", "2:A5", "4:P3"])
        }
    }

    /// P5, P3: a malformed tile-level field after a good layer ends the validator's scan
    /// with the error `layers()` throws, reported for the tile (no layer index).
    func testValidatorReportsTileLevelErrors() {
        var good = TileBuilder.LayerSpec(); good.name = "ok"
        let base = TileBuilder.tile([good])
        // A layer field written as a varint (P5); a layer longer than the bytes left (P3).
        for (tail, rule) in [([UInt8]([0x18, 0x01]), "P5"), ([0x1A, 0x05, 0x01], "P3")] {
            (base + tail).withUnsafeBytes { raw in
                let tile = VectorTile(bytes: raw)
                var thrown: MVTError?
                do throws(MVTError) { _ = try tile.layers() } catch { thrown = error }
                guard let thrown else { return XCTFail("layers() read a malformed tile (\(rule))") }
                XCTAssertEqual(thrown.rule, rule)
                XCTAssertEqual(MVTValidator.validate(tile, warnings: false), [MVTFinding(error: thrown)], rule)
            }
        }
    }

    func testEmptyTileHasNoLayers() throws {
        XCTAssertEqual(try [UInt8]().withUnsafeBytes { try VectorTile(bytes: $0).layers() }.count, 0)
        // A1: valid, but a tile SHOULD have a layer.
        XCTAssertEqual([UInt8]().withUnsafeBytes { MVTValidator.validate(VectorTile(bytes: $0)) }.map(\.rule), ["A1"])
    }

    /// Robustness: every prefix and thousands of random mutations of a valid tile are
    /// handled without a crash or hang, and every error offset lies inside the input.
    func testMutatedTilesNeverCrash() {
        var spec = TileBuilder.LayerSpec()
        spec.keys = ["a", "b"]
        spec.values = [TileBuilder.stringValue("x"), TileBuilder.stringValue("y")]
        spec.features = [
            .init(tags: [0, 1, 1, 0], type: 3, geometry: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15]),
            .init(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0]),
            .init(type: 1, geometry: [17, 10, 14, 3, 9]),
        ]
        let tile = TileBuilder.tile([spec, spec])
        struct Sink: GeometryHandler { var n = 0; mutating func point(x: Int64, y: Int64) { n += 1 } }
        func exercise(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                let t = VectorTile(bytes: raw)
                for f in MVTValidator.validate(t) { XCTAssertLessThanOrEqual(f.error.offset, bytes.count) }
                if let layers = try? t.layers() {
                    for l in layers {
                        l.forEachFeature { (f: Feature) in
                            var s = Sink()
                            try? f.decodeGeometry(into: &s, mode: .tolerant)
                            try? f.forEachTag { _, _ in }
                        }
                    }
                }
            }
        }
        for cut in 0...tile.count { exercise(Array(tile[..<cut])) }
        var state: UInt64 = 2024
        for _ in 0..<5000 {
            var m = tile
            for _ in 0..<(1 + Int(state % 4)) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let i = Int((state >> 33) % UInt64(m.count))
                m[i] = UInt8(truncatingIfNeeded: state >> 17)
            }
            exercise(m)
        }
    }

    /// `MVTValue`'s equality as documented: same case, strings byte for byte, floating-point
    /// values bit for bit (§4.1 `Value`: the type written is part of the value).
    func testValueEqualityComparesCaseAndBits() {
        let a: [UInt8] = Array("river".utf8), b: [UInt8] = Array("river".utf8), c: [UInt8] = Array("rivers".utf8)
        a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                c.withUnsafeBytes { rc in
                    XCTAssertEqual(MVTValue.string(ra), .string(rb), "same bytes in different storage")
                    XCTAssertNotEqual(MVTValue.string(ra), .string(rc))
                    XCTAssertNotEqual(MVTValue.string(UnsafeRawBufferPointer(rebasing: rc[0..<5])), .string(rc))
                    XCTAssertEqual(MVTValue.string(UnsafeRawBufferPointer(rebasing: rc[0..<5])), .string(ra))
                }
            }
        }
        XCTAssertEqual(MVTValue.double(.nan), .double(.nan), "the same NaN bits")
        XCTAssertNotEqual(MVTValue.double(.nan), .double(-Double.nan))
        XCTAssertNotEqual(MVTValue.double(0.0), .double(-0.0))
        XCTAssertEqual(MVTValue.float(.nan), .float(.nan))
        XCTAssertNotEqual(MVTValue.float(0.0), .float(-0.0))
        XCTAssertNotEqual(MVTValue.float(1.5), .double(1.5), "float and double differ")
        XCTAssertEqual(MVTValue.int(-7), .int(-7))
        XCTAssertNotEqual(MVTValue.int(7), .sint(7))
        XCTAssertNotEqual(MVTValue.int(7), .uint(7))
        XCTAssertNotEqual(MVTValue.sint(7), .uint(7))
        XCTAssertEqual(MVTValue.uint(UInt64.max), .uint(UInt64.max))
        XCTAssertNotEqual(MVTValue.bool(true), .bool(false))
        XCTAssertNotEqual(MVTValue.bool(true), .int(1))
    }
}
