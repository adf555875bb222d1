import XCTest
@testable import TileCover

/// Camera cover against the checklist of ../shared/specs/tilecover.md §4 (items 1–9). The
/// expectations come from independent constructions written here: the screen rectangle
/// laid on the ground at pitch 0, and screen pixels cast onto the ground with rotation
/// matrices (not the half-planes the implementation uses).
final class CameraCoverageTests: XCTestCase {
    /// A small deterministic generator.
    struct Rng {
        var s: UInt64
        mutating func next() -> Double {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Double(s >> 11) / Double(1 << 53)
        }
    }

    /// The ground point under screen pixel (sx, sy) (origin top-left), in Mercator units
    /// with wrap (x may leave [0, 1]); nil above the horizon.
    func unproject(_ c: Camera, _ sx: Double, _ sy: Double) -> (x: Double, y: Double)? {
        let world = 512 * pow(2, c.zoom)
        let d = 0.5 * c.height / tan(c.fieldOfView * .pi / 360)
        let p = c.pitch * .pi / 180, b = c.bearing * .pi / 180
        func rotate(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
            // Tilt about the east axis by −pitch, then turn about the vertical by bearing.
            let t = (v.0, v.1 * cos(-p) - v.2 * sin(-p), v.1 * sin(-p) + v.2 * cos(-p))
            return (t.0 * cos(b) - t.1 * sin(b), t.0 * sin(b) + t.1 * cos(b), t.2)
        }
        let forward = rotate((0, 0, -1))
        let dir = rotate((sx - c.width / 2, sy - c.height / 2, -d))
        let cam = (-d * forward.0, -d * forward.1, -d * forward.2)   // centre at the origin
        guard dir.2 < -1e-12 else { return nil }
        let t = -cam.2 / dir.2
        let gx = cam.0 + t * dir.0, gy = cam.1 + t * dir.1
        let cx = (c.longitude + 180) / 360
        let s = sin(c.latitude * .pi / 180)
        let cy = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return (cx + gx / world, cy + gy / world)
    }

    /// Tiles at zoom z whose open squares meet the open axis-aligned box (with wraps).
    func boxTiles(z: Int, minX: Double, minY: Double, maxX: Double, maxY: Double) -> Set<CameraTile> {
        let n = Double(1 << z)
        var out = Set<CameraTile>()
        let i0 = Int((minX * n).rounded(.down)), i1 = Int((maxX * n).rounded(.up)) - 1
        let j0 = max(0, Int((minY * n).rounded(.down))), j1 = min(1 << z, Int((maxY * n).rounded(.up))) - 1
        guard i0 <= i1, j0 <= j1 else { return out }
        for i in i0...i1 {
            let wrap = Int((Double(i) / n).rounded(.down))
            let x = i - wrap * (1 << z)
            for j in j0...j1 { out.insert(CameraTile(tile: TileID(z: z, x: x, y: j)!, wrap: wrap)) }
        }
        return out
    }

    func cover(_ c: Camera, _ o: CameraCoverOptions = .init()) -> [CameraTile] {
        do { return try CameraCoverage.tiles(for: c, options: o) } catch { XCTFail("\(error)"); return [] }
    }

    /// Item 1: pitch 0, bearing 0 gives exactly the tiles of the screen rectangle at
    /// desiredZ; item 4: a 256-px source loads one zoom deeper; item 7: wraps near ±180.
    func testPitchZeroIsTheScreenRectangle() {
        var rng = Rng(s: 11)
        for trial in 0..<300 {
            let lon = trial % 10 == 0 ? 179.5 + rng.next() : rng.next() * 360 - 180
            let lat = rng.next() * 160 - 80
            let zoom = rng.next() * 12
            let w = 200 + rng.next() * 1800, h = 200 + rng.next() * 1200
            let c = Camera(longitude: lon, latitude: lat, zoom: zoom, width: w, height: h)
            for size in [512, 256] {
                let got = cover(c, .init(tileSize: size))
                let z = Int(zoom.rounded(.down)) + (size == 256 ? 1 : 0)
                let world = 512 * pow(2, zoom)
                let centre = unproject(c, w / 2, h / 2)!
                let expected = boxTiles(z: z, minX: centre.x - w / 2 / world, minY: centre.y - h / 2 / world,
                                        maxX: centre.x + w / 2 / world, maxY: centre.y + h / 2 / world)
                XCTAssertEqual(Set(got), expected, "trial \(trial) size \(size)")
                XCTAssertEqual(got.count, Set(got).count, "no duplicates across wraps")
            }
        }
    }

