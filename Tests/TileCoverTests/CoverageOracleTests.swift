import GraticuleSupport
import XCTest
@testable import TileCover
import GeoModel

/// Coverage against a brute-force oracle written independently here: geometries with
/// vertices on a 1/4-tile grid (so they fall exactly on tile edges and corners often) are
/// scaled to integers, and every tile of the world is tested with exact integer arithmetic
/// (tilecover.md §6.1 closed mode, §6.3 fill rule, §6.4 lines, §6.5 points).
final class CoverageOracleTests: XCTestCase {
    let zoom = 3
    var n: Int { 1 << zoom }
    let scale = 4               // vertices are multiples of 1/4 tile


    // MARK: The oracle (integer units: one tile = `scale`)

    func orient(_ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> Int {
        let v = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
        return v > 0 ? 1 : v < 0 ? -1 : 0
    }

    func segmentMeetsTile(_ p: (Int, Int), _ q: (Int, Int), _ i: Int, _ j: Int) -> Bool {
        let x0 = i * scale, x1 = (i + 1) * scale, y0 = j * scale, y1 = (j + 1) * scale
        if max(p.0, q.0) < x0 || min(p.0, q.0) > x1 || max(p.1, q.1) < y0 || min(p.1, q.1) > y1 { return false }
        let s = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map { orient(p, q, $0) }
        return !(s.allSatisfy { $0 > 0 } || s.allSatisfy { $0 < 0 })
    }

    /// Even-odd: is the point (2·cx, 2·cy) in half units inside the rings?
    func inside(_ rings: [[(Int, Int)]], _ cx2: Int, _ cy2: Int) -> Bool {
        var odd = false
        for ring in rings {
            for k in 0..<ring.count {
                let a = ring[k], b = ring[(k + 1) % ring.count]
                let ay = 2 * a.1, by = 2 * b.1
                guard (ay > cy2) != (by > cy2) else { continue }
                // crossing x = 2a.x + (cy2 − ay)(2b.x − 2a.x)/(by − ay); the point is left of it
                // when (cx2 − 2a.x)(by − ay) < (cy2 − ay)(2b.x − 2a.x), for by > ay.
                let left = (cx2 - 2 * a.0) * (by - ay)
                let right = (cy2 - ay) * (2 * b.0 - 2 * a.0)
                if by > ay ? left < right : left > right { odd.toggle() }
            }
        }
        return odd
    }

    func oracle(points: [(Int, Int)] = [], lines: [[(Int, Int)]] = [], polygons: [[[(Int, Int)]]] = []) -> Set<UInt64> {
        var out = Set<UInt64>()
        for j in 0..<n {
            for i in 0..<n {
                let key = UInt64(j) << 32 | UInt64(i)
                var hit = points.contains { $0.0 >= i * scale && $0.0 <= (i + 1) * scale && $0.1 >= j * scale && $0.1 <= (j + 1) * scale }
                if !hit {
                    hit = lines.contains { l in
                        l.count == 1 ? segmentMeetsTile(l[0], l[0], i, j)
                            : (0..<(l.count - 1)).contains { segmentMeetsTile(l[$0], l[$0 + 1], i, j) }
                    }
                }
                if !hit {
                    hit = polygons.contains { rings in
                        rings.contains { r in (0..<r.count).contains { segmentMeetsTile(r[$0], r[($0 + 1) % r.count], i, j) } }
                            || inside(rings, (2 * i + 1) * scale, (2 * j + 1) * scale)
                    }
                }
                if hit { out.insert(key) }
            }
        }
        return out
    }

    // MARK: Minimal-mode oracle (tilecover.md §6.1)

    func segmentMeetsOpenTile(_ p: (Int, Int), _ q: (Int, Int), _ i: Int, _ j: Int) -> Bool {
        let x0 = i * scale, x1 = (i + 1) * scale, y0 = j * scale, y1 = (j + 1) * scale
        guard max(p.0, q.0) > x0, min(p.0, q.0) < x1, max(p.1, q.1) > y0, min(p.1, q.1) < y1 else { return false }
        let s = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map { orient(p, q, $0) }
        return s.contains(1) && s.contains(-1)
    }

    func owner(_ x: Int, _ y: Int) -> UInt64? {
        guard x >= 0, x <= n * scale, y >= 0, y <= n * scale else { return nil }
        return UInt64(min(y / scale, n - 1)) << 32 | UInt64(min(x / scale, n - 1))
    }

    /// Open tiles of a segment, or the owners of its lattice points when it meets none.
    func minimalSegment(_ p: (Int, Int), _ q: (Int, Int), tieBreak: Bool = true) -> Set<UInt64> {
        var out = Set<UInt64>()
        for j in 0..<n { for i in 0..<n where segmentMeetsOpenTile(p, q, i, j) { out.insert(UInt64(j) << 32 | UInt64(i)) } }
        if out.isEmpty && tieBreak {
            // The segment then touches the world only along grid lines or at points, all at
            // lattice points (vertices are on the 1/4 lattice): take every lattice point of
            // the world that lies on the segment.
            for y in 0...(n * scale) {
                for x in 0...(n * scale) where orient(p, q, (x, y)) == 0
                    && x >= min(p.0, q.0) && x <= max(p.0, q.0) && y >= min(p.1, q.1) && y <= max(p.1, q.1) {
                    if let o = owner(x, y) { out.insert(o) }
                }
            }
        }
        return out
    }

    func minimalOracle(points: [(Int, Int)] = [], lines: [[(Int, Int)]] = [], polygons: [[[(Int, Int)]]] = []) -> Set<UInt64> {
        var out = Set<UInt64>()
        for p in points { if let o = owner(p.0, p.1) { out.insert(o) } }
        for l in lines {
            if l.count == 1 { if let o = owner(l[0].0, l[0].1) { out.insert(o) } }
            for k in 0..<max(l.count - 1, 0) where l[k] != l[k + 1] { out.formUnion(minimalSegment(l[k], l[k + 1])) }
            if l.count > 1 && (0..<(l.count - 1)).allSatisfy({ l[$0] == l[$0 + 1] }) { if let o = owner(l[0].0, l[0].1) { out.insert(o) } }
        }
        for rings in polygons {
            var mine = Set<UInt64>()
            for r in rings { for k in 0..<r.count where r[k] != r[(k + 1) % r.count] { mine.formUnion(minimalSegment(r[k], r[(k + 1) % r.count], tieBreak: false)) } }
            for j in 0..<n { for i in 0..<n where inside(rings, (2 * i + 1) * scale, (2 * j + 1) * scale) { mine.insert(UInt64(j) << 32 | UInt64(i)) } }
            if mine.isEmpty {
                for r in rings { for k in 0..<r.count where r[k] != r[(k + 1) % r.count] { mine.formUnion(minimalSegment(r[k], r[(k + 1) % r.count])) } }
            }
            out.formUnion(mine)
        }
        return out
    }

    func minimalCover(_ g: Geometry) -> Set<UInt64> { Set(TileCoverage.tileKeys(tileSpace: g, zoom: zoom, mode: .minimal)) }

    func testMinimalModeAgainstOracle() {
        var rng = SplitMix64(seed: 9)
        for round in 0..<300 {
            let pts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in vertex(&rng) }
            XCTAssertEqual(minimalCover(geometry(.multiPoint, [pts])), minimalOracle(points: pts), "points \(pts)")
            // Lines: often axis-aligned on grid lines, to exercise the tie-break.
            var line = [vertex(&rng)]
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                var v = vertex(&rng)
                if Bool.random(using: &rng) { v.1 = line.last!.1 }
                if round % 3 == 0 { v = (v.0 / scale * scale, v.1 / scale * scale) }
                line.append(v)
            }
            let ml = minimalCover(geometry(.lineString, [line])), wl = minimalOracle(lines: [line])
            func show(_ s: Set<UInt64>) -> String { s.sorted().map { "(\($0 & 0xFFFF_FFFF),\($0 >> 32))" }.joined(separator: " ") }
            XCTAssertEqual(ml, wl, "line \(line): extra \(show(ml.subtracting(wl))) missing \(show(wl.subtracting(ml)))")
            var rings: [[(Int, Int)]] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                rings.append((0..<Int.random(in: 3...6, using: &rng)).map { _ in
                    let v = vertex(&rng)
                    return round % 2 == 0 ? (v.0 / scale * scale, v.1 / scale * scale) : v
                })
            }
            let g = geometry(.polygon, rings.map { $0 + [$0[0]] }, polygonStarts: [0])
            XCTAssertEqual(minimalCover(g), minimalOracle(polygons: [rings]), "polygon \(rings)")
        }
        // §6.5: a point on an edge or a corner is in exactly one tile; a line on a grid line
        // gets one row.
        XCTAssertEqual(minimalCover(Geometry(kind: .point, coordinates: [2, 2])).count, 1)
        XCTAssertEqual(minimalCover(Geometry(kind: .lineString, coordinates: [0.5, 2, 3.5, 2], partStarts: [0])).count, 4)
    }

    // MARK: Random geometries

    func vertex(_ rng: inout SplitMix64) -> (Int, Int) {
        // Mostly inside the world, sometimes on its border or just outside.
        (Int.random(in: -2...(n * scale + 2), using: &rng), Int.random(in: -2...(n * scale + 2), using: &rng))
    }

    func geometry(_ kind: Geometry.Kind, _ parts: [[(Int, Int)]], polygonStarts: [Int] = []) -> Geometry {
        var coords: [Double] = []
        var starts: [Int] = []
        for p in parts {
            starts.append(coords.count / 2)
            for v in p { coords += [Double(v.0) / Double(scale), Double(v.1) / Double(scale)] }
        }
        return Geometry(kind: kind, coordinates: coords, partStarts: kind == .multiPoint ? [] : starts, polygonStarts: polygonStarts)
    }

    func cover(_ g: Geometry) -> Set<UInt64> { Set(TileCoverage.tileKeys(tileSpace: g, zoom: zoom)) }

    func testPointsOnEdgesAndCorners() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<300 {
            let pts = (0..<Int.random(in: 1...6, using: &rng)).map { _ in vertex(&rng) }
            XCTAssertEqual(cover(geometry(.multiPoint, [pts])), oracle(points: pts), "\(pts)")
        }
        // §6.5: an edge point is in 2 tiles, a corner point in 4.
        XCTAssertEqual(cover(Geometry(kind: .point, coordinates: [2, 2.5])).count, 2)
        XCTAssertEqual(cover(Geometry(kind: .point, coordinates: [2, 2])).count, 4)
    }

    func testLines() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<400 {
            let line = (0..<Int.random(in: 1...7, using: &rng)).map { _ in vertex(&rng) }
            XCTAssertEqual(cover(geometry(.lineString, [line])), oracle(lines: [line]), "\(line)")
        }
        // §6.4: a run exactly along a tile edge covers both sides; a zero-length line a point.
        XCTAssertEqual(cover(Geometry(kind: .lineString, coordinates: [0.5, 2, 3.5, 2], partStarts: [0])).count, 8)
        XCTAssertEqual(cover(Geometry(kind: .lineString, coordinates: [1.5, 1.5, 1.5, 1.5], partStarts: [0])).count, 1)
    }

    /// Long lines at z9 (thousands of tiles, so the column fast path and the radix sort of
    /// the keys are both exercised) against the oracle, tile by tile over each segment's
    /// bounding box; vertices still on the 1/4-tile grid, so many rows end on grid lines.
    func testLongLinesAtDeeperZoom() {
        let z = 9, world = 1 << z
        var rng = SplitMix64(seed: 9)
        for round in 0..<12 {
            var line: [(Int, Int)] = [(Int.random(in: 0...(world * scale), using: &rng), Int.random(in: 0...(world * scale), using: &rng))]
            for _ in 0..<60 {
                let last = line[line.count - 1]
                let step = round % 3 == 0 ? 4 : 160   // short steps stay on few tiles; long ones cross many
                line.append((min(max(last.0 + Int.random(in: -step...step, using: &rng), -2), world * scale + 2),
                             min(max(last.1 + Int.random(in: -step...step, using: &rng), -2), world * scale + 2)))
            }
            var expected = Set<UInt64>()
            for k in 0..<(line.count - 1) {
                let p = line[k], q = line[k + 1]
                let i0 = max(0, min(p.0, q.0) / scale - 1), i1 = min(world - 1, max(p.0, q.0) / scale)
                let j0 = max(0, min(p.1, q.1) / scale - 1), j1 = min(world - 1, max(p.1, q.1) / scale)
                guard i0 <= i1, j0 <= j1 else { continue }
                for j in j0...j1 { for i in i0...i1 where segmentMeetsTile(p, q, i, j) { expected.insert(UInt64(j) << 32 | UInt64(i)) } }
            }
            let got = TileCoverage.tileKeys(tileSpace: geometry(.lineString, [line]), zoom: z)
            XCTAssertEqual(got, got.sorted(), "sorted")
            XCTAssertEqual(Set(got).count, got.count, "unique")
            XCTAssertEqual(Set(got), expected, "round \(round)")
            if round % 3 != 0 { XCTAssertGreaterThan(got.count, 512, "long enough for the radix path") }
        }
    }

    func testPolygonsWithHolesAndSelfIntersections() {
        var rng = SplitMix64(seed: 3)
        for round in 0..<300 {
            var polys: [[[(Int, Int)]]] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                var rings: [[(Int, Int)]] = []
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    rings.append((0..<Int.random(in: 3...7, using: &rng)).map { _ in vertex(&rng) })
                }
                polys.append(rings)
            }
            // Closed rings for the geometry (repeat the first vertex), open for the oracle.
            var parts: [[(Int, Int)]] = []
            var polyStarts: [Int] = []
            for p in polys {
                polyStarts.append(parts.count)
                // Half the rounds leave the rings unclosed (§6.3: close them, don't crash).
                for r in p { parts.append(round % 2 == 0 ? r + [r[0]] : r) }
            }
            let g = geometry(.multiPolygon, parts, polygonStarts: polyStarts)
            let ours = cover(g), want = oracle(polygons: polys)
            XCTAssertEqual(ours, want, "round \(round): extra \(ours.subtracting(want).count), missing \(want.subtracting(ours).count) \(polys)")
        }
    }

    /// §6.3 with long self-intersecting rings (30–90 vertices over an 8 × 8 world): rows
    /// carry dozens of crossings, so the fill's row-bucketed ordering and its per-row sorts
    /// of more than 16 crossings are exercised, against the oracle.
    func testPolygonsWithManyCrossingsPerRow() {
        var rng = SplitMix64(seed: 31)
        var largestRow = 0
        for round in 0..<150 {
            var rings: [[(Int, Int)]] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                rings.append((0..<Int.random(in: 30...90, using: &rng)).map { _ in vertex(&rng) })
            }
            let parts = rings.map { round % 2 == 0 ? $0 + [$0[0]] : $0 }
            let g = geometry(.polygon, parts, polygonStarts: [0])
            let ours = cover(g), want = oracle(polygons: [rings])
            XCTAssertEqual(ours, want, "round \(round): extra \(ours.subtracting(want).count), missing \(want.subtracting(ours).count)")
            // Crossings of the centre line of row 3 (y = 3.5 tiles), as the fill counts them.
            let y2 = 7 * scale
            let row3 = rings.reduce(0) { sum, r in
                sum + (0..<r.count).filter { k in (2 * r[k].1 > y2) != (2 * r[(k + 1) % r.count].1 > y2) }.count
            }
            largestRow = max(largestRow, row3)
        }
        XCTAssertGreaterThan(largestRow, 40, "rows with more than 16 crossings")
    }

    /// §6.3 with rings that linger in tiles: runs of 2–7 consecutive vertices strictly
    /// inside one tile (the fill passes over the inner ones), between vertices anywhere,
    /// self-intersecting, in both modes, against the oracles.
    func testPolygonsWithVerticesLingeringInTiles() {
        var rng = SplitMix64(seed: 5961)
        var lingering = 0
        for round in 0..<200 {
            var rings: [[(Int, Int)]] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                var ring: [(Int, Int)] = []
                for _ in 0..<Int.random(in: 2...6, using: &rng) {
                    if Bool.random(using: &rng) { ring.append(vertex(&rng)) }
                    // A tile of the world, and vertices at its inner quarter points.
                    let i = Int.random(in: 0..<n, using: &rng), j = Int.random(in: 0..<n, using: &rng)
                    let run = Int.random(in: 2...7, using: &rng)
                    lingering += run - 2
                    for _ in 0..<run {
                        ring.append((i * scale + Int.random(in: 1...(scale - 1), using: &rng),
                                     j * scale + Int.random(in: 1...(scale - 1), using: &rng)))
                    }
                }
                rings.append(ring)
            }
            let parts = rings.map { round % 2 == 0 ? $0 + [$0[0]] : $0 }
            let g = geometry(.polygon, parts, polygonStarts: [0])
            let ours = cover(g), want = oracle(polygons: [rings])
            XCTAssertEqual(ours, want, "round \(round): extra \(ours.subtracting(want).count), missing \(want.subtracting(ours).count) \(rings)")
            XCTAssertEqual(minimalCover(g), minimalOracle(polygons: [rings]), "minimal, round \(round) \(rings)")
        }
        XCTAssertGreaterThan(lingering, 500, "vertices the fill passes over")
    }

    /// §6.7, §6.8: the whole world at z2 is 16 tiles; z30 ids have no precision loss;
    /// a line to the pole terminates.
    func testWorldPolesAndDeepZooms() {
        let world = Geometry(kind: .polygon, coordinates: [-180, -90, 180, -90, 180, 90, -180, 90, -180, -90],
                             partStarts: [0], polygonStarts: [0])
        XCTAssertEqual(TileCoverage.tiles(for: world, zoom: 2).count, 16)
        XCTAssertEqual(TileCoverage.tiles(for: world, zoom: 5).count, 1024)
        let pole = Geometry(kind: .lineString, coordinates: [10, 80, 10, 90], partStarts: [0])
        XCTAssertFalse(TileCoverage.tiles(for: pole, zoom: 12).isEmpty)
        let p = TileCoverage.tiles(for: Geometry(kind: .point, coordinates: [8.5417, 47.3769]), zoom: 30)
        XCTAssertEqual(p.count, 1)
        let b = p[0].bounds
        XCTAssertTrue(b.west <= 8.5417 && 8.5417 <= b.east && b.south <= 47.3769 && 47.3769 <= b.north)
        // Coordinates taken literally: beyond +180 touches nothing; huge values do not trap.
        XCTAssertEqual(TileCoverage.tiles(for: Geometry(kind: .point, coordinates: [190, 0]), zoom: 3), [])
        _ = TileCoverage.tiles(for: Geometry(kind: .lineString, coordinates: [-1e308, 0, 1e308, 1], partStarts: [0]), zoom: 4)
        XCTAssertEqual(TileCoverage.tiles(for: Geometry(kind: .point, coordinates: [.nan, 0]), zoom: 3), [])
    }

    /// §6.2: a tile corner computed by the inverse projection lands exactly on the grid.
    func testProjectionOfTileCorners() {
        for z in [1, 5, 12] {
            for (x, y) in [(0, 0), (1, 1), ((1 << z) - 1, (1 << z) / 2)] {
                let t = TileID(z: z, x: x, y: y)!
                let b = t.bounds
                XCTAssertEqual(WebMercator.x(longitude: b.west) * Double(1 << z), Double(x))
                XCTAssertEqual(WebMercator.y(latitude: b.north) * Double(1 << z), Double(y), accuracy: 1e-9)
                XCTAssertEqual(WebMercator.tile(longitude: (b.west + b.east) / 2, latitude: (b.south + b.north) / 2, zoom: z), t)
            }
        }
        XCTAssertEqual(WebMercator.y(latitude: 90), 0)
        XCTAssertEqual(WebMercator.y(latitude: -90), 1)
        XCTAssertEqual(WebMercator.tile(longitude: 180, latitude: 0, zoom: 3).x, 7)
        XCTAssertEqual(WebMercator.tile(longitude: -180, latitude: 0, zoom: 3).x, 0)
    }

    /// The exact orientation predicate on near-degenerate inputs (collinear points that
    /// floating-point evaluation gets wrong).
    func testOrientationExactness() {
        // Points on the line y = x at large magnitudes, nudged by one ulp.
        let a = 0.5, b = 12.0, c = 24.0
        XCTAssertEqual(_orientationSign(a, a, b, b, c, c), 0)
        XCTAssertEqual(_orientationSign(a, a, b, b, c, c.nextUp), 1)
        XCTAssertEqual(_orientationSign(a, a, b, b, c, c.nextDown), -1)
        let big = 1 << 29
        let x = Double(big) + 0.25
        XCTAssertEqual(_orientationSign(0.1, 0.1, x, x, 0.3, 0.3), _orientationSignExact(0.1, 0.1, x, x, 0.3, 0.3))
        XCTAssertEqual(_orientationSignExact(0, 0, 1, 1, 2, 2), 0)
    }
}

