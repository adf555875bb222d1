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

    /// The order rows are visited in, which `parts(_:)` cuts.
    public enum RowOrder: Sendable, Equatable {
        /// By rowid: `tiles` is a table (a table scan, no sort).
        case rowid
        /// By zoom, column and row: `tiles` is a view (as in the deduplicated layout of
        /// `map` and `images`) that an index gives in that order.
        case key
        /// As SQLite returns them: a view that would have to be sorted. Not cut.
        case unordered
    }

    /// A range of rows in `order`: `lower` up to, not including, `upper` (nil: open).
    /// Rowid order uses the first element of each bound.
    public struct RowRange: Sendable, Equatable {
        public var lower: [Int64]?
        public var upper: [Int64]?
    }

    /// The order `forEachTile` visits rows in (see `RowOrder`).
    public private(set) lazy var order: RowOrder = {
        // A view answers `rowid` too (with nulls), so the schema says which it is; a table
        // WITHOUT ROWID fails the query.
        if let t = try? prepare("SELECT type FROM sqlite_master WHERE name = 'tiles'") {
            let isTable = sqlite3_step(t) == SQLITE_ROW && sqlite3_column_text(t, 0).map { String(cString: $0) } == "table"
            sqlite3_finalize(t)
            if isTable, let s = try? prepare("SELECT rowid FROM tiles LIMIT 1") {
                sqlite3_finalize(s)
                return .rowid
            }
        }
        guard let plan = try? prepare("EXPLAIN QUERY PLAN " + Self.select + " ORDER BY zoom_level, tile_column, tile_row") else {
            return .unordered
        }
        defer { sqlite3_finalize(plan) }
        while sqlite3_step(plan) == SQLITE_ROW {
            if let d = sqlite3_column_text(plan, 3), String(cString: d).contains("TEMP B-TREE") { return .unordered }
        }
        return .key
    }()

    static let select = "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"

    /// The rows cut into `count` consecutive ranges of `order`, of about equal row counts
    /// (equal rowid spans in rowid order); one range, the whole archive, when the order is
    /// `unordered`. The ranges depend only on the archive.
    public func parts(_ count: Int) throws(MBTiles.Error) -> [RowRange] {
        precondition(count >= 1, "at least one part")
        var bounds: [[Int64]?] = [nil]
        switch order {
        case .unordered:
            return [RowRange(lower: nil, upper: nil)]
        case .rowid:
            let s = try prepare("SELECT min(rowid), max(rowid) FROM tiles")
            defer { sqlite3_finalize(s) }
            guard sqlite3_step(s) == SQLITE_ROW, sqlite3_column_type(s, 0) != SQLITE_NULL else { break }
            let lo = sqlite3_column_int64(s, 0), hi = sqlite3_column_int64(s, 1)
            // Exact integers: the span of rowids -2^63...2^63-1 does not fit an Int64, and a
            // double's rounding made Int64(2^63) trap. Bound i is lo + floor(width × i / count),
            // which stays within lo...hi.
            let width = UInt64(bitPattern: hi &- lo)
            for i in 1..<count {
                let product = width.multipliedFullWidth(by: UInt64(i))
                let step = UInt64(count).dividingFullWidth(product).quotient
                bounds.append([Int64(bitPattern: UInt64(bitPattern: lo) &+ step)])
            }
        case .key:
            let total = try self.count()
            let s = try prepare("SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_column, tile_row LIMIT 1 OFFSET ?1")
            defer { sqlite3_finalize(s) }
            for i in 1..<count {
                sqlite3_reset(s)
                sqlite3_bind_int64(s, 1, Int64(total / count * i))
                guard sqlite3_step(s) == SQLITE_ROW else { bounds.append(bounds.last!); continue }
                bounds.append((0..<3).map { sqlite3_column_int64(s, Int32($0)) })
            }
        }
        // An empty archive: the first part is the whole, the others are empty.
        let none = [Int64](repeating: .max, count: 3)
        while bounds.count < count { bounds.append(none) }
        bounds.append(nil)
        return (0..<count).map { RowRange(lower: bounds[$0], upper: bounds[$0 + 1]) }
    }

    /// Visits every tile (XYZ id, stored bytes) in `order`, or those of `range`. A row that
    /// is not a tile is reported to `invalid` and skipped, never coerced: a zoom, column or
    /// row that is NULL, text or not an integer (2.5), a zoom beyond 30 or a column or row
    /// outside the zoom's grid, and a NULL `tile_data`. The report names the row by its
    /// rowid (a `tiles` table) and its raw values. Return false to stop.
    public func forEachTile(in range: RowRange? = nil, invalid: (String) -> Void = { _ in },
                            _ body: (TileID, UnsafeRawBufferPointer) throws -> Bool) throws {
        var sql = order == .rowid ? "SELECT zoom_level, tile_column, tile_row, tile_data, rowid FROM tiles" : Self.select
        var binds: [Int64] = []
        let key = order == .rowid ? "rowid" : "(zoom_level, tile_column, tile_row)"
        func bound(_ op: String, _ b: [Int64]?) -> String? {
            guard let b else { return nil }
            let values = order == .rowid ? [b[0]] : b
            let marks = values.indices.map { "?\(binds.count + $0 + 1)" }.joined(separator: ", ")
            binds += values
            return "\(key) \(op) " + (values.count == 1 ? marks : "(\(marks))")
        }
        if let range, order != .unordered {
            let terms = [bound(">=", range.lower), bound("<", range.upper)].compactMap { $0 }
            if !terms.isEmpty { sql += " WHERE " + terms.joined(separator: " AND ") }
        }
        switch order {
        case .rowid: sql += " ORDER BY rowid"
        case .key: sql += " ORDER BY zoom_level, tile_column, tile_row"
        case .unordered: break
        }
        let s = try prepare(sql)
        defer { sqlite3_finalize(s) }
        for (i, v) in binds.enumerated() { sqlite3_bind_int64(s, Int32(i + 1), v) }
        /// A column's raw value, as a message shows it.
        func raw(_ i: Int32) -> String {
            switch sqlite3_column_type(s, i) {
            case SQLITE_NULL: return "NULL"
            case SQLITE_INTEGER: return "\(sqlite3_column_int64(s, i))"
            case SQLITE_FLOAT: return "\(sqlite3_column_double(s, i))"
            case SQLITE_TEXT: return "'" + String((sqlite3_column_text(s, i).map { String(cString: $0) } ?? "").prefix(40)) + "'"
            default: return "a blob"
            }
        }
        func row() -> String {
            (order == .rowid ? "rowid \(sqlite3_column_int64(s, 4)): " : "")
                + "zoom_level \(raw(0)), tile_column \(raw(1)), tile_row \(raw(2))"
        }
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw MBTiles.Error("\(path): \(String(cString: sqlite3_errmsg(db)))") }
            guard (0..<3).allSatisfy({ sqlite3_column_type(s, $0) == SQLITE_INTEGER }) else {
                invalid(row() + " (not all integers)")
                continue
            }
            let z = sqlite3_column_int64(s, 0), x = sqlite3_column_int64(s, 1), r = sqlite3_column_int64(s, 2)
            guard (0...Int64(TileID.maxZoom)).contains(z), let t = TileID(z: Int(z), x: Int(x), y: (1 << Int(z)) - 1 - Int(r)) else {
                invalid(row())
                continue
            }
            guard sqlite3_column_type(s, 3) != SQLITE_NULL else {
                invalid(row() + " (tile_data is NULL)")
                continue
            }
            let n = Int(sqlite3_column_bytes(s, 3))
            let p = sqlite3_column_blob(s, 3)
            if try !body(t, UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n)) { break }
        }
    }

    /// Tiles stored in more than one row: each repeated zoom/column/row with its number of
    /// rows (at most `limit` listed) and the number of such tiles. A unique index on the
    /// key, as the MBTiles layout creates, answers at once.
    public func repeatedTiles(limit: Int = 100) throws(MBTiles.Error) -> (listed: [(z: Int64, x: Int64, row: Int64, rows: Int64)], count: Int) {
        let s = try prepare("SELECT zoom_level, tile_column, tile_row, count(*) FROM tiles "
                            + "GROUP BY zoom_level, tile_column, tile_row HAVING count(*) > 1")
        defer { sqlite3_finalize(s) }
        var listed: [(z: Int64, x: Int64, row: Int64, rows: Int64)] = []
        var count = 0
        while sqlite3_step(s) == SQLITE_ROW {
            count += 1
            if listed.count < limit {
                listed.append((sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3)))
            }
        }
        return (listed, count)
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