    /// Items 2 and 3: with bearing and pitch, every ground point seen through a pixel lies
    /// in a returned tile, and every returned tile holds a ground point seen near the view.
    func testBearingAndPitchCoverEveryPixel() {
        var rng = Rng(s: 29)
        for trial in 0..<120 {
            let c = Camera(longitude: rng.next() * 300 - 150, latitude: rng.next() * 140 - 70, zoom: 2 + rng.next() * 14,
                           bearing: rng.next() * 360, pitch: rng.next() * 60,
                           width: 300 + rng.next() * 1600, height: 300 + rng.next() * 900)
            let tiles = cover(c)
            let z = Int(c.zoom.rounded(.down))
            XCTAssertTrue(tiles.allSatisfy { Int($0.tile.z) == z }, "at or below the threshold one zoom (trial \(trial))")
            let set = Set(tiles)
            let n = Double(1 << z)
            func tile(_ p: (x: Double, y: Double)) -> CameraTile? {
                guard p.y > 0, p.y < 1 else { return nil }
                let i = Int((p.x * n).rounded(.down)), j = Int((p.y * n).rounded(.down))
                let wrap = Int((Double(i) / n).rounded(.down))
                guard abs(wrap) <= 3 else { return nil }
                return CameraTile(tile: TileID(z: z, x: i - wrap * (1 << z), y: j)!, wrap: wrap)
            }
            // Every pixel of a 24 × 24 grid inside the screen (the edges excluded).
            var seen = Set<CameraTile>()
            for a in 1..<24 {
                for b in 1..<24 {
                    guard let g = unproject(c, c.width * Double(a) / 24, c.height * Double(b) / 24), let t = tile(g) else { continue }
                    seen.insert(t)
                    XCTAssertTrue(set.contains(t), "trial \(trial): pixel \(a),\(b) on \(t) not covered")
                }
            }
            // No tile lies far from the screen: each is within one tile of a seen one.
            for t in tiles {
                let near = seen.contains { s in
                    abs((Int(s.tile.x) + s.wrap << z) - (Int(t.tile.x) + t.wrap << z)) <= 2 && abs(Int(s.tile.y) - Int(t.tile.y)) <= 2
                }
                XCTAssertTrue(near || seen.isEmpty, "trial \(trial): \(t) is far from every visible pixel")
            }
        }
    }

