import XCTest
import CSQLite
import CorpusGenerators
import DatasetProfile
import TileArchive

/// MBTiles rows that are not one tile each are findings naming the row, never coerced or
/// counted silently: a (z, x, y) stored twice, NULL tile_data, and a zoom, column or row
/// that is NULL, text or not an integer.
final class MBTilesRowTests: XCTestCase {
    /// One gzip tile's bytes as an SQL blob literal's hex digits.
    let hex = Gzip.compress(SyntheticTiles.tile(z: 1, x: 0, y: 0, density: 0.05)).map { String(format: "%02x", $0) }.joined()

    /// An MBTiles archive named `name` with the usual metadata and tiles table, filled by
    /// `inserts` (SQL statements, in order).
    func archive(_ name: String, _ inserts: [String]) -> String {
        let path = temporaryPath(name)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &db), SQLITE_OK)
        func exec(_ sql: String) { XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, sql) }
        exec("CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
        exec(#"INSERT INTO metadata VALUES ('name', 'rows'), ('format', 'pbf'), ('json', '{"vector_layers":[{"id":"poi","fields":{}}]}')"#)
        for sql in inserts { exec(sql) }
        sqlite3_close(db)
        return path
    }

    func testRowsThatAreNotOneTileAreFindings() throws {
        let path = archive("rows.mbtiles", [
            "INSERT INTO tiles VALUES (1, 0, 1, x'\(hex)')",        // rowid 1: 1/0/0
            "INSERT INTO tiles VALUES (1, 0, 1, x'\(hex)')",        // rowid 2: the same tile again
            "INSERT INTO tiles VALUES (1, 1, 1, NULL)",             // rowid 3: no data
            "INSERT INTO tiles VALUES (NULL, 1, 0, x'\(hex)')",     // rowid 4
            "INSERT INTO tiles VALUES ('one', 1, 0, x'\(hex)')",    // rowid 5
            "INSERT INTO tiles VALUES (1, 2.5, 0, x'\(hex)')",      // rowid 6
            "INSERT INTO tiles VALUES (1, 1, 0, x'\(hex)')",        // rowid 7: a good tile
        ])
        var p = DatasetProfile(zoom: 2, keep: 20)
        try p.profile(path: path)
        let text = p.shown.joined(separator: "\n")
        XCTAssertEqual(p.tiles, 3, text)      // rowids 1, 2 and 7
        XCTAssertTrue(text.contains("zoom_level 1, tile_column 0, tile_row 1: 2 rows store one tile"), text)
        XCTAssertTrue(text.contains("rowid 3: zoom_level 1, tile_column 1, tile_row 1 (tile_data is NULL)"), text)
        XCTAssertTrue(text.contains("rowid 4: zoom_level NULL"), text)
        XCTAssertTrue(text.contains("rowid 5: zoom_level 'one'"), text)
        XCTAssertTrue(text.contains("rowid 6: zoom_level 1, tile_column 2.5"), text)
        XCTAssertFalse(text.contains("noLayers"), text)
        XCTAssertEqual(p.errors, 5, text)
        // The same findings with several jobs.
        var q = DatasetProfile(zoom: 2, keep: 20)
        try q.profile(path: path, jobs: 3)
        XCTAssertEqual(q.shown, p.shown)
        XCTAssertEqual(q.tiles, p.tiles)
    }

    /// Rowids at both ends of Int64 are cut into parts exactly (the span did not fit a
    /// double's conversion back and trapped): the figures of one pass with any jobs.
    func testExtremeRowidsCutIntoParts() throws {
        let insert = "INSERT INTO tiles (rowid, zoom_level, tile_column, tile_row, tile_data) VALUES"
        let path = archive("rowids.mbtiles", [
            "\(insert) (-9223372036854775808, 1, 0, 1, x'\(hex)')",
            "\(insert) (0, 1, 1, 1, x'\(hex)')",
            "\(insert) (9223372036854775807, 1, 1, 0, x'\(hex)')",
        ])
        let reader = try MBTilesReader(path: path)
        XCTAssertEqual(reader.order, .rowid)
        for n in [2, 3, 7] { XCTAssertEqual(try reader.parts(n).count, n) }
        var one = DatasetProfile(zoom: 2, keep: 20)
        try one.profile(path: path)
        XCTAssertEqual(one.tiles, 3)
        for jobs in [2, 3, 5] {
            var many = DatasetProfile(zoom: 2, keep: 20)
            try many.profile(path: path, jobs: jobs)
            XCTAssertEqual(many.tiles, 3, "jobs \(jobs)")
            XCTAssertEqual(many.csv(), one.csv(), "jobs \(jobs)")
        }
    }
}
