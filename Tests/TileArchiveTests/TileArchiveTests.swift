import Foundation
import GraticuleTestSupport
import TileCover
import XCTest
@testable import TileArchive

final class TileArchiveTests: XCTestCase {
    /// This test's own folder (TestPaths.newFolder), removed after it.
    var folder = ""

    override func setUpWithError() throws { folder = try TestPaths.newFolder("tile-archive") }
    override func tearDownWithError() throws { try FileManager.default.removeItem(atPath: folder) }

    func tmp(_ name: String) -> String { folder + "/" + name }

    func testGzipRoundTripAndTypedErrors() throws {
        var rng = SystemRandomNumberGenerator()
        for n in [0, 1, 100, 70_000] {
            let data = (0..<n).map { _ in UInt8.random(in: 0...7, using: &rng) }
            let z = Gzip.compress(data)
            XCTAssertTrue(z.withUnsafeBytes { Gzip.isGzip($0) })
            XCTAssertEqual(try Gzip.decompress(z), data)
        }
        let z = Gzip.compress(Array(repeating: 65, count: 10_000))
        XCTAssertThrowsError(try Gzip.decompress(Array(z.prefix(z.count / 2)))) { e in
            guard case .corrupt = e as? Gzip.Error else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try Gzip.decompress(z, limit: 100)) { e in XCTAssertEqual(e as? Gzip.Error, .tooLarge(limit: 100)) }
        // Members back to back (RFC 1952 §2.2) inflate to their outputs joined; the limit
        // bounds the whole; trailing bytes that are not a member are an error at their offset.
        let a = Array("first member ".utf8), b = Array(repeating: UInt8(66), count: 5_000), c = [UInt8]()
        let members = Gzip.compress(a) + Gzip.compress(b) + Gzip.compress(c) + Gzip.compress(a)
        XCTAssertEqual(try Gzip.decompress(members), a + b + a)
        XCTAssertThrowsError(try Gzip.decompress(members, limit: 4_000)) { e in XCTAssertEqual(e as? Gzip.Error, .tooLarge(limit: 4_000)) }
        let one = Gzip.compress(a)
        for garbage in [[UInt8(0)], [0, 0, 0, 0], Array("trailing".utf8), [0x1F]] {
            XCTAssertThrowsError(try Gzip.decompress(one + garbage), "\(garbage)") { e in
                guard case .corrupt(let m, let offset) = e as? Gzip.Error else { return XCTFail("\(e)") }
                XCTAssertEqual(offset, one.count, m)
                XCTAssertTrue(m.contains("not a gzip member"), m)
            }
        }
        // A second member cut short is a truncated stream, not a shorter tile.
        let cut = one + Array(one.prefix(5))
        XCTAssertThrowsError(try Gzip.decompress(cut)) { e in
            XCTAssertEqual(e as? Gzip.Error, .corrupt("truncated stream", offset: cut.count))
        }
        var bad = z; bad[12] ^= 0xFF; bad[13] ^= 0xFF
        XCTAssertThrowsError(try Gzip.decompress(bad))
    }

    /// Tile ids from the `pmtiles` Python package (protomaps' reference reader), 3.x.
    func testHilbertTileIDsMatchTheReference() {
        let vectors: [(Int, UInt32, UInt32, UInt64)] = [
            (0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5), (3, 5, 2, 76),
            (12, 3000, 1234, 20_220_825), (20, 1_000_000, 345_678, 1_210_644_788_819),
            (30, 1_073_741_823, 0, 1_537_228_672_809_129_300),
        ]
        for (z, x, y, id) in vectors {
            XCTAssertEqual(PMTiles.tileID(z: z, x: x, y: y), id, "\(z)/\(x)/\(y)")
            XCTAssertEqual(PMTiles.tile(id: id), TileID(z: z, x: Int(x), y: Int(y)))
        }
        // Round trip over every tile of z0...z5.
        var next: UInt64 = 0
        var seen = Set<UInt64>()
        for z in 0...5 {
            for x in 0..<(1 << z) { for y in 0..<(1 << z) {
                let id = PMTiles.tileID(z: z, x: UInt32(x), y: UInt32(y))
                XCTAssertTrue(seen.insert(id).inserted)
                XCTAssertEqual(PMTiles.tile(id: id), TileID(z: z, x: x, y: y))
            } }
            next += UInt64(1) << UInt64(2 * z)
            XCTAssertEqual(seen.max()! + 1, next, "z\(z) ids are dense")
        }
    }