    /// Item 3 above the threshold and item 9: mixed zooms, shallower with distance, tiles
    /// disjoint (no tile and its ancestor together), every pixel covered, and 85° bounded.
    func testHighPitchMixesZoomsAndStaysBounded() {
        for pitch in [61.0, 70, 80, 85] {
            for bearing in [0.0, 30, 200] {
                let c = Camera(longitude: 13.4, latitude: 52.5, zoom: 14.3, bearing: bearing, pitch: pitch, width: 1920, height: 1080)
                let tiles = cover(c)
                XCTAssertLessThan(tiles.count, 2500, "pitch \(pitch): bounded")
                let zooms = Set(tiles.map { Int($0.tile.z) })
                XCTAssertGreaterThan(zooms.count, 1, "pitch \(pitch): mixed zooms")
                // Zoom falls with distance from the camera: the nearest tenth of the tiles
                // is deeper than the farthest tenth.
                // The ground point under the camera: the centre moved back by d·sin(pitch).
                let world = 512 * pow(2, c.zoom), back = 1.5 * c.height * sin(pitch * .pi / 180) / world
                let centre = unproject(c, c.width / 2, c.height / 2)!
                let cam: (x: Double, y: Double)? = (centre.x - back * sin(bearing * .pi / 180), centre.y + back * cos(bearing * .pi / 180))
                let byDistance = tiles.sorted { a, b in
                    func d(_ t: CameraTile) -> Double {
                        let n = Double(1 << Int(t.tile.z))
                        let x = Double(t.wrap) + (Double(t.tile.x) + 0.5) / n - cam!.x, y = (Double(t.tile.y) + 0.5) / n - cam!.y
                        return x * x + y * y
                    }
                    return d(a) < d(b)
                }
                let tenth = max(1, tiles.count / 10)
                XCTAssertGreaterThan(byDistance.prefix(tenth).map { Int($0.tile.z) }.min()!,
                                     byDistance.suffix(tenth).map { Int($0.tile.z) }.max()!, "pitch \(pitch) bearing \(bearing)")
                // Disjoint: no tile has an ancestor in the set.
                let set = Set(tiles.map { [$0.wrap, Int($0.tile.z), Int($0.tile.x), Int($0.tile.y)] })
                for t in tiles {
                    var p = t.tile.parent
                    while let q = p {
                        XCTAssertFalse(set.contains([t.wrap, Int(q.z), Int(q.x), Int(q.y)]), "\(t) and its ancestor \(q)")
                        p = q.parent
                    }
                }
                // Every pixel whose ray meets the ground before the 89.25° horizon limit (with
                // a margin) is covered by some tile.
                for a in 1..<16 {
                    for b in 1..<16 {
                        let sx = c.width * Double(a) / 16, sy = c.height * Double(b) / 16
                        let above = atan((c.height / 2 - sy) / (0.5 * c.height / tan(c.fieldOfView * .pi / 360))) * 180 / .pi
                        guard pitch + above < 89, let g = unproject(c, sx, sy) else { continue }
                        let hit = tiles.contains { t in
                            let n = Double(1 << Int(t.tile.z))
                            let x0 = Double(t.wrap) + Double(t.tile.x) / n, y0 = Double(t.tile.y) / n
                            return g.x >= x0 && g.x <= x0 + 1 / n && g.y >= y0 && g.y <= y0 + 1 / n
                        }
                        XCTAssertTrue(hit, "pitch \(pitch) bearing \(bearing): pixel \(a),\(b) uncovered")
                    }
                }
                // The first tile holds the centre.
                if let first = tiles.first, let g = unproject(c, c.width / 2, c.height / 2) {
                    let n = Double(1 << Int(first.tile.z))
                    XCTAssertEqual(Int((g.x * n).rounded(.down)), Int(first.tile.x))
                    XCTAssertEqual(Int((g.y * n).rounded(.down)), Int(first.tile.y))
                }
            }
        }
    }

    /// Item 5: floor versus round at x.49 and x.5.
    func testRoundVersusFloor() {
        func zooms(_ zoom: Double, round: Bool) -> Set<Int> {
            Set(cover(Camera(longitude: 5, latitude: 45, zoom: zoom, width: 800, height: 600), .init(roundZoom: round)).map { Int($0.tile.z) })
        }
        XCTAssertEqual(zooms(3.49, round: false), [3])
        XCTAssertEqual(zooms(3.5, round: false), [3])
        XCTAssertEqual(zooms(3.49, round: true), [3])
        XCTAssertEqual(zooms(3.5, round: true), [4])
    }

