import GeoModel

/// A cover held as row runs: the tiles of one zoom as sorted, disjoint stretches of
/// columns within a row, so a polygon's interior costs one run per row however many tiles
/// it holds. Memory is O(boundary tiles + runs), never O(tiles): the world square at z14 is
/// 16,384 runs for its 268 million tiles.
///
/// Tiles come out in (y, x) order, as `TileCoverage.tiles(for:zoom:mode:)` lists them, one
/// at a time (`forEach`) or a run at a time (`forEachRun`), without building the list.
///
/// ```swift
/// let cover = TileCoverage.runs(for: geometries, zoom: 14)
/// print(cover.count)                 // without enumerating
/// try cover.forEach { tile in try write(tile) }
/// ```
public struct TileRuns: Sequence, Sendable {
    /// A stretch of tiles in one row: columns `firstColumn...lastColumn` of row `row`.
    public struct Run: Equatable, Sendable {
        public var row: UInt32
        public var firstColumn: UInt32
        public var lastColumn: UInt32
        /// Number of tiles in the run.
        public var count: Int { Int(lastColumn - firstColumn) + 1 }
    }

    /// The zoom of every tile.
    public let zoom: Int
    /// The runs, sorted by row then column, disjoint and not touching (two runs of a row
    /// have at least one column between them).
    public let runs: [Run]
    /// Number of tiles (computed once, from the runs).
    public let count: Int

    /// Runs from sorted, unique keys `row << 32 | column` and interior stretches (start key,
    /// last column), which may overlap one another and the keys; stretches need not be
    /// sorted.
    init(zoom: Int, keys: [UInt64], stretches: [(UInt64, Int)]) {
        self.zoom = zoom
        let spans = stretches.map { (start: $0.0, end: ($0.0 & ~0xFFFF_FFFF) | UInt64($0.1)) }.sorted { $0.start < $1.start }
        var out: [Run] = []
        out.reserveCapacity(spans.count + keys.count / 4 + 1)
        var total = 0
        // The run being built, as keys start...end.
        var open: (start: UInt64, end: UInt64)? = nil
        func add(_ start: UInt64, _ end: UInt64) {
            if let o = open, start >> 32 == o.end >> 32, start <= o.end &+ 1 {
                if end > o.end { open!.end = end }
                return
            }
            if let o = open { close(o) }
            open = (start, end)
        }
        func close(_ o: (start: UInt64, end: UInt64)) {
            let r = Run(row: UInt32(o.start >> 32), firstColumn: UInt32(truncatingIfNeeded: o.start),
                        lastColumn: UInt32(truncatingIfNeeded: o.end))
            total += r.count
            out.append(r)
        }
        var k = 0, s = 0
        while k < keys.count || s < spans.count {
            if s == spans.count || (k < keys.count && keys[k] < spans[s].start) {
                add(keys[k], keys[k])
                k += 1
            } else {
                add(spans[s].start, spans[s].end)
                s += 1
            }
        }
        if let o = open { close(o) }
        runs = out
        count = total
    }

    /// Whether `tile` (of any zoom) is in the cover. O(log runs).
    public func contains(_ tile: TileID) -> Bool {
        guard Int(tile.z) == zoom else { return false }
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let r = runs[mid]
            if r.row < tile.y || (r.row == tile.y && r.lastColumn < tile.x) { lo = mid + 1 } else { hi = mid }
        }
        guard lo < runs.count else { return false }
        let r = runs[lo]
        return r.row == tile.y && r.firstColumn <= tile.x
    }

    /// Calls `body` with each run in order.
    public func forEachRun(_ body: (Run) throws -> Void) rethrows {
        for r in runs { try body(r) }
    }

    public func makeIterator() -> Iterator { Iterator(zoom: zoom, runs: runs) }

    /// The tiles in (y, x) order.
    public struct Iterator: IteratorProtocol {
        let zoom: Int
        let runs: [Run]
        var index = 0
        var column: UInt32 = 0
        var started = false

        public mutating func next() -> TileID? {
            guard index < runs.count else { return nil }
            let r = runs[index]
            if !started { column = r.firstColumn; started = true }
            let t = TileID(unchecked: zoom, x: column, y: r.row)
            if column == r.lastColumn { index += 1; started = false } else { column += 1 }
            return t
        }
    }
}

extension TileCoverage {
    /// The union of the covers of `geometries` at `zoom` as row runs (see ``TileRuns``): the
    /// same tiles as `tiles(for:zoom:mode:)`, with memory O(boundary tiles + interior
    /// runs) instead of O(tiles), so a cover of any area can be counted and streamed.
    ///
    /// - Complexity: O(vertices + boundary tiles + runs · log runs).
    public static func runs(for geometries: [Geometry], zoom: Int, mode: Mode = .closed) -> TileRuns {
        precondition(zoom >= 0 && zoom <= Int(TileID.maxZoom), "zoom must be 0...30")
        var cover = _Cover(zoom: zoom)
        cover.minimal = mode == .minimal
        for g in geometries { cover.add(g, projected: true) }
        return cover.finishRuns()
    }
}

extension _Cover {
    /// The keys and interior runs as ``TileRuns`` (no tile list is built).
    mutating func finishRuns() -> TileRuns {
        _Cover.sortKeys(&keys, zoom: zoom)
        var w = 0
        for r in 0..<keys.count where w == 0 || keys[w - 1] != keys[r] {
            keys[w] = keys[r]
            w += 1
        }
        keys.removeLast(keys.count - w)
        let result = TileRuns(zoom: zoom, keys: keys, stretches: runs)
        keys = []
        runs = []
        return result
    }
}
