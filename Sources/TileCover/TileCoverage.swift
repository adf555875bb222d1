import GeoModel

/// The tiles a geometry touches at one zoom.
///
/// **Semantics (closed mode).** A tile is in the cover when its *closed* square
/// [x, x+1] × [y, y+1] (in tile units) intersects the geometry: a point on a tile edge is
/// in both neighbours, one on a corner in all four; a line running along a tile edge is in
/// the tiles on both sides; a polygon covers its interior and boundary (even-odd per
/// polygon, union across the polygons of a MultiPolygon and the members of a collection).
/// The answer is exact: whether a segment meets a square is decided with exact comparisons
/// and an exact orientation predicate, never by floating-point luck.
///
/// **Projection.** Longitude/latitude go to Web Mercator (`WebMercator`), latitudes clamped
/// to ±85.0511287798066°. Coordinates are taken literally: nothing is wrapped at ±180; parts
/// beyond the world square touch no tile. Unclosed rings are closed; repeated vertices,
/// zero-length segments (a point) and self-intersecting rings (even-odd) have defined
/// answers.
///
/// **Cost.** O(vertices + output tiles), never proportional to the bounding box's area:
/// boundaries by a column-by-column walk over each segment, interiors by scanlines at tile
/// centres between boundary crossings.
public enum TileCoverage {
    /// Tiles of `geometry` (longitude/latitude) at `zoom` (0...30), sorted by (y, x).
    ///
    /// - Complexity: O(vertices + tiles); allocates the result and per-row scratch.
    /// Which tiles count as covered where the geometry only touches tile edges.
    public enum Mode: Sendable {
        /// The closed square meets the geometry (edges and corners count): the exact,
        /// unique superset.
        case closed
        /// The open square meets the geometry; a segment or point lying only on grid
        /// lines, which meets no open square, goes to the tiles owning its points under the
        /// half-open rule [x, x+1) × [y, y+1) (east and south of a line, the south-east tile
        /// of a corner; the last column and row keep the world's east and south edges). A
        /// line on the equator gets one row; a line through a corner gets no extra tiles.
        case minimal
    }

    public static func tiles(for geometry: Geometry, zoom: Int, mode: Mode = .closed) -> [TileID] {
        precondition(zoom >= 0 && zoom <= Int(TileID.maxZoom), "zoom must be 0...30")
        var cover = _Cover(zoom: zoom)
        cover.minimal = mode == .minimal
        cover.add(geometry, projected: true)
        // Every key is inside the 2^zoom grid by construction.
        return cover.finish().map { TileID(unchecked: zoom, x: UInt32(truncatingIfNeeded: $0), y: UInt32(truncatingIfNeeded: $0 >> 32)) }
    }

    /// Tiles for every zoom in `minZoom...maxZoom`: the cover at `maxZoom`, with each
    /// complete group of four siblings replaced by their parent, repeatedly, down to
    /// `minZoom` when `merge` is true (lossless: expanding the result back to `maxZoom`
    /// gives the cover at `maxZoom` exactly). Without `merge`, the union of the covers of
    /// every zoom in the range. Sorted by zoom, then y, then x.
    public static func tiles(for geometry: Geometry, minZoom: Int, maxZoom: Int, merge: Bool = true) -> [TileID] {
        precondition(0 <= minZoom && minZoom <= maxZoom && maxZoom <= Int(TileID.maxZoom), "0 <= minZoom <= maxZoom <= 30")
        if !merge {
            return (minZoom...maxZoom).flatMap { tiles(for: geometry, zoom: $0) }
        }
        var level = Set(tiles(for: geometry, zoom: maxZoom))
        var out: [TileID] = []
        var z = maxZoom
        while z > minZoom {
            var groups: [TileID: Int] = [:]
            for t in level { groups[t.parent!, default: 0] += 1 }
            var next = Set<TileID>()
            for t in level {
                if groups[t.parent!] == 4 { next.insert(t.parent!) } else { out.append(t) }
            }
            level = next
            z -= 1
        }
        out.append(contentsOf: level)
        return out.sorted { ($0.z, $0.y, $0.x) < ($1.z, $1.y, $1.x) }
    }

    /// Tiles of a geometry already in tile units at `zoom` (x east, y south, tile (i, j)
    /// spanning [i, i+1] × [j, j+1]), as packed keys `y << 32 | x`, sorted.
    public static func tileKeys(tileSpace geometry: Geometry, zoom: Int, mode: Mode = .closed) -> [UInt64] {
        var cover = _Cover(zoom: zoom)
        cover.minimal = mode == .minimal
        cover.add(geometry, projected: false)
        return cover.finish()
    }
}

