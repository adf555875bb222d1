import Foundation
import GraticuleTestSupport
import TileArchive
import TileCover
import XCTest
@testable import DatasetProfile

/// Archives of every tile type: images counted by format and size, never decoded as vector
/// tiles; tiles that contradict the declared type or compression are findings (PM21); an
/// MBTiles metadata table is checked as MBTiles 1.3 defines it.
final class TileContentProfileTests: XCTestCase {
    /// A PNG header (signature and IHDR) of the given size, written here from the PNG layout.
    func png(_ w: UInt32, _ h: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(w) + be(h) + [8, 2, 0, 0, 0, 0, 0, 0, 0]
    }

    func pmtiles(type: PMTiles.TileType, compression: PMTiles.Compression = .none, tiles: [(UInt64, [UInt8])], name: String) throws -> String {
        let path = temporaryPath(name)
        let w = try PMTilesWriter(path: path, tileCompression: compression, minZoom: 0, maxZoom: 2)
        w.header.tileType = type.rawValue
        for (id, data) in tiles { try w.add(PMTiles.tile(id: id)!, data: data) }
        try w.finish(metadataJSON: #"{"name":"images","attribution":"here"}"#)
        return path
    }

    func profile(_ path: String, jobs: Int = 1) throws -> DatasetProfile {
        var p = DatasetProfile(zoom: 2, keep: 20)
        try p.profile(path: path, jobs: jobs)
        return p
    }

    func testARasterArchiveIsProfiledAsImages() throws {
        let path = try pmtiles(type: .png, tiles: (0..<21).map { ($0, png($0 < 5 ? 512 : 256, $0 < 5 ? 512 : 256)) }, name: "raster.pmtiles")
        for jobs in [1, 2] {
            let p = try profile(path, jobs: jobs)
            XCTAssertEqual(p.tiles, 21)
            XCTAssertEqual(p.tileContents, ["png 512×512": 5, "png 256×256": 16])
            XCTAssertEqual(p.errors, 0, "\(p.shown)")
            XCTAssertEqual(p.features, 0)
            XCTAssertTrue(p.metadata.contains { $0 == ("tile type", "png") })
            XCTAssertTrue(p.metadata.contains { $0 == ("attribution", "here") })
            XCTAssertTrue(p.metadata.contains { $0.0 == "bounds" })
        }
    }

    /// The specification's own raster example (zooms 0–3, 85 PNG tiles), when the shared
    /// corpora are beside the repository.
    func testTheSpecificationsRasterExample() throws {
        let path = TestPaths.shared("pmtiles") + "/stamen_toner_raster_z3.pmtiles"
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("no shared corpora") }
        let p = try profile(path)
        XCTAssertEqual(p.tiles, 85)
        XCTAssertEqual(p.tileContents, ["png 256×256": 85])
        XCTAssertEqual(p.errors, 0, "\(p.shown)")
        XCTAssertTrue(p.summary().contains("png 256×256: 85 tiles"))
    }

    func testTilesThatContradictTheHeaderAreFindings() throws {
        let webp = try profile(try pmtiles(type: .webp, tiles: [(0, png(256, 256))], name: "png-as-webp.pmtiles"))
        XCTAssertEqual(webp.errors, 1)
        XCTAssertTrue(webp.shown.first?.contains("[PM21] tile 0/0/0: declared webp, but its bytes are png") == true, "\(webp.shown)")
        XCTAssertEqual(webp.tileContents, ["png 256×256": 1])
        // gzip bytes under "none": read, and said.
        let mvt = try profile(try pmtiles(type: .mvt, tiles: [(0, Gzip.compress([0x1A, 0x00]))], name: "gzip-as-none.pmtiles"))
        XCTAssertTrue(mvt.shown.contains { $0.contains("[PM21] tile 0/0/0: gzip bytes, but the header says tile compression none") }, "\(mvt.shown)")
        // An MVT archive's metadata without vector_layers (PM19).
        XCTAssertTrue(mvt.shown.contains { $0.contains("[PM19]") }, "\(mvt.shown)")
        // MapLibre tiles are counted and sized, not decoded.
        let mlt = try profile(try pmtiles(type: .mlt, tiles: [(0, [1, 2, 3]), (1, [4, 5])], name: "mlt.pmtiles"))
        XCTAssertEqual(mlt.tileContents, ["mlt (not decoded)": 2])
        XCTAssertEqual(mlt.errors, 0, "\(mlt.shown)")
    }

    /// Shards of a raster archive merge into the profile of one run.
    func testRasterShardsMerge() throws {
        let path = try pmtiles(type: .png, tiles: (0..<21).map { ($0, png(256, 256)) }, name: "raster-shards.pmtiles")
        let whole = try profile(path)
        var files: [[UInt8]] = []
        for i in 0..<3 {
            var p = DatasetProfile(zoom: 2, keep: 20)
            try p.profile(path: path, shard: (i, 3))
            let data = try JSONEncoder().encode(p.shard(index: i, count: 3, dataset: try DatasetProfile.shardDataset(path: path)))
            files.append([UInt8](data))
        }
        let merged = try DatasetProfile(merging: files.enumerated().map { try DatasetProfile.Shard.read($0.element, file: "shard \($0.offset)") })
        XCTAssertEqual(merged.tileContents, whole.tileContents)
        XCTAssertEqual(merged.tiles, 21)
    }

    func testMBTilesMetadataTable() throws {
        let t = MBTilesMetadata([("format", "pbf"), ("bounds", "10,5,-10,95"), ("minzoom", "3"), ("maxzoom", "1"), ("center", "0,0")])
        let messages = t.problems.map(\.message)
        XCTAssertTrue(messages.contains("no `name` row (required)"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("beyond ±180°, ±90°") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("minimum above its maximum") }, "\(messages)")
        XCTAssertTrue(messages.contains("`minzoom` 3 is above `maxzoom` 1"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("`center` is \"0,0\", not 3") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("no `json` row with `vector_layers`") }, "\(messages)")
        let good = MBTilesMetadata([("name", "n"), ("format", "png"), ("bounds", "-180,-85,180,85"), ("center", "0,0,2"),
                                    ("minzoom", "0"), ("maxzoom", "4")])
        XCTAssertEqual(good.problems, [])
        XCTAssertEqual(good.check(tileZooms: [0, 5]).map(\.message), ["tiles at zoom 5, above `maxzoom` 4"])
        // Profiled: the table's findings, and PNG tiles counted as images.
        let path = temporaryPath("images.mbtiles")
        let w = try MBTilesWriter(path: path, metadata: [("name", "n"), ("format", "png"), ("maxzoom", "0")])
        try w.add(TileID(z: 0, x: 0, y: 0)!, data: png(256, 256))
        try w.add(TileID(z: 1, x: 0, y: 0)!, data: png(256, 256))
        try w.finish()
        let p = try profile(path)
        XCTAssertEqual(p.tileContents, ["png 256×256": 2])
        XCTAssertEqual(p.shown, ["error: MBTiles metadata: tiles at zoom 1, above `maxzoom` 0"])
    }
}
