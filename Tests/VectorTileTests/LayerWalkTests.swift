import Foundation
import PBF
@testable import VectorTile
import XCTest

/// `VectorTile.forEachLayer`, which reuses one keys and one values storage for all the
/// layers of a tile, against `layers()`, which gives every layer its own (A1, A8–A10).
final class LayerWalkTests: XCTestCase {
    /// Everything a layer holds, to compare layers read either way. Values compare by
    /// content (`MVTValue`'s `==`: string bytes, float bit patterns), so a summary is only
    /// compared while the tile's bytes live.
    struct Summary: Equatable {
        var name: [UInt8], version: UInt32, extent: UInt32, offset: Int
        var keys: [[UInt8]], values: [MVTValue], featureCount: Int, featureOffsets: [Int]

        init(_ l: Layer) {
            name = Array(l.nameBytes)
            version = l.version
            extent = l.extent
            offset = l.offset
            keys = l.keys.map { Array($0) }
            values = l.values
            featureCount = l.featureCount
            var offsets: [Int] = []
            l.forEachFeature { (f: Feature) in offsets.append(f.offset) }
            featureOffsets = offsets
        }
    }

    /// One storage for every tile a test reads with `forEachLayer(storage:_:)`, so it is
    /// reused across tiles of all sizes, after kept layers and after errors.
    let shared = LayerStorage()

    /// The layers of `bytes` read five ways: `layers()`; `forEachLayer`, each layer
    /// summarised while it is current; `forEachLayer` with every layer kept and summarised
    /// after the walk, when the storage has been emptied and refilled since; and the same
    /// two with `shared` storage, which earlier tiles have used.
    func compare(_ bytes: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        bytes.withUnsafeBytes { raw in
            let tile = VectorTile(bytes: raw)
            var expected: [Summary] = [], expectedError: MVTError?
            do throws(MVTError) { expected = try tile.layers().map(Summary.init) } catch { expectedError = error }
            var current: [Summary] = [], kept: [Layer] = []
            var walkError: MVTError?, keptError: MVTError?
            do throws(MVTError) { try tile.forEachLayer { l in current.append(Summary(l)) } } catch { walkError = error }
            do throws(MVTError) { try tile.forEachLayer { l in kept.append(l) } } catch { keptError = error }
            var sharedCurrent: [Summary] = [], sharedKept: [Layer] = []
            var sharedWalkError: MVTError?, sharedKeptError: MVTError?
            do throws(MVTError) {
                try tile.forEachLayer(storage: shared) { l in sharedCurrent.append(Summary(l)) }
            } catch { sharedWalkError = error }
            do throws(MVTError) {
                try tile.forEachLayer(storage: shared) { l in sharedKept.append(l) }
            } catch { sharedKeptError = error }
            XCTAssertEqual(MVTValidator.validate(tile, storage: shared), MVTValidator.validate(tile),
                           "\(label), validator with shared storage", file: file, line: line)
            // Findings given one at a time, and readable layers walked with reused storage,
            // are those of the collecting calls, in the same order.
            var streamed: [MVTFinding] = []
            MVTValidator.validate(tile, storage: shared) { streamed.append($0) }
            XCTAssertEqual(streamed, MVTValidator.validate(tile), "\(label), findings one at a time", file: file, line: line)
            let (readable, skipped) = tile.readableLayers()
            var walked: [Summary] = [], walkedSkips: [MVTFinding] = []
            tile.forEachReadableLayer(storage: shared, { walked.append(Summary($0)) }, skipped: { walkedSkips.append($0) })
            XCTAssertEqual(walked, readable.map(Summary.init), "\(label), readable layers one at a time", file: file, line: line)
            XCTAssertEqual(walkedSkips, skipped, "\(label), skipped layers one at a time", file: file, line: line)
            XCTAssertEqual(walkError, expectedError, label, file: file, line: line)
            XCTAssertEqual(keptError, expectedError, label, file: file, line: line)
            XCTAssertEqual(sharedWalkError, expectedError, "\(label), shared storage", file: file, line: line)
            XCTAssertEqual(sharedKeptError, expectedError, "\(label), shared storage", file: file, line: line)
            if expectedError == nil {
                XCTAssertEqual(current, expected, label, file: file, line: line)
                XCTAssertEqual(kept.map(Summary.init), expected, "\(label), layers kept", file: file, line: line)
                XCTAssertEqual(sharedCurrent, expected, "\(label), shared storage", file: file, line: line)
                // Read again after the next walk with the same storage, too.
                var again: [Summary] = []
                try? tile.forEachLayer(storage: shared) { l in again.append(Summary(l)) }
                XCTAssertEqual(sharedKept.map(Summary.init), expected, "\(label), shared storage, layers kept",
                               file: file, line: line)
                XCTAssertEqual(again, expected, "\(label), shared storage, again", file: file, line: line)
            } else {
                // `layers()` returns nothing then; the walk has passed on the layers before the
                // broken one, and they match the readable layers.
                let readable = tile.readableLayers().layers.map(Summary.init)
                XCTAssertEqual(current, Array(readable.prefix(current.count)), label, file: file, line: line)
            }
        }
    }