/// Accumulates tile keys; boundaries tile by tile, interiors as row intervals.
struct _Cover {
    let zoom: Int
    let n: Int                       // tiles per side
    var minimal = false
    /// Whether the fill passes over vertices inside the tile of both neighbours (see
    /// `fill`); false only to check that it changes nothing.
    var passesOverInnerVertices = true
    /// Set while a polygon's boundary is walked in minimal mode.
    var noTieBreak = false
    var keys: [UInt64] = []
    /// Interior runs from polygon fills: (row << 32 | first column, last column).
    var runs: [(UInt64, Int)] = []
    /// Scanline crossings (row, x) of the polygon being filled; one flat buffer reused
    /// across polygons, sorted by row then x before the runs are read off.
    var crossings: [(row: Int, x: Double)] = []
    /// Scratch for ordering `crossings` and the per-row counts (reused across polygons).
    var crossingScratch: [(row: Int, x: Double)] = []
    var rowCounts: [Int] = []
    var xs: [Double] = []            // projected positions of the current geometry
    var ys: [Double] = []
    /// Per position: the key of the tile holding it strictly inside (off every grid line),
    /// or `UInt64.max`.
    var cells: [UInt64] = []

    init(zoom: Int) {
        self.zoom = zoom
        n = 1 << zoom
    }

    /// Tiles emitted so far, repeats included (the minimal mode asks whether a segment or
    /// polygon produced any).
    var emitted = 0

    /// Adds a tile; a repeat of the tile just added (consecutive segments inside one tile)
    /// is dropped at once rather than by the final sort.
    @inline(__always)
    mutating func emit(_ x: Int, _ y: Int) {
        emit(key: UInt64(truncatingIfNeeded: y) << 32 | UInt64(truncatingIfNeeded: x))
    }

    /// Adds the tile with key `row << 32 | column`.
    @inline(__always)
    mutating func emit(key: UInt64) {
        emitted &+= 1
        if key != lastKey {
            lastKey = key
            keys.append(key)
        }
    }

    /// The key last appended (`UInt64.max`, never a tile, before the first).
    var lastKey = UInt64.max

    /// floor(v) as a tile index, saturated just outside the grid (no trap on huge values).
    @inline(__always)
    func index(_ v: Double) -> Int {
        if v <= -2 { return -2 }
        if v >= Double(n) + 2 { return n + 2 }
        // -2 < v < n + 2 here: truncate, then step down for negative fractions (no call to
        // floor, which a baseline x86-64 build does not inline).
        let t = Int(v)
        return Double(t) > v ? t - 1 : t
    }

    /// floor(v), inline for |v| < 2^52 (larger values are integers already; NaN stays NaN).
    @inline(__always)
    static func floor(_ v: Double) -> Double {
        guard abs(v) < 4_503_599_627_370_496 else { return v.rounded(.down) }
        let t = Double(Int64(v))
        return t > v ? t - 1 : t
    }