    /// Item 6: maxZoom overscales (with and without reparsing), minZoom skips.
    func testMinMaxZoomAndOverscaling() {
        let c = Camera(longitude: -0.12, latitude: 51.5, zoom: 16.3, width: 800, height: 600)
        let over = cover(c, .init(maxZoom: 14))
        XCTAssertFalse(over.isEmpty)
        XCTAssertTrue(over.allSatisfy { $0.tile.z == 14 && $0.overscaledZ == 16 })
        XCTAssertTrue(cover(c, .init(maxZoom: 14, reparseOverscaled: false)).allSatisfy { $0.overscaledZ == 14 })
        XCTAssertEqual(Set(over.map(\.tile)), Set(cover(c, .init(maxZoom: 14, reparseOverscaled: false)).map(\.tile)))
        XCTAssertTrue(cover(c, .init(minZoom: 17, maxZoom: 22)).isEmpty, "below minzoom: nothing, no parents")
        XCTAssertTrue(cover(c).allSatisfy { $0.tile.z == 16 && $0.overscaledZ == 16 })
    }

    /// Item 7: without world copies only wrap 0 is returned; with them both sides of ±180.
    func testWorldCopies() {
        let c = Camera(longitude: 179.9, latitude: 0.3, zoom: 4.2, width: 1200, height: 800)
        let with = cover(c)
        XCTAssertEqual(Set(with.map(\.wrap)), [0, 1])
        XCTAssertTrue(with.contains(CameraTile(tile: TileID(z: 4, x: 0, y: 7)!, wrap: 1)))
        let without = cover(c, .init(renderWorldCopies: false))
        XCTAssertEqual(Set(without.map(\.wrap)), [0])
        XCTAssertEqual(Set(without), Set(with.filter { $0.wrap == 0 }))
    }

    /// Item 8: ordered by distance from the centre; the first tile holds the centre.
    func testOrderByDistance() {
        let c = Camera(longitude: 2.35, latitude: 48.85, zoom: 11.7, bearing: 40, pitch: 30, width: 1000, height: 700)
        let tiles = cover(c)
        let z = 11, n = Double(1 << z)
        let cx = (c.longitude + 180) / 360 * n
        let s = sin(c.latitude * .pi / 180)
        let cy = (0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi) * n
        let d = tiles.map { t -> Double in
            let dx = Double(Int(t.tile.x) + t.wrap * (1 << z)) + 0.5 - cx, dy = Double(t.tile.y) + 0.5 - cy
            return dx * dx + dy * dy
        }
        XCTAssertEqual(d, d.sorted())
        XCTAssertEqual(tiles.first?.tile, TileID(z: z, x: Int(cx), y: Int(cy)))
    }

    /// Items 1–8 at one target zoom: the row scan returns exactly the quadtree walk's tiles
    /// in the same order, for cameras at or below the pitch threshold, including views
    /// whose edges fall on tile lines (pitch 0, bearings of multiples of 90°, centres on
    /// grid lines), world copies on and off, min/max zooms, and views crossing ±180 and the
    /// poles.
    func testRowScanEqualsTheQuadtreeWalk() throws {
        var rng = Rng(s: 47)
        var compared = 0, tiles = 0
        for trial in 0..<3_000 {
            let onGrid = trial % 3 == 0
            // On-grid views have whole zooms, so their edges can fall on tile lines.
            let z = onGrid ? Double(Int(rng.next() * 14)) : rng.next() * 14
            let grid = exp2(Double(Int(z) + 1))
            // Centres on grid lines: x and y exact multiples of a tile side.
            let lon = onGrid ? (Double(Int(rng.next() * grid)) / grid) * 360 - 180 : rng.next() * 400 - 200
            var lat = rng.next() * 170 - 85
            if onGrid {
                let y = Double(Int(rng.next() * grid)) / grid
                lat = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
            }
            let bearing = onGrid || trial % 4 == 0 ? Double(Int(rng.next() * 4)) * 90 : rng.next() * 720 - 360
            let pitch = onGrid || trial % 5 == 0 ? 0 : rng.next() * 60
            let w = onGrid ? 256 * Double(1 + Int(rng.next() * 8)) : 100 + rng.next() * 3000
            let h = onGrid ? 256 * Double(1 + Int(rng.next() * 6)) : 100 + rng.next() * 2000
            let fov = trial % 11 == 0 ? 10 + rng.next() * 100 : Camera.defaultFieldOfView
            let camera = Camera(longitude: lon, latitude: max(-89, min(89, lat)), zoom: z, bearing: bearing, pitch: pitch,
                                width: w, height: h, fieldOfView: fov)
            let options = CameraCoverOptions(tileSize: trial % 2 == 0 ? 512 : 256, minZoom: trial % 13 == 0 ? 5 : 0,
                                             maxZoom: trial % 9 == 0 ? 6 : 22, renderWorldCopies: trial % 6 != 0)
            let view = try _CameraView(camera, options)
            guard !view.variableZoom else { continue }
            let rows = view.coverByRows(), walk = view.coverByQuadtree()
            XCTAssertEqual(rows, walk, "trial \(trial): \(camera) \(options)")
            compared += 1
            tiles += walk.count
        }
        XCTAssertGreaterThan(compared, 2_000)
        XCTAssertGreaterThan(tiles, 40_000)
    }

