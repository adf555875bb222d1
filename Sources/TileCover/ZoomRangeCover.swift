import GeoModel

/// A geometry's closed-square cover over a range of zooms: computed at the deepest zoom,
/// the shallower zooms being its ancestors. This is exact: a tile's closed square meets a
/// geometry iff one of its four children's does. Source indexes and diffs use it to know
/// which tiles of every zoom a feature touches.
public enum ZoomRangeCover {
    /// The tiles of `geometry` at `zooms.upperBound` (none for a nil geometry).
    ///
    /// - Complexity: O(1) for a geometry strictly inside one tile, else that of
    ///   `TileCoverage.tiles(for:zoom:)`.
    @inlinable
    public static func deepest(_ geometry: Geometry?, _ zooms: ClosedRange<Int>) -> [TileID] {
        guard let g = geometry else { return [] }
        if let t = interiorTile(g, zoom: zooms.upperBound) { return [t] }
        return TileCoverage.tiles(for: g, zoom: zooms.upperBound)
    }

    /// The one tile that holds every position of `g` strictly inside it (not on a tile
    /// edge, where a point's closed cover has 2 or 4 tiles); nil otherwise. That tile is
    /// then the geometry's whole closed cover at `zoom`: the open square is convex, so the
    /// segments between the positions and the area a ring encloses stay inside it too, and
    /// no other tile's closed square meets the open square. (A point, or a small line or
    /// outline such as a building; collections keep their positions in their members and
    /// take the general cover.)
    ///
    /// - Complexity: O(positions); allocates nothing.
    @inlinable @inline(__always)
    public static func interiorTile(_ g: Geometry, zoom: Int) -> TileID? {
        let count = g.positionCount
        guard count >= 1, g.kind != .geometryCollection,
              let t = pointTile(longitude: g.x(0), latitude: g.y(0), zoom: zoom) else { return nil }
        for i in 1..<count where pointTile(longitude: g.x(i), latitude: g.y(i), zoom: zoom) != t { return nil }
        return t
    }

    /// The tile whose open square holds the position at `zoom`; nil on a tile edge or
    /// outside the Web Mercator square.
    @inlinable @inline(__always)
    public static func pointTile(longitude: Double, latitude: Double, zoom: Int) -> TileID? {
        let n = Double(1 << zoom)
        let fx = WebMercator.x(longitude: longitude) * n, fy = WebMercator.y(latitude: latitude) * n
        guard fx > 0, fy > 0, fx < n, fy < n else { return nil }
        let ix = fx.rounded(.down), iy = fy.rounded(.down)
        guard ix != fx, iy != fy else { return nil }
        return TileID(z: zoom, x: Int(ix), y: Int(iy))
    }

    /// Passes every tile of `deep` (tiles at `zooms.upperBound`) and its ancestors down to
    /// `zooms.lowerBound` to `insert`, which answers whether the tile was new. A set that
    /// only ever receives tiles this way holds every ancestor in range of each tile it
    /// holds, so each chain stops at its first tile that was already there (nearby features
    /// share most of their ancestors).
    @inlinable
    public static func insertWithAncestors<C: Collection>(_ deep: C, _ zooms: ClosedRange<Int>,
                                                          _ insert: (TileID) -> Bool) where C.Element == TileID {
        for d in deep {
            var t = d, z = zooms.upperBound
            while insert(t) && z > zooms.lowerBound {
                t = t.parent!
                z -= 1
            }
        }
    }

    /// Calls `body` once with every tile of `deep` (tiles at `zooms.upperBound`) and every
    /// ancestor of them down to `zooms.lowerBound`.
    ///
    /// - Complexity: O(tiles over the range); a single deep tile allocates nothing.
    @inlinable
    public static func forEachWithAncestors<C: Collection>(_ deep: C, _ zooms: ClosedRange<Int>, _ body: (TileID) -> Void)
        where C.Element == TileID
    {
        if deep.count == 1 {
            // One tile (a point): it and its ancestors, without building sets.
            var t = deep.first!
            body(t)
            for _ in zooms.dropFirst() {
                t = t.parent!
                body(t)
            }
            return
        }
        var level = Set(deep)
        var z = zooms.upperBound
        while true {
            level.forEach(body)
            if z == zooms.lowerBound { break }
            level = Set(level.map { $0.parent! })
            z -= 1
        }
    }
}

