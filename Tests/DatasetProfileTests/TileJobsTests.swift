import XCTest
import CSQLite
import CorpusGenerators
import DatasetProfile
import Foundation
import TileArchive
import TileCover

/// MBTiles archives and tile folders read by several threads (`profile --jobs`) and in
/// shards give exactly the profile of one pass. MBTiles in each layout: a `tiles` table, a
/// `tiles` view over `map` and `images` with an index (the deduplicated layout), and a view
/// that would need sorting (read by one thread, refused in shards).
final class TileJobsTests: XCTestCase {
    enum Layout { case table, indexedView, unindexedView }

    /// The 341 tiles of z0–z4 in a shuffled row order; every 23rd is truncated (a
    /// finding), and with a table, every 50th row has a zoom that is not a tile's.
    func archive(_ layout: Layout) throws -> String {
        let path = temporaryPath("a.mbtiles")
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        func exec(_ sql: String) { XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, sql) }
        exec("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('name', 'test');")
        switch layout {
        case .table:
            exec("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
        case .indexedView, .unindexedView:
            exec("CREATE TABLE map (zoom_level integer, tile_column integer, tile_row integer, tile_id text);"
                 + "CREATE TABLE images (tile_data blob, tile_id text); CREATE UNIQUE INDEX images_id ON images (tile_id);"
                 + "CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, "
                 + "map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id")
            if layout == .indexedView { exec("CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row)") }
        }
        var rng = SystemRandomNumberGenerator()
        let ids = Array(UInt64(0)..<341).shuffled(using: &rng)
        exec("BEGIN")
        for (i, id) in ids.enumerated() {
            let t = PMTiles.tile(id: id)!
            var raw = SyntheticTiles.tile(z: Int(t.z), x: Int(t.x), y: Int(t.y), density: 0.05)
            if i % 23 == 7 { raw = Array(raw.prefix(raw.count / 2)) }
            let hex = Gzip.compress(raw).map { String(format: "%02x", $0) }.joined()
            let row = (1 << Int(t.z)) - 1 - Int(t.y)
            if layout == .table {
                exec("INSERT INTO tiles VALUES (\(t.z), \(t.x), \(row), x'\(hex)')")
                if i % 50 == 3 { exec("INSERT INTO tiles VALUES (40, 1, 1, x'\(hex)')") }
            } else {
                exec("INSERT INTO map VALUES (\(t.z), \(t.x), \(row), '\(i)'); INSERT INTO images VALUES (x'\(hex)', '\(i)')")
            }
        }
        exec("COMMIT")
        return path
    }

    func profile(_ path: String, jobs: Int) throws -> DatasetProfile {
        var p = DatasetProfile(zoom: 3, keep: 12)
        try p.profile(path: path, jobs: jobs)
        return p
    }

    func testJobsAndShardsGiveTheFiguresOfOnePass() throws {
        for layout in [Layout.table, .indexedView, .unindexedView] {
            let path = try archive(layout)
            XCTAssertEqual(try MBTilesReader(path: path).order,
                           layout == .table ? .rowid : layout == .indexedView ? .key : .unordered)
            let one = try profile(path, jobs: 1)
            XCTAssertEqual(one.tiles, 341)
            XCTAssertGreaterThan(one.errors, 12, "the truncated tiles are findings")
            for jobs in [2, 3, 7, 64] {
                let many = try profile(path, jobs: jobs)
                XCTAssertEqual(many.csv(), one.csv(), "\(layout) jobs \(jobs)")
                XCTAssertEqual(many.json(path: path), one.json(path: path), "\(layout) jobs \(jobs)")
                XCTAssertEqual(many.shown, one.shown, "\(layout) jobs \(jobs)")
            }
            let dataset = try DatasetProfile.shardDataset(path: path)
            for n in [1, 2, 5, 400] {
                do {
                    let shards = try (0..<n).map { i in
                        var p = DatasetProfile(zoom: 3, keep: 12)
                        try p.profile(path: path, shard: (i, n))
                        return p.shard(index: i, count: n, dataset: dataset)
                    }
                    XCTAssertNotEqual(layout, .unindexedView, "a view that needs sorting is not cut")
                    let merged = try DatasetProfile(merging: shards.shuffled())
                    XCTAssertEqual(merged.csv(), one.csv(), "\(layout) \(n) shards")
                    XCTAssertEqual(merged.shown, one.shown, "\(layout) \(n) shards")
                } catch {
                    XCTAssertEqual(layout, .unindexedView, "\(error)")
                    XCTAssertTrue("\(error)".contains("would have to be sorted"), "\(error)")
                }
            }
        }
    }

    /// An archive with no tiles: every part but the first is empty, and the figures are
    /// those of one pass.
    func testAnEmptyArchiveCutsIntoEmptyParts() throws {
        let path = temporaryPath("empty.mbtiles")
        let w = try MBTilesWriter(path: path, metadata: [("name", "empty")])
        try w.finish()
        let one = try profile(path, jobs: 1)
        XCTAssertEqual(one.tiles, 0)
        XCTAssertEqual(try profile(path, jobs: 4).csv(), one.csv())
    }

    /// A folder of z/x/y tiles with truncated tiles, tiles outside z/x/y and a file that
    /// is not a tile: jobs and shards give the figures and findings of one pass.
    func testATileFolderInJobsAndShards() throws {
        let dir = temporaryPath("tiles")
        for id in UInt64(0)..<200 {
            let t = PMTiles.tile(id: id)!
            var raw = SyntheticTiles.tile(z: Int(t.z), x: Int(t.x), y: Int(t.y), density: 0.05)
            if id % 17 == 4 { raw = Array(raw.prefix(raw.count / 3)) }
            try FileManager.default.createDirectory(atPath: "\(dir)/\(t.z)/\(t.x)", withIntermediateDirectories: true)
            try Data(raw).write(to: URL(fileURLWithPath: "\(dir)/\(t.z)/\(t.x)/\(t.y).mvt"))
        }
        try FileManager.default.createDirectory(atPath: dir + "/extra", withIntermediateDirectories: true)
        try Data([0x1A, 0x02, 0x0A]).write(to: URL(fileURLWithPath: dir + "/extra/b.pbf"))
        try Data([0x1A, 0x00]).write(to: URL(fileURLWithPath: dir + "/extra/a.mvt"))
        let one = try profile(dir, jobs: 1)
        XCTAssertEqual(one.tiles, 202)
        XCTAssertEqual(one.warnings, 2, "two files outside z/x/y")
        XCTAssertGreaterThan(one.errors, 10)
        for jobs in [2, 3, 9, 500] {
            let many = try profile(dir, jobs: jobs)
            XCTAssertEqual(many.csv(), one.csv(), "jobs \(jobs)")
            XCTAssertEqual(many.shown, one.shown, "jobs \(jobs)")
        }
        let dataset = try DatasetProfile.shardDataset(path: dir)
        for n in [1, 3, 250] {
            let shards = try (0..<n).map { i in
                var p = DatasetProfile(zoom: 3, keep: 12)
                try p.profile(path: dir, shard: (i, n))
                return p.shard(index: i, count: n, dataset: dataset)
            }
            let merged = try DatasetProfile(merging: shards.shuffled())
            XCTAssertEqual(merged.csv(), one.csv(), "\(n) shards")
            XCTAssertEqual(merged.shown, one.shown, "\(n) shards")
        }
    }
}