    /// Layers of very different sizes in one tile, so the storage is reused after small and
    /// after large tables, including tables past the first scan's limit (1024 keys and
    /// values, then read by the second scan into storage of their exact size).
    func testReusedStorageMatchesFreshStorage() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<40 {
            var specs: [TileBuilder.LayerSpec] = []
            for i in 0..<Int.random(in: 1...7, using: &rng) {
                var s = TileBuilder.LayerSpec()
                s.name = "layer\(round).\(i)"
                let size = [0, 1, 5, 40, 300, 700, 1500, 3000].randomElement(using: &rng)!
                s.keys = (0..<max(1, size / 3)).map { "k\($0)-\(i)" }
                s.values = (0..<size).map { j -> [UInt8] in
                    var w = PBFWriter()
                    if j % 3 == 0 {
                        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("v\(j)-\(i)".utf8))
                    } else if j % 3 == 1 {
                        w.writeKey(field: 4, wireType: .varint); w.writeVarint(UInt64(j * 7 + i))
                    } else {
                        w.writeKey(field: 3, wireType: .fixed64); w.writeFixed64(Double(j).bitPattern)
                    }
                    return w.bytes
                }
                s.extent = Bool.random(using: &rng) ? 512 : nil
                let tags: [UInt32] = size > 0 ? [0, UInt32(size - 1)] : []
                s.features = (0..<Int.random(in: 0...4, using: &rng)).map { _ in .init(tags: tags) }
                specs.append(s)
            }
            compare(TileBuilder.tile(specs), "round \(round)")
        }
    }

    /// A broken layer header ends the walk with the error `layers()` throws (A2, A4, A5,
    /// A10), after the layers before it.
    func testErrorsMatchLayers() {
        var good = TileBuilder.LayerSpec(); good.keys = ["a"]; good.values = [TileBuilder.stringValue("x")]
        var noVersion = TileBuilder.LayerSpec(); noVersion.version = nil
        var future = TileBuilder.LayerSpec(); future.version = 3
        var noName = TileBuilder.LayerSpec(); noName.name = nil
        var badValue = TileBuilder.LayerSpec(); badValue.values = [[0x40, 0x01]]
        for (i, bad) in [noVersion, future, noName, badValue].enumerated() {
            compare(TileBuilder.tile([good, good, bad, good]), "broken layer \(i)")
        }
        var cut = TileBuilder.tile([good, good])
        cut += [0x1A, 0x05, 0x01]   // a layer record cut short (P3)
        compare(cut, "cut record")
    }

    /// `forEachFeature` against a plain read of the layer's records (A12: features in
    /// order), on layers whose features are interleaved with keys, values and unknown fields
    /// in random order, with feature records whose length takes one, two or three bytes,
    /// and more features than one batch of the walk holds.
    func testFeatureWalkOverInterleavedRecords() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<60 {
            var w = PBFWriter()
            w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
            var headerWritten = false
            let records = Int.random(in: 0...300, using: &rng)
            var keys = 0, values = 0
            for _ in 0..<records {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5:
                    // A feature: a type, a geometry, and padding in an unknown field so the
                    // record's length takes one, two or (rarely) three bytes.
                    var f = PBFWriter()
                    f.writeKey(field: 3, wireType: .varint); f.writeVarint(1)
                    f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(TileBuilder.packed([9, 2, 4]))
                    let pad = [0, 3, 140, 300, 17_000].randomElement(using: &rng)!
                    if pad > 0 { f.writeKey(field: 9, wireType: .lengthDelimited); f.writeLengthDelimited([UInt8](repeating: 7, count: pad)) }
                    w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f.bytes)
                case 5, 6:
                    w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array("k\(keys)".utf8)); keys += 1
                case 7, 8:
                    w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.stringValue("v\(values)")); values += 1
                default:
                    if !headerWritten {
                        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("mixed".utf8))
                        headerWritten = true
                    } else {
                        w.writeKey(field: 99, wireType: .fixed64); w.writeFixed64(1)
                    }
                }
            }
            if !headerWritten { w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("mixed".utf8)) }
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
            try t.bytes.withUnsafeBytes { raw in
                let layers = try VectorTile(bytes: raw).layers()
                XCTAssertEqual(layers.count, 1)
                let layer = layers[0]
                try checkFeatureWalk(layer, "round \(round)")
            }
        }
    }

    /// `forEachFeature` gives the layer's feature records (offset and length) in order, as a
    /// plain reader finds them, and `featureCount` counts them.
    func checkFeatureWalk(_ layer: Layer, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var expected: [[Int]] = []
        var r = layer.message
        while !r.isAtEnd {
            let (field, wire) = try r.readKey()
            if field == 2 {
                let sub = try r.readLengthDelimited()
                expected.append([sub.absoluteStart, sub.bytes.count])
            } else {
                try r.skip(wire)
            }
        }
        var seen: [[Int]] = []
        layer.forEachFeature { (f: Feature) in seen.append([f.offset, f.message.bytes.count]) }
        XCTAssertEqual(seen, expected, label, file: file, line: line)
        XCTAssertEqual(layer.featureCount, expected.count, label, file: file, line: line)
    }

    /// Feature records whose key is written in a longer form than needed (0x92 0x00, field 2,
    /// wire type 2: valid protobuf, P2), which the scan reads with the checked reader and
    /// leaves out of its index: `forEachFeature` then walks the layer's records itself (raw
    /// loads for feature, key and value records, the checked reader for anything else) and
    /// must give every feature, in order, as a plain reader finds them, between keys, values
    /// and unknown fields, with canonical features too.
    func testFeatureWalkWithoutAWholeIndex() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<60 {
            var w = PBFWriter()
            w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
            w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("long keys".utf8))
            var keys = 0, longForms = 0
            for i in 0..<Int.random(in: 1...200, using: &rng) {
                var f = PBFWriter()
                f.writeKey(field: 1, wireType: .varint); f.writeVarint(UInt64(i))
                f.writeKey(field: 3, wireType: .varint); f.writeVarint(1)
                f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(TileBuilder.packed([9, 2, 4]))
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1:
                    w.writeRaw([0x92, 0x00]); w.writeLengthDelimited(f.bytes); longForms += 1
                case 2:
                    w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array("k\(keys)".utf8)); keys += 1
                    w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f.bytes)
                case 3:
                    w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.stringValue("v\(i)"))
                    w.writeKey(field: 99, wireType: .fixed64); w.writeFixed64(UInt64(i))
                    w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f.bytes)
                default:
                    w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f.bytes)
                }
            }
            if longForms == 0 { w.writeRaw([0x92, 0x00]); w.writeLengthDelimited([]); longForms += 1 }
            // Sometimes a last key after the features, which the walk must not take for one.
            if round % 2 == 1 { w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array("last".utf8)) }
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
            try t.bytes.withUnsafeBytes { raw in
                let layer = try VectorTile(bytes: raw).layers()[0]
                XCTAssertNil(layer._featureIndex, "round \(round): a feature read by the checked reader leaves the index out")
                try checkFeatureWalk(layer, "round \(round)")
                // The features read whole: each one's id is where it was written.
                var ids: [UInt64] = []
                layer.forEachFeature { (f: Feature) in if f.hasID { ids.append(f.id) } }
                XCTAssertEqual(ids, ids.sorted(), "round \(round)")
            }
            compare(t.bytes, "round \(round)")
        }
    }

    /// A layer with more features than the index's first reservation
    /// (`_FeatureIndex.reservedAtMost`): the scan grows the index as it fills, keeping what
    /// it wrote, and the walk still gives every feature in order (A12). Features of two bytes
    /// (an empty message) fill the room exactly at the scan's bound; larger ones, keys and
    /// values come between them. The storage is then reused for a smaller tile and for this
    /// one again, with layers kept and not.
    func testFeatureIndexGrowsPastItsFirstReservation() throws {
        var rng = SystemRandomNumberGenerator()
        let count = 2 * _FeatureIndex.reservedAtMost + 7_000
        for round in 0..<3 {
            var w = PBFWriter()
            w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
            w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("many".utf8))
            var keys = 0
            for i in 0..<count {
                if round > 0 && Int.random(in: 0..<50, using: &rng) == 0 {
                    w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array("k\(keys)".utf8)); keys += 1
                    w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.stringValue("v\(i)"))
                }
                var f = PBFWriter()
                if round == 2 || (round == 1 && i % 3 == 0) {
                    f.writeKey(field: 1, wireType: .varint); f.writeVarint(UInt64(i))
                }
                w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f.bytes)
            }
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
            try t.bytes.withUnsafeBytes { raw in
                let layers = try VectorTile(bytes: raw).layers()
                let layer = layers[0]
                XCTAssertNotNil(layer._featureIndex, "round \(round): the walk should read the index")
                var expected: [Int] = []
                var r = layer.message
                while !r.isAtEnd {
                    let (field, wire) = try r.readKey()
                    if field == 2 { expected.append(try r.readLengthDelimited().absoluteStart) } else { try r.skip(wire) }
                }
                XCTAssertEqual(expected.count, count)
                var seen: [Int] = []
                layer.forEachFeature { (f: Feature) in seen.append(f.offset) }
                // The first feature out of place, if any (the lists are long to print).
                let wrong = seen.indices.first { $0 < expected.count && seen[$0] != expected[$0] }
                XCTAssertNil(wrong, "round \(round): feature \(wrong ?? 0) out of place")
                XCTAssertEqual(seen.count, expected.count, "round \(round)")
                XCTAssertEqual(layer.featureCount, count, "round \(round)")
            }
            compare(t.bytes, "round \(round)")
            var small = TileBuilder.LayerSpec(); small.features = [.init(tags: [])]
            compare(TileBuilder.tile([small, small]), "small tile after round \(round)")
            compare(t.bytes, "round \(round), again")
        }
    }

    /// Tables of the smallest records, empty keys (two bytes each) and one-byte booleans
    /// (four bytes each), as many as the layer's size allows, up to and past the 1,024 that
    /// the scan reads before leaving the rest to a second scan (A8, A9).
    func testTablesOfTheSmallestRecords() throws {
        for count in [1, 2, 31, 32, 33, 200, 1_000, 1_023, 1_024, 1_025, 1_500] {
            for withValues in [false, true] {
                var w = PBFWriter()
                w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
                w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited([])
                for i in 0..<count {
                    w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited([])
                    if withValues { w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited([0x38, UInt8(i & 1)]) }
                }
                var t = PBFWriter()
                t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
                try t.bytes.withUnsafeBytes { raw in
                    let layer = try VectorTile(bytes: raw).layers()[0]
                    XCTAssertEqual(layer.keys.count, count, "\(count) keys")
                    XCTAssertTrue(layer.keys.allSatisfy { $0.isEmpty }, "\(count) keys")
                    XCTAssertEqual(layer.values, withValues ? (0..<count).map { .bool($0 & 1 == 1) } : [], "\(count) values")
                }
                compare(t.bytes, "\(count) keys, values: \(withValues)")
            }
        }
    }

    /// The layer header's name, version and extent with values and lengths of one, two and
    /// three bytes, repeated (P8, the last wins), overlong (P2), out of range (A4), cut short
    /// (P3, left to the checked reader) and with the wrong wire type (P5).
    func testLayerHeaderFieldEncodings() {
        func varint(_ v: UInt64) -> [UInt8] { var w = PBFWriter(); w.writeVarint(v); return w.bytes }
        func name(_ n: Int) -> [UInt8] { [0x0A] + varint(UInt64(n)) + [UInt8](repeating: 0x61, count: n) }
        func extent(_ e: UInt64) -> [UInt8] { [0x28] + varint(e) }
        let version2: [UInt8] = [0x78, 0x02]
        func read(_ fields: [UInt8]) -> (name: Int, version: UInt32, extent: UInt32)? {
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(fields)
            return t.bytes.withUnsafeBytes { raw in
                guard let l = try? VectorTile(bytes: raw).layers().first else { return nil }
                return (l.nameBytes.count, l.version, l.extent)
            }
        }
        func rule(_ fields: [UInt8]) -> String? {
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(fields)
            return t.bytes.withUnsafeBytes { raw in
                do throws(MVTError) { _ = try VectorTile(bytes: raw).layers(); return nil } catch { return error.rule }
            }
        }
        XCTAssert(read(version2 + name(1))! == (1, 2, 4096), "A11: no extent is 4096")
        XCTAssert(read(name(0) + version2 + extent(64))! == (0, 2, 64))
        XCTAssert(read(extent(4096) + name(200) + version2)! == (200, 2, 4096), "two-byte value and length")
        XCTAssert(read(extent(300_000) + name(20_000) + version2)! == (20_000, 2, 300_000), "three-byte value and length")
        XCTAssert(read(extent(512) + version2 + name(3) + extent(1024) + name(5))! == (5, 2, 1024), "P8: the last wins")
        XCTAssert(read([0x78, 0x81, 0x00] + name(2))! == (2, 1, 4096), "P2: an overlong version")
        XCTAssertEqual(rule([0x78, 0xC8, 0x01] + name(2)), "A4", "version 200")
        XCTAssertEqual(rule(version2 + [0x0A, 0x05, 0x61]), "P3", "a name cut short")
        XCTAssertEqual(rule(version2 + [0x7A, 0x01, 0x02] + name(1)), "P5", "version as length-delimited")
        XCTAssertEqual(rule(version2 + [0x0A, 0x85]), "P3", "a name length cut short")
    }

    /// Every real-world tile of the shared corpus.
    func testRealWorldTiles() throws {
        let tiles = try realWorldTiles()
        for (label, bytes) in tiles { compare(bytes, label) }
        XCTAssertGreaterThan(tiles.count, 100)
    }
}