    func testDirectoryRoundTripAndMalformedDirectories() throws {
        let entries = [PMTiles.Entry(tileID: 0, offset: 0, length: 10, runLength: 1),
                       PMTiles.Entry(tileID: 1, offset: 10, length: 5, runLength: 3),
                       PMTiles.Entry(tileID: 9, offset: 2, length: 7, runLength: 1),
                       PMTiles.Entry(tileID: 100, offset: 5000, length: 300, runLength: 0)]
        let bytes = PMTiles.encodeDirectory(entries)
        XCTAssertEqual(try PMTiles.decodeDirectory(bytes), entries)
        for cut in 0..<bytes.count {
            XCTAssertThrowsError(try PMTiles.decodeDirectory(Array(bytes.prefix(cut)), base: 40)) { e in
                guard case .malformedDirectory(_, 40, _) = e as? PMTiles.Error else { return XCTFail("\(e)") }
            }
        }
        // A count of half a billion entries in five bytes is refused before anything is allocated.
        XCTAssertThrowsError(try PMTiles.decodeDirectory([0x80, 0x80, 0x80, 0x80, 0x02]))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let junk = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? PMTiles.decodeDirectory(junk)
        }
    }

    func testPMTilesWriteReadWithLeafDirectories() throws {
        let path = tmp("a.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try PMTilesWriter(path: path, tileCompression: .gzip, minZoom: 0, maxZoom: 6)
        w.leafSize = 100
        var expected: [TileID: [UInt8]] = [:]
        for z in 0...6 { for x in 0..<(1 << z) { for y in 0..<(1 << z) where (x + y) % 3 != 1 {
            let t = TileID(z: z, x: x, y: y)!
            let data = Gzip.compress(Array("\(t)".utf8))
            expected[t] = data
            try w.add(t, data: data)
        } } }
        try w.finish(metadataJSON: #"{"name":"test"}"#)
        let r = try PMTilesReader(path: path)
        XCTAssertEqual(r.header.addressedTiles, UInt64(expected.count))
        XCTAssertEqual(r.header.tileCompression, 2)
        XCTAssertLessThanOrEqual(Int(r.header.rootOffset + r.header.rootLength), 16_384)
        XCTAssertEqual(String(decoding: try r.metadata(), as: UTF8.self), #"{"name":"test"}"#)
        var got = 0
        var lastID: UInt64?
        try r.forEachEntry { t, e in
            let id = PMTiles.tileID(z: Int(t.z), x: t.x, y: t.y)
            if let l = lastID { XCTAssertLessThan(l, id, "tile-id order") }
            lastID = id
            XCTAssertEqual(try Gzip.decompress(r.tileData(e)), Array("\(t)".utf8))
            got += 1
            return true
        }
        XCTAssertEqual(got, expected.count)
    }

    func testPMTilesRejectsOtherFiles() throws {
        let path = tmp("b.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not an archive at all, long enough to hold a header".utf8 + [UInt8](repeating: 0, count: 200)).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PMTilesReader(path: path)) { XCTAssertEqual($0 as? PMTiles.Error, .notPMTiles) }
        var h = PMTiles.Header()
        h.rootOffset = 127; h.rootLength = 1_000_000
        try Data(h.encoded()).write(to: URL(fileURLWithPath: path))
        let r = try PMTilesReader(path: path)
        XCTAssertThrowsError(try r.forEachEntry { _, _ in true }) { e in
            guard case .truncated(section: "root directory", _) = e as? PMTiles.Error else { return XCTFail("\(e)") }
        }
        var v2 = h.encoded(); v2[7] = 2
        XCTAssertThrowsError(try PMTiles.Header(decoding: v2)) { XCTAssertEqual($0 as? PMTiles.Error, .unsupportedVersion(2)) }
    }

    func testMBTilesRoundTripWithTMSRows() throws {
        let path = tmp("c.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try MBTilesWriter(path: path, metadata: [("name", "t"), ("format", "pbf")])
        var expected = Set<TileID>()
        for z in 0...4 { for x in 0..<(1 << z) { for y in 0..<(1 << z) {
            let t = TileID(z: z, x: x, y: y)!
            expected.insert(t)
            try w.add(t, data: Array("\(t)".utf8))
        } } }
        try w.finish()
        let r = try MBTilesReader(path: path)
        XCTAssertEqual(try r.count(), expected.count)
        XCTAssertTrue(try r.metadata().contains { $0 == ("format", "pbf") })
        var seen = Set<TileID>()
        try r.forEachTile { t, bytes in
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\(t)", "XYZ id from the TMS row")
            seen.insert(t)
            return true
        }
        XCTAssertEqual(seen, expected)
        XCTAssertThrowsError(try MBTilesReader(path: "/nonexistent/x.mbtiles"))
    }

    /// Crafted archives of a few hundred bytes (`corpora/regressions/pmtiles`, written by
    /// its make.py) end in a typed error or a short walk, never a trap or an endless walk:
    /// offset sums that overflow, a run length of 2^32 − 1, a leaf referenced 200 times,
    /// a leaf that points at itself, and an addressed_tiles of 2^63 + 1.
    func testCraftedArchivesAreRefusedOrBounded() throws {
        let regressions = TestPaths.corpora("regressions/pmtiles")
        let expected: [String: String?] = [
            "addressed-2p63.pmtiles": nil,
            "offset-overflow.pmtiles": "PMTiles directory at byte 127",
            "data-offset-overflow.pmtiles": "offset 10 overflows",
            "run-2p32.pmtiles": "address more than",
            "leaf-fanout.pmtiles": "referenced twice",
            "leaf-cycle.pmtiles": "referenced twice",
        ]
        for (name, message) in expected {
            let reader = try PMTilesReader(path: regressions + "/" + name)
            var visited = 0
            do {
                try reader.forEachEntry { _, e in
                    _ = try? reader.tileData(e)
                    visited += 1
                    return true
                }
                XCTAssertNil(message, "\(name) must be refused")
                XCTAssertEqual(visited, 1, name)
            } catch {
                guard let message else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue("\(error)".contains(message), "\(name): \(error)")
                XCTAssertLessThanOrEqual(visited, 1, name)
            }
        }
    }

    /// Brotli (RFC 7932) and zstd (RFC 8878) round-trip through the system libraries; a
    /// frame written by the zstd command line (with a checksum) is read; corrupt,
    /// truncated and oversized input are typed errors.
    func testBrotliAndZstd() throws {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 100, 70_000] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...7, using: &rng) }
            XCTAssertEqual(try Brotli.decompress(Brotli.compress(bytes)), bytes, "brotli \(size)")
            XCTAssertEqual(try Zstd.decompress(Zstd.compress(bytes)), bytes, "zstd \(size)")
            for code: UInt8 in 1...4 {
                XCTAssertEqual(try ArchiveCompression.decompress(ArchiveCompression.compress(bytes, compression: code),
                                                                 compression: code, limit: 1 << 20), bytes)
            }
        }
        // `printf 'graticule pmtiles zstd vector\n' | zstd -19 --check`
        let hex = "28b52ffd0468f10000677261746963756c6520706d74696c6573207a73746420766563746f720a28ee9f61"
        let frame = stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
            let a = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[a..<hex.index(a, offsetBy: 2)], radix: 16)!
        }
        XCTAssertEqual(try Zstd.decompress(frame), Array("graticule pmtiles zstd vector\n".utf8))
        let text = Array(String(repeating: "tile ", count: 10_000).utf8)
        for (name, compressed, decode) in [
            ("brotli", Brotli.compress(text), { (b: [UInt8], l: Int) throws -> [UInt8] in try Brotli.decompress(b, limit: l) }),
            ("zstd", Zstd.compress(text), { (b: [UInt8], l: Int) throws -> [UInt8] in try Zstd.decompress(b, limit: l) }),
        ] {
            XCTAssertThrowsError(try decode(Array(compressed.prefix(compressed.count / 2)), 1 << 20), "\(name) truncated")
            XCTAssertThrowsError(try decode(Array("not compressed at all".utf8), 1 << 20), "\(name) not a stream")
            XCTAssertThrowsError(try decode(compressed, 1000), "\(name) past the limit") {
                guard case .tooLarge? = $0 as? ArchiveCompression.Error else { return XCTFail("\(name): \($0)") }
            }
        }
    }

    /// Archives whose tiles are brotli or zstd read back with the same tiles.
    func testPMTilesWithBrotliAndZstdTiles() throws {
        for compression in [PMTiles.Compression.brotli, .zstd] {
            let path = tmp("\(compression).pmtiles")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let w = try PMTilesWriter(path: path, tileCompression: compression, minZoom: 0, maxZoom: 2)
            var originals: [TileID: [UInt8]] = [:]
            for id in 0..<UInt64(21) {
                let t = PMTiles.tile(id: id)!
                let raw = Array("tile \(t) ".utf8) + Array(repeating: UInt8(id), count: 50)
                originals[t] = raw
                try w.add(t, data: ArchiveCompression.compress(raw, compression: compression.rawValue))
            }
            try w.finish(metadataJSON: "{}")
            let r = try PMTilesReader(path: path)
            XCTAssertEqual(r.header.tileCompression, compression.rawValue)
            var read: [TileID: [UInt8]] = [:]
            try r.forEachEntry { t, e in
                read[t] = try r.decodedTile(try r.tileData(e))
                return true
            }
            XCTAssertEqual(read, originals, "\(compression)")
        }
    }

    /// One tile found in an archive by z/x/y, through leaf directories in PMTiles and by
    /// TMS row in MBTiles; a tile the archive lacks is nil.
    func testLookupOfOneTile() throws {
        let p = tmp("lookup.pmtiles"), m = tmp("lookup.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: p); try? FileManager.default.removeItem(atPath: m) }
        let w = try PMTilesWriter(path: p, tileCompression: .none, minZoom: 0, maxZoom: 6)
        w.leafSize = 64                      // several leaf directories
        let mb = try MBTilesWriter(path: m, metadata: [("name", "lookup")])
        var stored: [TileID: [UInt8]] = [:]
        for id in stride(from: UInt64(0), to: 1365, by: 3) {        // every third tile up to z5
            let t = PMTiles.tile(id: id)!
            let data = Array("\(t)".utf8)
            stored[t] = data
            try w.add(t, data: data)
            try mb.add(t, data: data)
        }
        try w.finish(metadataJSON: "{}")
        try mb.finish()
        let r = try PMTilesReader(path: p), q = try MBTilesReader(path: m)
        for id in UInt64(0)..<1365 {
            let t = PMTiles.tile(id: id)!
            let fromPMTiles = try r.entry(for: t).map { try r.tileData($0) }
            XCTAssertEqual(fromPMTiles, stored[t], "\(t)")
            XCTAssertEqual(try q.tile(t), stored[t], "\(t)")
        }
        XCTAssertNil(try r.entry(for: TileID(z: 9, x: 3, y: 3)!))
        // The same through TileArchiveFile, which tells the two apart by path.
        XCTAssertTrue(TileArchiveFile.isArchive(path: p) && TileArchiveFile.isArchive(path: m))
        for id in UInt64(0)..<200 {
            let t = PMTiles.tile(id: id)!
            XCTAssertEqual(try TileArchiveFile.tile(t, path: p), stored[t], "\(t)")
            XCTAssertEqual(try TileArchiveFile.tile(t, path: m), stored[t], "\(t)")
        }
        // A PMTiles archive is known by its magic number under any name; a tile file is not.
        let renamed = tmp("lookup.bin"), plain = tmp("tile.mvt")
        defer { try? FileManager.default.removeItem(atPath: renamed); try? FileManager.default.removeItem(atPath: plain) }
        try FileManager.default.copyItem(atPath: p, toPath: renamed)
        try Data([0x1a, 0x02]).write(to: URL(fileURLWithPath: plain))
        XCTAssertTrue(TileArchiveFile.isArchive(path: renamed))
        XCTAssertFalse(TileArchiveFile.isArchive(path: plain))
    }

    /// `verify` finds nothing in an archive as written, and names what a changed header
    /// contradicts: counts, zooms, a section past the end of the file; and a crafted
    /// archive's broken directories.
    func testVerify() throws {
        let p = tmp("verify.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: p) }
        let w = try PMTilesWriter(path: p, tileCompression: .none, minZoom: 0, maxZoom: 3)
        w.leafSize = 16
        for id in UInt64(0)..<85 { try w.add(PMTiles.tile(id: id)!, data: Array("\(id)".utf8)) }
        try w.finish(metadataJSON: #"{"vector_layers":[{"id":"numbers","fields":{}}]}"#)
        XCTAssertEqual(try PMTilesReader(path: p).verify(), [])
        let original = try Data(contentsOf: URL(fileURLWithPath: p))
        func tampered(_ change: (inout PMTiles.Header) -> Void) throws -> [String] {
            var header = try PMTiles.Header(decoding: Array(original.prefix(PMTiles.Header.size)))
            change(&header)
            var bytes = Array(original)
            bytes.replaceSubrange(0..<PMTiles.Header.size, with: header.encoded())
            try Data(bytes).write(to: URL(fileURLWithPath: p))
            return try PMTilesReader(path: p).verify().map(\.description)
        }
        XCTAssertTrue(try tampered { $0.addressedTiles = 86 }.contains { $0.contains("86 addressed tiles") })
        XCTAssertTrue(try tampered { $0.tileContents = 3 }.contains { $0.contains("3 tile contents") })
        XCTAssertTrue(try tampered { $0.maxZoom = 2 }.contains { $0.contains("outside the header's zooms") })
        XCTAssertTrue(try tampered { $0.metadataLength += 1 << 20 }.contains { $0.contains("runs past the end") })
        let regressions = TestPaths.corpora("regressions/pmtiles")
        XCTAssertTrue(try PMTilesReader(path: regressions + "/leaf-cycle.pmtiles").verify().contains { $0.rule == "PM15" && $0.message.contains("referenced twice") })
    }
}