/// §6.7: merging complete sibling groups into parents is lossless.
final class ZoomRangeTests: XCTestCase {
    func expand(_ tiles: [TileID], to z: Int) -> Set<TileID> {
        var out = Set<TileID>()
        for t in tiles {
            var level = [t]
            while level[0].z < z { level = level.flatMap(\.children) }
            out.formUnion(level)
        }
        return out
    }

    func testMergeIsLossless() {
        let shapes: [Geometry] = [
            Geometry(kind: .polygon, coordinates: [-10, -10, 30, -5, 25, 40, -12, 35, -10, -10], partStarts: [0], polygonStarts: [0]),
            Geometry(kind: .lineString, coordinates: [-100, 20, 60, -45, 120, 10], partStarts: [0]),
            Geometry(kind: .multiPoint, coordinates: [0, 0, 45, 45, -120, -60]),
        ]
        for g in shapes {
            let merged = TileCoverage.tiles(for: g, minZoom: 2, maxZoom: 7)
            XCTAssertEqual(expand(merged, to: 7), Set(TileCoverage.tiles(for: g, zoom: 7)))
            XCTAssertTrue(merged.allSatisfy { $0.z >= 2 && $0.z <= 7 })
            XCTAssertEqual(Set(merged).count, merged.count)
        }
        let world = Geometry(kind: .polygon, coordinates: [-180, -90, 180, -90, 180, 90, -180, 90, -180, -90], partStarts: [0], polygonStarts: [0])
        XCTAssertEqual(TileCoverage.tiles(for: world, minZoom: 0, maxZoom: 6).map(\.description), ["0/0/0"])
    }
}