    /// Projects the positions of `g` into `xs`, `ys` (tile units).
    mutating func load<G: _CoverInput>(_ g: G, projected: Bool, fast: Bool = false) {
        let count = g.positionCount, dims = g.stride
        if xs.count != count {
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            cells.removeAll(keepingCapacity: true)
            xs.append(contentsOf: repeatElement(0, count: count))
            ys.append(contentsOf: repeatElement(0, count: count))
            cells.append(contentsOf: repeatElement(0, count: count))
        }
        let scale = Double(n)
        let margin = fast && projected ? _FastMercator.margin(scale: scale) : nil
        let table = margin != nil ? _FastMercator.coefficients : []
        g.withCoordinates { c in
            xs.withUnsafeMutableBufferPointer { px in
                ys.withUnsafeMutableBufferPointer { py in
                    cells.withUnsafeMutableBufferPointer { pc in
                        table.withUnsafeBufferPointer { tb in
                            guard let c, let px = px.baseAddress, let py = py.baseAddress,
                                  let pc = pc.baseAddress else { return }
                            if !projected {
                                for i in 0..<count {
                                    px[i] = c[i &* dims]
                                    py[i] = c[i &* dims &+ 1]
                                    pc[i] = _Cover.interiorCell(px[i], py[i], scale)
                                }
                                return
                            }
                            guard let margin, let t = tb.baseAddress else {
                                for i in 0..<count {
                                    px[i] = WebMercator.x(longitude: c[i &* dims]) * scale
                                    py[i] = WebMercator.y(latitude: c[i &* dims &+ 1]) * scale
                                    pc[i] = _Cover.interiorCell(px[i], py[i], scale)
                                }
                                return
                            }
                            // Lines: the tile of each vertex from the fast y where it is far
                            // enough from the grid; `WebMercator.y` elsewhere.
                            for i in 0..<count {
                                let x = WebMercator.x(longitude: c[i &* dims]) * scale
                                let lat = c[i &* dims &+ 1]
                                px[i] = x
                                if let fast = _FastMercator.cell(x: x, latitude: lat, scale: scale, margin: margin, t) {
                                    py[i] = fast.y
                                    pc[i] = fast.key
                                    continue
                                }
                                py[i] = WebMercator.y(latitude: lat) * scale
                                pc[i] = _Cover.interiorCell(x, py[i], scale)
                            }
                            // The exact walk (`segment`) reads positions; give every vertex of
                            // a segment that goes there its `WebMercator.y`. (A vertex without a
                            // cell has it already.)
                            for i in 0..<count where pc[i] != .max {
                                if (i > 0 && _Cover.needsWalk(pc[i - 1], pc[i])) || (i + 1 < count && _Cover.needsWalk(pc[i], pc[i + 1])) {
                                    py[i] = WebMercator.y(latitude: c[i &* dims &+ 1]) * scale
                                }
                            }
                            // Rings: the closing segment joins a ring's last vertex to its
                            // first, so it may need the walk like any other. When the input
                            // repeats the first vertex, both ends keep one position, so the
                            // ring stays closed as given (no closing edge a few ulps long).
                            guard g.kind == .polygon || g.kind == .multiPolygon else { return }
                            for part in 0..<g.partCount {
                                let r = g.partRange(part)
                                guard r.count >= 2 else { continue }
                                let a = r.lowerBound, b = r.upperBound - 1
                                let repeated = c[a &* dims] == c[b &* dims] && c[a &* dims &+ 1] == c[b &* dims &+ 1]
                                if repeated ? py[a] != py[b] : _Cover.needsWalk(pc[b], pc[a]) {
                                    py[a] = WebMercator.y(latitude: c[a &* dims &+ 1]) * scale
                                    py[b] = WebMercator.y(latitude: c[b &* dims &+ 1]) * scale
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether a segment between vertices with tile keys `a` and `b` (see `cells`) needs the
    /// exact walk: not when both lie strictly inside tiles of one row or one column.
    @inline(__always)
    static func needsWalk(_ a: UInt64, _ b: UInt64) -> Bool {
        a == .max || b == .max || (a >> 32 != b >> 32 && a & 0xFFFF_FFFF != b & 0xFFFF_FFFF)
    }

    /// Closed-mode points, projected and emitted in one pass (no position buffers).
    mutating func points<G: _CoverInput>(_ g: G) {
        let count = g.positionCount, dims = g.stride
        let scale = Double(n)
        keys.reserveCapacity(keys.count + count)
        let margin = _FastMercator.margin(scale: scale)
        let table = margin != nil ? _FastMercator.coefficients : []
        g.withCoordinates { c in
            table.withUnsafeBufferPointer { tb in
                guard let c else { return }
                for i in 0..<count {
                    let x = WebMercator.x(longitude: c[i &* dims]) * scale
                    let lat = c[i &* dims &+ 1]
                    if let margin, let t = tb.baseAddress,
                       let fast = _FastMercator.cell(x: x, latitude: lat, scale: scale, margin: margin, t) {
                        emit(key: fast.key)
                        continue
                    }
                    point(x, WebMercator.y(latitude: lat) * scale)
                }
            }
        }
    }

    mutating func add(_ g: Geometry, projected: Bool) {
        if g.kind == .geometryCollection {
            for m in g.geometries { add(m, projected: projected) }
            return
        }
        addSimple(g, projected: projected)
    }

    /// Adds a geometry that is not a collection.
    mutating func addSimple<G: _CoverInput>(_ g: G, projected: Bool) {
        if projected && !minimal && (g.kind == .point || g.kind == .multiPoint) {
            points(g)
            return
        }
        // The fast y (trusted only away from grid lines) serves lines and polygons alike. In
        // a polygon the fill reads vertices too: a fast y moves the outline by less than the
        // table's error bound (under 0.05 tile wherever the table is used), which can only
        // change the inside test of a tile centre that close to the outline; such a tile
        // meets the outline, so it is in the cover as a boundary tile either way (in
        // minimal mode its open square meets the outline).
        load(g, projected: projected, fast: g.kind != .point && g.kind != .multiPoint)
        switch g.kind {
        case .point, .multiPoint:
            for i in 0..<xs.count { point(xs[i], ys[i]) }
        case .lineString, .multiLineString:
            if g.partCount == 0 {
                if g.positionCount > 0 { polyline(0..<g.positionCount, closed: false) }
            } else {
                for part in 0..<g.partCount { polyline(g.partRange(part), closed: false) }
            }
        case .polygon, .multiPolygon:
            for poly in 0..<g.polygonCount {
                let rings = g.polygonRange(poly).map(g.partRange)
                let before = emitted, runsBefore = runs.count
                // Minimal mode: the boundary's open-square tiles without the line tie-break
                // (an area meets an open square wherever its boundary does, or where its
                // centre is inside).
                noTieBreak = true
                for r in rings { polyline(r, closed: true) }
                noTieBreak = false
                fill(rings)
                if minimal && emitted == before && runs.count == runsBefore {
                    // A polygon with no area off the grid lines: tie-break its boundary.
                    for r in rings { polyline(r, closed: true) }
                }
            }
        case .geometryCollection:
            break
        }
    }

    // MARK: Points

    /// Every tile whose closed square holds (x, y): 1, 2 on an edge, 4 on a corner.
    mutating func point(_ x: Double, _ y: Double) {
        guard x >= 0, x <= Double(n), y >= 0, y <= Double(n) else { return }
        if minimal {
            // The half-open owner; the world's east and south edges stay in the last tile.
            emit(min(index(x), n - 1), min(index(y), n - 1))
            return
        }
        // 0 <= x, y <= n by the guard, so truncation is floor (and cheaper than a call to
        // floor on a baseline x86-64 target).
        let ix = Int(x), iy = Int(y)
        let fx = Double(ix), fy = Double(iy)
        if fx != x && fy != y {
            // Inside one tile (the common case): no edge or corner neighbours.
            emit(ix, iy)
            return
        }
        for cy in (fy == y ? iy - 1 : iy)...iy where cy >= 0 && cy < n {
            for cx in (fx == x ? ix - 1 : ix)...ix where cx >= 0 && cx < n {
                emit(cx, cy)
            }
        }
    }

    // MARK: Lines

    mutating func polyline(_ r: Range<Int>, closed: Bool) {
        guard !r.isEmpty else { return }
        if r.count == 1 || (minimal && r.allSatisfy { self.xs[$0] == self.xs[r.lowerBound] && self.ys[$0] == self.ys[r.lowerBound] }) {
            point(self.xs[r.lowerBound], self.ys[r.lowerBound])
            return
        }
        // A segment whose ends lie strictly inside one tile covers that tile alone (most
        // segments of a detailed line at a low zoom); each vertex's tile is found once.
        // Segments whose ends lie strictly inside tiles of one row (or one column) stay
        // inside that row's open strip, so they cover exactly the tiles from one end's to
        // the other's, in both modes; no arithmetic on positions is needed.
        let xv = self.xs, yv = self.ys, cv = self.cells   // the buffers, not copies
        xv.withUnsafeBufferPointer { X in
            yv.withUnsafeBufferPointer { Y in
                cv.withUnsafeBufferPointer { C in
                    var i = r.lowerBound
                    while i + 1 < r.upperBound {
                        coverSegment(from: (X[i], Y[i]), key: C[i], to: (X[i + 1], Y[i + 1]), key: C[i + 1])
                        i += 1
                    }
                    if closed {
                        let a = r.lowerBound, b = r.upperBound - 1
                        if X[a] != X[b] || Y[a] != Y[b] { coverSegment(from: (X[b], Y[b]), key: C[b], to: (X[a], Y[a]), key: C[a]) }
                    }
                }
            }
        }
    }

    /// Covers the segment from P to Q, whose ends lie in the tiles with keys `a` and `b`
    /// (see `cells`): one tile, a run along one row or column, or the exact walk.
    @inline(__always)
    mutating func coverSegment(from p: (x: Double, y: Double), key a: UInt64, to q: (x: Double, y: Double), key b: UInt64) {
        let px = p.x, py = p.y, qx = q.x, qy = q.y
        if a == b && a != .max && (!minimal || px != qx || py != qy) {
            emit(key: a)
        } else if !_Cover.needsWalk(a, b) {
            let ra = Int(a >> 32), rb = Int(b >> 32)
            let ca = Int(a & 0xFFFF_FFFF), cb = Int(b & 0xFFFF_FFFF)
            if ra == rb {
                if ca < cb { for col in ca...cb { emit(col, ra) } } else { for col in (cb...ca).reversed() { emit(col, ra) } }
            } else {
                if ra < rb { for row in ra...rb { emit(ca, row) } } else { for row in (rb...ra).reversed() { emit(ca, row) } }
            }
        } else {
            segment(px, py, qx, qy)
        }
    }

    /// The key of the tile holding (x, y) strictly inside it (off every grid line), or
    /// `UInt64.max`.
    @inline(__always)
    static func interiorCell(_ x: Double, _ y: Double, _ w: Double) -> UInt64 {
        guard x > 0, y > 0, x < w, y < w else { return .max }
        let ix = Int(x), iy = Int(y)          // positive, so truncation is floor
        guard Double(ix) != x, Double(iy) != y else { return .max }
        return UInt64(truncatingIfNeeded: iy) << 32 | UInt64(truncatingIfNeeded: ix)
    }

    /// Every tile whose closed square meets the closed segment PQ.
    ///
    /// Columns are walked from the segment's west end to its east end; in each, the rows
    /// the segment spans there (estimated in floating point, widened by one row each side)
    /// are the candidates, and each candidate is decided exactly by `meets`.
    mutating func segment(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) {
        if px == qx && py == qy {
            // Closed mode: a zero-length segment is its point. Minimal mode: its point lies on
            // the neighbouring segments already (a wholly degenerate line is handled by
            // `polyline`).
            if !minimal { point(px, py) }
            return
        }
        // (Segments with both ends strictly inside one tile never get here: `step` emits
        // that tile.)
        let minX = min(px, qx), maxX = max(px, qx), minY = min(py, qy), maxY = max(py, qy)
        guard maxX >= 0, minX <= Double(n), maxY >= 0, minY <= Double(n) else { return }
        let firstCol = max(index(minX) - 1, 0)
        let lastCol = min(index(maxX), n - 1)
        let firstRowAll = max(index(minY) - 1, 0)
        let lastRowAll = min(index(maxY), n - 1)
        guard firstCol <= lastCol, firstRowAll <= lastRowAll else { return }
        let dx = qx - px, dy = qy - py
        let before = emitted
        defer {
            // Minimal mode: a segment that meets no open square lies on a grid line; its
            // points go to their half-open owners.
            if minimal && !noTieBreak && emitted == before { ownersOnGridLine(px, py, qx, qy) }
        }
        for col in firstCol...lastCol {
            // The segment's y range over x in [col, col+1], by interpolation.
            var y0: Double, y1: Double
            if dx == 0 {
                // A vertical segment lies in this column only if its x does.
                if px < Double(col) || px > Double(col + 1) { continue }
                y0 = minY; y1 = maxY
            } else {
                let xa = max(Double(col), minX), xb = min(Double(col + 1), maxX)
                if xa > xb { continue }
                let ta = py + (xa - px) / dx * dy, tb = py + (xb - px) / dx * dy
                y0 = min(ta, tb); y1 = max(ta, tb)
            }
            // Fast path: when neither end of the y range lies within rounding error of a grid
            // line (and the segment's part in this column has width, or a vertical segment
            // lies strictly inside the column), the rows met are exactly
            // floor(y0)...floor(y1), in both modes.
            let tol = (abs(y0) + abs(y1) + 1) * 1e-12
            let f0 = y0 - _Cover.floor(y0), f1 = y1 - _Cover.floor(y1)
            let wide = dx == 0 ? (px > Double(col) && px < Double(col + 1)) : max(Double(col), minX) < min(Double(col + 1), maxX)
            if wide && f0 > tol && f0 < 1 - tol && f1 > tol && f1 < 1 - tol {
                let a = max(index(y0), 0), b = min(index(y1), n - 1)
                if a <= b { for row in a...b { emit(col, row) } }
                continue
            }
            let r0 = max(index(max(y0, minY)) - 1, firstRowAll)
            let r1 = min(index(min(y1, maxY)) + 1, lastRowAll)
            if r0 > r1 { continue }
            // Rows strictly inside the y range the segment spans in this column (by more than
            // the interpolation's rounding error) are crossed through their interior: the
            // segment passes y = row + ½ inside the column. Only the rows near the range's
            // ends need the exact test.
            // (Not for a vertical segment on a column's edge in minimal mode: it meets no open
            // square.)
            let eps = (abs(y0) + abs(y1) + 1) * 1e-12
            var sureLo = y0 + eps, sureHi = y1 - eps
            if minimal && dx == 0 && _Cover.floor(px) == px { sureLo = .infinity; sureHi = -.infinity }
            for row in r0...r1 {
                if Double(row) > sureLo && Double(row + 1) < sureHi {
                    emit(col, row)
                } else if minimal ? _Cover.meetsOpen(px, py, qx, qy, col, row) : _Cover.meets(px, py, qx, qy, col, row) {
                    emit(col, row)
                }
            }
        }
    }

    /// Whether the closed segment PQ meets the closed square [i, i+1] × [j, j+1], exactly:
    /// the bounding boxes overlap, and the square's corners are not all strictly on one
    /// side of the line PQ (separating axes of a segment and a box).
    @inline(__always)
    static func meets(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ i: Int, _ j: Int) -> Bool {
        let x0 = Double(i), x1 = Double(i + 1), y0 = Double(j), y1 = Double(j + 1)
        guard max(px, qx) >= x0, min(px, qx) <= x1, max(py, qy) >= y0, min(py, qy) <= y1 else { return false }
        let c = _extremeCorners(px, py, qx, qy, x0, y0, x1, y1)
        // All four corners strictly on one side iff the extreme one nearest the line is.
        return !(_orientationSign(px, py, qx, qy, c.minX, c.minY) > 0 || _orientationSign(px, py, qx, qy, c.maxX, c.maxY) < 0)
    }

    /// The corners of [x0, x1] × [y0, y1] where the orientation determinant of PQ, which is
    /// linear in the corner with gradient (−(qy − py), qx − px), is smallest and largest.
    /// The signs of the differences are exact in floating point, so the choice is too.
    @inline(__always)
    static func _extremeCorners(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double,
                                _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)
    {
        let up = qy - py > 0, right = qx - px > 0
        return (up ? x1 : x0, right ? y0 : y1, up ? x0 : x1, right ? y1 : y0)
    }

    /// Whether the closed segment PQ meets the open square (i, i+1) × (j, j+1), exactly:
    /// strict overlap on both axes, and corners strictly on both sides of the line PQ.
    @inline(__always)
    static func meetsOpen(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ i: Int, _ j: Int) -> Bool {
        let x0 = Double(i), x1 = Double(i + 1), y0 = Double(j), y1 = Double(j + 1)
        guard max(px, qx) > x0, min(px, qx) < x1, max(py, qy) > y0, min(py, qy) < y1 else { return false }
        let c = _extremeCorners(px, py, qx, qy, x0, y0, x1, y1)
        return _orientationSign(px, py, qx, qy, c.minX, c.minY) < 0 && _orientationSign(px, py, qx, qy, c.maxX, c.maxY) > 0
    }

    /// The half-open owners of the points of a segment that meets no open square (so it is
    /// a point, or runs along one grid line).
    mutating func ownersOnGridLine(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) {
        if px != qx && py != qy {
            // A slanted segment that meets no open square touches the world only at points:
            // an endpoint on its border, or a world corner it passes through.
            point(px, py)
            point(qx, qy)
            let w = Double(n)
            for (cx, cy) in [(0.0, 0.0), (w, 0.0), (0.0, w), (w, w)]
            where _orientationSign(px, py, qx, qy, cx, cy) == 0
                && cx >= min(px, qx) && cx <= max(px, qx) && cy >= min(py, qy) && cy <= max(py, qy) {
                point(cx, cy)
            }
            return
        }
        let minX = max(min(px, qx), 0), maxX = min(max(px, qx), Double(n))
        let minY = max(min(py, qy), 0), maxY = min(max(py, qy), Double(n))
        guard minX <= maxX, minY <= maxY else { return }
        let c0 = min(index(minX), n - 1), c1 = min(index(maxX), n - 1)
        let r0 = min(index(minY), n - 1), r1 = min(index(maxY), n - 1)
        for r in r0...r1 { for c in c0...c1 { emit(c, r) } }
    }

    // MARK: Polygon interiors

    /// Adds the tiles whose centre lies inside the polygon (even-odd over its rings). A
    /// tile the boundary does not touch is wholly inside or wholly outside, so its centre
    /// decides; tiles the boundary touches were added by `polyline`.
    ///
    /// A vertex strictly inside the same tile as the vertex kept before it and the vertex
    /// after it is passed over (the ring goes straight from the one to the other). The
    /// path replaced and the segment that replaces it lie inside that tile's open square,
    /// which is convex, so together they make a closed loop inside it: a centre line meets
    /// the loop an even number of times, so every other tile's centre has its crossings to
    /// the left changed by an even number, and its inside test is unchanged. That tile
    /// holds boundary vertices, so it is in the cover whatever the fill says. A detailed
    /// outline at a low zoom has most of its vertices passed over.
    mutating func fill(_ rings: [Range<Int>]) {
        crossings.removeAll(keepingCapacity: true)
        for r in rings where r.count >= 2 {
            let last = r.upperBound - 1
            let closedInput = xs[r.lowerBound] == xs[last] && ys[r.lowerBound] == ys[last]
            let edges = closedInput ? r.count - 1 : r.count
            // The ring's vertices in order: r.lowerBound + k for k < edges, then its end
            // (the repeated first vertex, or the first vertex again).
            let end = closedInput ? last : r.lowerBound
            var a = r.lowerBound
            for k in 1...edges {
                let b = k < edges ? r.lowerBound + k : end
                if k < edges {
                    let cb = cells[b]
                    let next = k + 1 < edges ? r.lowerBound + k + 1 : end
                    if cb != .max && cb == cells[a] && cb == cells[next] && passesOverInnerVertices { continue }
                }
                crossEdge(xs[a], ys[a], xs[b], ys[b])
                a = b
            }
        }
        orderCrossings()
        var k = 0
        while k < crossings.count {
            let row = crossings[k].row
            var e = k
            while e < crossings.count && crossings[e].row == row { e += 1 }
            // Even-odd: crossings pair up within the row.
            while k + 1 < e {
                let a = crossings[k].x, b = crossings[k + 1].x
                // Tile centres c = col + 0.5 with a < c < b.
                var c0 = index(a - 0.5) + 1
                if Double(c0) + 0.5 <= a { c0 += 1 }
                if c0 > 0, Double(c0 - 1) + 0.5 > a { c0 -= 1 }
                var c1 = index(b - 0.5)
                if Double(c1) + 0.5 >= b { c1 -= 1 }
                c0 = max(c0, 0)
                c1 = min(c1, n - 1)
                if c0 <= c1 { runs.append((UInt64(row) << 32 | UInt64(c0), c1)) }
                k += 2
            }
            k = e
        }
    }

    /// Orders `crossings` by row, then x. A small set takes one comparison sort; a large
    /// one is bucketed by row in one counting pass (rows are few next to the crossings of a
    /// detailed outline) and each row's x values are sorted on their own, so no comparison
    /// looks at the row and the sorts are short. (At z12 on canada.json the comparison sort
    /// of all crossings was a tenth of the cover's time.)
    mutating func orderCrossings() {
        let count = crossings.count
        guard count > 64 else {
            crossings.sort { $0.row != $1.row ? $0.row < $1.row : $0.x < $1.x }
            return
        }
        var lo = Int.max, hi = Int.min
        for c in crossings { lo = min(lo, c.row); hi = max(hi, c.row) }
        rowCounts.removeAll(keepingCapacity: true)
        rowCounts.append(contentsOf: repeatElement(0, count: hi - lo + 2))
        crossingScratch.removeAll(keepingCapacity: true)
        crossingScratch.append(contentsOf: repeatElement((row: 0, x: 0.0), count: count))
        crossings.withUnsafeBufferPointer { src in
            crossingScratch.withUnsafeMutableBufferPointer { dst in
                rowCounts.withUnsafeMutableBufferPointer { start in
                    for c in src { start[c.row - lo + 1] &+= 1 }
                    for i in 1..<start.count { start[i] &+= start[i - 1] }
                    // start[r − lo] is now where row r begins; advance it as row r fills.
                    for c in src {
                        let r = c.row - lo
                        dst[start[r]] = c
                        start[r] &+= 1
                    }
                    // start[r − lo] is now where row r ends.
                    var begin = 0
                    for r in 0..<(hi - lo + 1) {
                        let end = start[r]
                        if end - begin <= 16 {
                            var i = begin + 1
                            while i < end {
                                let v = dst[i]
                                var j = i
                                while j > begin && dst[j - 1].x > v.x { dst[j] = dst[j - 1]; j -= 1 }
                                dst[j] = v
                                i += 1
                            }
                        } else {
                            var part = UnsafeMutableBufferPointer(rebasing: dst[begin..<end])
                            part.sort { $0.x < $1.x }
                        }
                        begin = end
                    }
                }
            }
        }
        swap(&crossings, &crossingScratch)
    }

    /// Records where the edge crosses the centre lines y = row + 0.5 of the rows it spans
    /// (half-open in y, so a vertex on a centre line is counted once).
    mutating func crossEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let lo = min(y0, y1), hi = max(y0, y1)
        let first = max(index(lo - 0.5), 0)
        let last = min(index(hi - 0.5) + 1, n - 1)
        guard first <= last else { return }
        for row in first...last {
            let yc = Double(row) + 0.5
            guard (y0 <= yc) != (y1 <= yc) else { continue }
            let x = x0 + (yc - y0) / (y1 - y0) * (x1 - x0)
            crossings.append((row, x))
        }
    }

    /// Sorts row << 32 | column keys: by insertion up to 24 keys, by comparison up to 512,
    /// and beyond that by an LSD radix sort of the packed 2·zoom-bit value
    /// row << zoom | column, 11 bits per pass (3 passes at z16), read off each key as the
    /// pass needs it: O(n) where the comparison sort was the largest cost of a long line.
    static func sortKeys(_ keys: inout [UInt64], zoom: Int) {
        let count = keys.count
        if count <= 24 {
            // Insertion sort: the covers of most lines and small polygons.
            keys.withUnsafeMutableBufferPointer { k in
                var i = 1
                while i < count {
                    let v = k[i]
                    var j = i
                    while j > 0 && k[j - 1] > v { k[j] = k[j - 1]; j -= 1 }
                    k[j] = v
                    i += 1
                }
            }
            return
        }
        guard count > 512 else { keys.sort(); return }
        let bits = max(2 * zoom, 1)
        let passes = (bits + 10) / 11
        let z = UInt64(zoom)
        let colMask: UInt64 = (1 << z) &- 1
        var b = [UInt64](repeating: 0, count: count)
        var histogram = [Int](repeating: 0, count: 2048)
        keys.withUnsafeMutableBufferPointer { pa in
            b.withUnsafeMutableBufferPointer { pb in
                histogram.withUnsafeMutableBufferPointer { h in
                    var src = pa, dst = pb
                    for pass in 0..<passes {
                        // Digits of the packed 2·zoom-bit value row << zoom | column, taken
                        // from the key on the fly.
                        let shift = UInt64(11 * pass)
                        for i in 0..<2048 { h[i] = 0 }
                        for v in src { h[Int((((v >> 32) << z | (v & colMask)) >> shift) & 2047)] &+= 1 }
                        var sum = 0
                        for i in 0..<2048 { let c = h[i]; h[i] = sum; sum &+= c }
                        for v in src {
                            let d = Int((((v >> 32) << z | (v & colMask)) >> shift) & 2047)
                            dst[h[d]] = v
                            h[d] &+= 1
                        }
                        swap(&src, &dst)
                    }
                    // After an odd number of passes the result is in b's storage.
                    if passes % 2 == 1 { for i in 0..<count { pa[i] = pb[i] } }
                }
            }
        }
    }

    /// The keys, sorted and without duplicates: boundary tiles (sorted individually) merged
    /// row by row with the interior runs (sorted as runs), so the sort costs O(boundary +
    /// runs), not O(tiles).
    mutating func finish() -> [UInt64] {
        _Cover.sortKeys(&keys, zoom: zoom)
        if runs.isEmpty {
            // Lines and points: the sorted keys, repeats removed in place.
            var out = keys
            keys = []
            _Cover.removeRepeats(&out)
            return out
        }
        return mergedWithRuns()
    }

    /// `finish()` into `out` (its buffer reused where it can be), leaving the cover empty
    /// for the next geometry with its buffers kept.
    mutating func finish(into out: inout [UInt64]) {
        _Cover.sortKeys(&keys, zoom: zoom)
        if runs.isEmpty {
            swap(&out, &keys)
            _Cover.removeRepeats(&out)
        } else {
            out = mergedWithRuns()
        }
        keys.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        lastKey = .max
        emitted = 0
    }

    /// Removes repeats from sorted keys, in place.
    static func removeRepeats(_ out: inout [UInt64]) {
        let unique = out.withUnsafeMutableBufferPointer { k -> Int in
            var w = 0
            for r in 0..<k.count where w == 0 || k[w - 1] != k[r] {
                k[w] = k[r]
                w += 1
            }
            return w
        }
        out.removeLast(out.count - unique)
    }

    /// The sorted keys merged with the interior runs (see `finish()`).
    mutating func mergedWithRuns() -> [UInt64] {
        runs.sort { $0.0 < $1.0 }
        var total = keys.count
        for r in runs { total += r.1 - Int(r.0 & 0xFFFF_FFFF) + 1 }
        // The two sorted streams merged: boundary keys one by one (repeats dropped), and each
        // run's stretch between boundary keys written in one tight loop. Runs of one row may
        // overlap (several polygons), and then the output is not increasing: `sorted`
        // notes it, and a full sort follows.
        var sorted = true
        var out = [UInt64](unsafeUninitializedCapacity: total) { o, count in
            keys.withUnsafeBufferPointer { kb in
                var w = 0, k = 0
                @inline(__always)
                func put(_ v: UInt64) {
                    if w > 0 {
                        let last = o[w - 1]
                        if last == v { return }
                        if last > v { sorted = false }
                    }
                    o[w] = v
                    w += 1
                }
                @inline(__always)
                func stretch(_ a: UInt64, _ b: UInt64) {
                    // a...b, all above what precedes a once a is in.
                    guard a <= b else { return }
                    put(a)
                    var v = a + 1
                    while v <= b { o[w] = v; w += 1; v += 1 }
                }
                for r in runs {
                    let start = r.0, end = (r.0 & ~0xFFFF_FFFF) | UInt64(r.1)
                    while k < kb.count && kb[k] < start { put(kb[k]); k += 1 }
                    var next = start
                    while k < kb.count && kb[k] <= end {
                        let key = kb[k]
                        if key > next { stretch(next, key - 1) }
                        put(key)
                        next = key + 1          // keys ascend and start at or after `start`
                        k += 1
                    }
                    stretch(next, end)
                }
                while k < kb.count { put(kb[k]); k += 1 }
                count = w
            }
        }
        if !sorted {
            out.sort()
            var u: [UInt64] = []
            u.reserveCapacity(out.count)
            for v in out where u.last != v { u.append(v) }
            return u
        }
        return out
    }
}
