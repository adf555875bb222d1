import GeoModel

/// Upper estimates of how big an answer will be, computed before it is: a command can
/// refuse a request whose answer would not fit in memory (a 1° square at z22 covers about
/// 10^8 tiles) instead of dying part way.
extension TileCoverage {
    /// About how many tiles `tiles(for:zoom:)` returns for `geometry`, erring high: one per
    /// point; a segment at most |Δx| + |Δy| + 1 tiles, doubled for the tiles a closed cover
    /// adds where it runs along or through tile corners; a polygon its area in tiles plus
    /// its rings' tiles.
    ///
    /// - Complexity: O(positions); allocates nothing.
    public static func estimatedCount(for geometry: Geometry, zoom: Int) -> Double {
        estimate(geometry, zoom: zoom, area: true)
    }

    /// About how many tiles the boundary of `geometry` crosses at `zoom` (its lines and
    /// rings, points, no interior), erring high: what `runs(for:zoom:mode:)` holds one by
    /// one while it computes a cover (the interior is held as one run per row).
    ///
    /// - Complexity: O(positions); allocates nothing.
    public static func estimatedBoundaryCount(for geometry: Geometry, zoom: Int) -> Double {
        estimate(geometry, zoom: zoom, area: false)
    }

    static func estimate(_ geometry: Geometry, zoom: Int, area includeArea: Bool) -> Double {
        let n = Double(sign: .plus, exponent: min(max(zoom, 0), 30), significand: 1)
        let d = geometry.dimensions
        let positions = geometry.coordinates.count / d
        @inline(__always) func xy(_ i: Int) -> (Double, Double) {
            // x is kept within a world's width of the square: a far longitude (1e300)
            // would make differences infinite and the area NaN, while the part of a
            // segment inside the world is never longer than the clamped segment.
            (min(max(WebMercator.x(longitude: geometry.coordinates[i * d]) * n, -n), 2 * n),
             WebMercator.y(latitude: geometry.coordinates[i * d + 1]) * n)
        }
        /// Tiles along positions lo..<hi, and the signed area they enclose (in tiles).
        func along(_ lo: Int, _ hi: Int) -> (tiles: Double, area: Double) {
            guard hi > lo else { return (0, 0) }
            var tiles = 1.0, area = 0.0
            var (px, py) = xy(lo)
            for i in (lo + 1)..<hi {
                let (x, y) = xy(i)
                tiles += 2 * (abs(x - px).rounded(.up) + abs(y - py).rounded(.up)) + 2
                area += px * y - x * py
                (px, py) = (x, y)
            }
            return (tiles, area / 2)
        }
        switch geometry.kind {
        case .geometryCollection:
            return geometry.geometries.reduce(0) { $0 + estimate($1, zoom: zoom, area: includeArea) }
        case .point, .multiPoint:
            return Double(positions)
        case .lineString, .multiLineString, .polygon, .multiPolygon:
            let starts = geometry.partStarts.isEmpty ? [0] : geometry.partStarts
            var total = 0.0
            for (k, s) in starts.enumerated() {
                let e = k + 1 < starts.count ? starts[k + 1] : positions
                let (tiles, area) = along(s, e)
                total += tiles
                if includeArea && (geometry.kind == .polygon || geometry.kind == .multiPolygon) { total += abs(area) }
            }
            return total
        }
    }
}
