import TileCover

/// The tiles a snapshot diff touches: the held tiles of small covers, united with the
/// covers of large geometries, which are computed zoom by zoom as row runs when asked for
/// and never held tile by tile.
extension SnapshotDiff {
    /// Upper estimate of the number of touched tiles (exact for the held ones, the cover
    /// estimate for large geometries), known without computing a large cover: a caller can
    /// refuse a diff whose tile list would be too long before it is enumerated.
    public var touchedTileEstimate: Double { Double(touched.count) + touchedGeometryEstimate }

    /// Upper estimate of the boundary tiles the large touched geometries cross at the
    /// deepest zoom, which computing their covers holds one by one (compare with
    /// `TileCoverage.maxHeldBoundaryTiles`).
    public var touchedBoundaryEstimate: Double {
        guard let z = indexZooms?.upperBound else { return 0 }
        return TileCoverage.estimatedBoundaryCount(for: touchedGeometries, zoom: z)
    }

    /// The covers of the large touched geometries at `zoom`.
    func largeRuns(_ zoom: Int) -> TileRuns { TileCoverage.runs(for: touchedGeometries, zoom: zoom) }

    /// The number of touched tiles, without listing them.
    ///
    /// - Complexity: O(held tiles) without large geometries; with them, per zoom of the
    ///   index, their covers' boundaries and rows plus O(held tiles · log runs).
    public var touchedTileCount: Int {
        guard !touchedGeometries.isEmpty, let zooms = indexZooms else { return touched.count }
        var total = touched.count
        for z in zooms {
            let runs = largeRuns(z)
            total += runs.count
            touched.forEach { t in if Int(t.z) == z && runs.contains(t) { total -= 1 } }
        }
        return total
    }

    /// Calls `body` once with each touched tile, in no particular order, without building a
    /// set.
    public func forEachTouchedTile(_ body: (TileID) -> Void) {
        touched.forEach(body)
        guard !touchedGeometries.isEmpty, let zooms = indexZooms else { return }
        for z in zooms {
            for t in largeRuns(z) where !touched.contains(t) { body(t) }
        }
    }

    /// Calls `body` once with each touched tile, by zoom, then row (y), then column (x),
    /// holding no more than the held tiles and one zoom's runs.
    public func forEachTouchedTileInOrder(_ body: (TileID) throws -> Void) rethrows {
        var held: [TileID] = []
        held.reserveCapacity(touched.count)
        touched.forEach { held.append($0) }
        held.sort { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) }
        guard !touchedGeometries.isEmpty, let zooms = indexZooms else {
            for t in held { try body(t) }
            return
        }
        var h = 0
        for z in zooms {
            while h < held.count && Int(held[h].z) < z { try body(held[h]); h += 1 }
            for t in largeRuns(z) {
                while h < held.count && Int(held[h].z) == z && (held[h].y, held[h].x) < (t.y, t.x) { try body(held[h]); h += 1 }
                if h < held.count && held[h] == t { h += 1 }
                try body(t)
            }
        }
        while h < held.count { try body(held[h]); h += 1 }
    }

    /// The touched tiles as a set (built on each call: O(touched tiles)).
    public var touchedTiles: Set<TileID> {
        var set = Set<TileID>()
        forEachTouchedTile { set.insert($0) }
        return set
    }
}