    /// Item 8's order, as the radix sort with its insertion pass builds it, against the
    /// library sort with the same comparison: exact ties (broken by tile), distances equal
    /// in their top 32 bits, zero, and sizes around the small cases.
    func testDistanceOrderMatchesAComparisonSort() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let count = [0, 1, 2, 3, 17, 300, 2_000][round % 7]
            var pairs: [(tile: CameraTile, d: Double)] = []
            for i in 0..<count {
                let base = [0.0, 1.0, 2.5, 1e-9, 123.456][Int.random(in: 0..<5, using: &rng)]
                let d: Double
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: d = base                                                            // exact ties
                case 1: d = Double(bitPattern: base.bitPattern &+ UInt64.random(in: 0..<1 << 20, using: &rng))  // low-bit ties
                default: d = Double.random(in: 0..<1_000, using: &rng)
                }
                let z = Int.random(in: 0...4, using: &rng)
                let tile = TileID(z: z, x: Int.random(in: 0..<(1 << z), using: &rng), y: Int.random(in: 0..<(1 << z), using: &rng))!
                pairs.append((CameraTile(tile: tile, wrap: i % 3 - 1, overscaledZ: z + i % 2), d))
            }
            let expected = pairs.sorted { $0.d < $1.d || ($0.d == $1.d && $0.tile < $1.tile) }.map(\.tile)
            XCTAssertEqual(_sortedByDistance(pairs), expected, "round \(round)")
        }
    }

    func testDeltasAndErrors() throws {
        let a = Camera(longitude: 10, latitude: 50, zoom: 12.5, width: 900, height: 600)
        var b = a
        b.longitude += 360.0 / 4096 // one z12 tile east
        let ta = cover(a), tb = cover(b)
        let (load, drop) = CameraCoverage.delta(from: ta, to: tb)
        XCTAssertEqual(Set(ta).subtracting(drop).union(load), Set(tb))
        XCTAssertTrue(Set(load).isDisjoint(with: Set(ta)))
        XCTAssertEqual(Set(load.map(\.tile.x)).count, 1, "one new column")
        XCTAssertEqual(Set(drop.map(\.tile.x)).count, 1, "one column dropped")
        XCTAssertEqual(CameraCoverage.delta(from: ta, to: ta).load, [])

        XCTAssertThrowsError(try CameraCoverage.tiles(for: Camera(longitude: 0, latitude: 0, zoom: 3, pitch: 86, width: 10, height: 10))) {
            XCTAssertEqual($0 as? CameraError, .outOfRange("pitch", 86))
        }
        XCTAssertThrowsError(try CameraCoverage.tiles(for: Camera(longitude: .nan, latitude: 0, zoom: 3, width: 10, height: 10)))
        XCTAssertThrowsError(try CameraCoverage.tiles(for: a, options: .init(tileSize: 300)))
        XCTAssertThrowsError(try CameraCoverage.tiles(for: Camera(longitude: 0, latitude: 0, zoom: 3, width: 0, height: 10)))
    }
}
