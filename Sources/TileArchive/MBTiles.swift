import CSQLite
import TileCover

/// MBTiles 1.3 archives (SQLite): `metadata(name, value)` and
/// `tiles(zoom_level, tile_column, tile_row, tile_data)` with TMS rows (y flipped).
public enum MBTiles {
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ m: String) { message = m }
        public var description: String { "MBTiles: \(message)" }
    }
}

/// Reads an MBTiles file with the system SQLite, one row at a time.
public final class MBTilesReader {
    private var db: OpaquePointer?
    public let path: String

    public init(path: String) throws(MBTiles.Error) {
        self.path = path
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            let m = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw MBTiles.Error("\(path): \(m)")
        }
    }

    deinit { sqlite3_close(db) }

    private func prepare(_ sql: String) throws(MBTiles.Error) -> OpaquePointer {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))")
        }
        return stmt
    }

    /// The metadata table as name → value.
    public func metadata() throws(MBTiles.Error) -> [(String, String)] {
        let s = try prepare("SELECT name, value FROM metadata")
        defer { sqlite3_finalize(s) }
        var out: [(String, String)] = []
        while sqlite3_step(s) == SQLITE_ROW {
            out.append((sqlite3_column_text(s, 0).map { String(cString: $0) } ?? "",
                        sqlite3_column_text(s, 1).map { String(cString: $0) } ?? ""))
        }
        return out
    }

    /// Number of tile rows.
    public func count() throws(MBTiles.Error) -> Int {
        let s = try prepare("SELECT count(*) FROM tiles")
        defer { sqlite3_finalize(s) }
        guard sqlite3_step(s) == SQLITE_ROW else { throw MBTiles.Error("\(path): cannot count tiles") }
        return Int(sqlite3_column_int64(s, 0))
    }

    /// The stored bytes of one tile (XYZ id; MBTiles keeps TMS rows, flipped here), nil when
    /// the archive does not have it.
    public func tile(_ t: TileID) throws(MBTiles.Error) -> [UInt8]? {
        let s = try prepare("SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
        defer { sqlite3_finalize(s) }
        sqlite3_bind_int64(s, 1, Int64(t.z))
        sqlite3_bind_int64(s, 2, Int64(t.x))
        sqlite3_bind_int64(s, 3, Int64((1 << Int(t.z)) - 1 - Int(t.y)))
        let rc = sqlite3_step(s)
        if rc == SQLITE_DONE { return nil }
        guard rc == SQLITE_ROW else { throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))") }
        let n = Int(sqlite3_column_bytes(s, 0))
        guard let p = sqlite3_column_blob(s, 0) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    /// Visits every tile (XYZ id, stored bytes); rows that are not a valid tile id are
    /// reported to `invalid` with their raw zoom/column/row. Return false to stop.
    public func forEachTile(invalid: (String) -> Void = { _ in },
                            _ body: (TileID, UnsafeRawBufferPointer) throws -> Bool) throws {
        let s = try prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        defer { sqlite3_finalize(s) }
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))") }
            let z = Int(sqlite3_column_int64(s, 0)), x = Int(sqlite3_column_int64(s, 1)), row = Int(sqlite3_column_int64(s, 2))
            guard (0...Int(TileID.maxZoom)).contains(z), let t = TileID(z: z, x: x, y: (1 << z) - 1 - row) else {
                invalid("zoom_level \(z), tile_column \(x), tile_row \(row)")
                continue
            }
            let n = Int(sqlite3_column_bytes(s, 3))
            let p = sqlite3_column_blob(s, 3)
            if try !body(t, UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n)) { break }
        }
    }
}

/// Writes an MBTiles file in batched transactions.
public final class MBTilesWriter {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    private var pending = 0
    public let path: String

    public init(path: String, metadata: [(String, String)]) throws(MBTiles.Error) {
        self.path = path
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw MBTiles.Error("cannot create \(path)") }
        try exec("""
        PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
        DROP TABLE IF EXISTS metadata; DROP TABLE IF EXISTS tiles;
        CREATE TABLE metadata (name text, value text);
        CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
        """)
        var m: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?, ?)", -1, &m, nil)
        for (k, v) in metadata {
            sqlite3_bind_text(m, 1, k, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_text(m, 2, v, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_step(m); sqlite3_reset(m)
        }
        sqlite3_finalize(m)
        sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &insert, nil)
        try exec("BEGIN")
    }

    deinit { sqlite3_finalize(insert); sqlite3_close(db) }

    private func exec(_ sql: String) throws(MBTiles.Error) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    public func add(_ t: TileID, data: [UInt8]) throws(MBTiles.Error) {
        sqlite3_bind_int64(insert, 1, Int64(t.z))
        sqlite3_bind_int64(insert, 2, Int64(t.x))
        sqlite3_bind_int64(insert, 3, Int64(t.tmsY))
        data.withUnsafeBytes { _ = sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
        guard sqlite3_step(insert) == SQLITE_DONE else { throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))") }
        sqlite3_reset(insert)
        pending += 1
        if pending >= 50_000 { try exec("COMMIT; BEGIN"); pending = 0 }
    }

    public func finish() throws(MBTiles.Error) {
        try exec("COMMIT")
        try exec("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    }
}
