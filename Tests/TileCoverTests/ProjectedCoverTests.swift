import GraticuleSupport
import XCTest
@testable import TileCover
import GeoModel

/// The longitude/latitude covers of points and lines place most vertices with the
/// table-driven y of `_FastMercator` and fall back to `WebMercator.y` near grid lines.
/// These tests hold that shortcut to the exact answer: the cover of a geometry in
/// longitude/latitude must equal the cover of the same geometry projected first with
/// `WebMercator` (whose tile-space cover the oracle tests check), on vertices chosen to lie
/// on, and a few ulps either side of, tile edges (tilecover.md §5.1 projection, §6.4 lines,
/// §6.5 points).
final class ProjectedCoverTests: XCTestCase {
    typealias Rng = SplitMix64

    func testFastMercatorStaysWithinItsBound() {
        var rng = SplitMix64(seed: 41)
        var worst = 0.0
        _FastMercator.coefficients.withUnsafeBufferPointer { c in
            for k in 0..<400_000 {
                var lat: Double
                switch k % 4 {
                case 0: lat = Double.random(in: -_FastMercator.limit ..< _FastMercator.limit, using: &rng)
                case 1: lat = Double.random(in: 80 ..< _FastMercator.limit, using: &rng) * (k % 8 == 1 ? 1 : -1)
                default:
                    // Interval ends, where the Taylor remainder is largest.
                    let i = Int.random(in: 0..<_FastMercator.intervals, using: &rng)
                    lat = -WebMercator.maxLatitude + Double(i + (k % 4 == 2 ? 0 : 1)) * _FastMercator.step
                    lat = k % 8 < 4 ? lat.nextUp : lat.nextDown
                }
                guard abs(lat) < _FastMercator.limit else { continue }
                worst = max(worst, abs(_FastMercator.y(latitude: lat, c.baseAddress!) - WebMercator.y(latitude: lat)))
            }
        }
        // The bound the covers rely on, with room to spare: a wrong coefficient or interval
        // index moves y by far more than this.
        XCTAssertLessThan(worst, _FastMercator.errorBound / 4, "largest difference \(worst)")
    }

    /// A latitude on a tile row edge at `zoom` within two rows of `near`, or a few ulps off
    /// it, or anywhere within a few tiles of `near`.
    func latitude(_ rng: inout Rng, zoom: Int, near: Double) -> Double {
        let n = Double(1 << zoom)
        let row = Int((WebMercator.y(latitude: near) * n).rounded(.down))
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return WebMercator.latitude(y: (Double(row) + Double.random(in: -3...3, using: &rng)) / n)
        case 1: return zoom < 8 ? 0 : near
        default:
            var lat = WebMercator.latitude(y: Double(min(max(row + Int.random(in: -2...2, using: &rng), 0), 1 << zoom)) / n)
            for _ in 0..<Int.random(in: 0...3, using: &rng) { lat = Bool.random(using: &rng) ? lat.nextUp : lat.nextDown }
            return lat
        }
    }

    func longitude(_ rng: inout Rng, zoom: Int, near: Double) -> Double {
        let n = Double(1 << zoom)
        let col = Int((WebMercator.x(longitude: near) * n).rounded(.down))
        if Bool.random(using: &rng) { return WebMercator.longitude(x: (Double(col) + Double.random(in: -3...3, using: &rng)) / n) }
        var lon = WebMercator.longitude(x: Double(min(max(col + Int.random(in: -2...2, using: &rng), 0), 1 << zoom)) / n)
        if Bool.random(using: &rng) { lon = lon.nextUp }
        return lon
    }

    /// The same geometry with every position projected to tile units at `zoom`.
    func projected(_ g: Geometry, zoom: Int) -> Geometry {
        var p = g
        let n = Double(1 << zoom)
        for i in 0..<g.positionCount {
            p.coordinates[2 * i] = WebMercator.x(longitude: g.x(i)) * n
            p.coordinates[2 * i + 1] = WebMercator.y(latitude: g.y(i)) * n
        }
        return p
    }

    func keys(_ tiles: [TileID]) -> [UInt64] { tiles.map { UInt64($0.y) << 32 | UInt64($0.x) } }

    func testLinesAgreeWithTheExactProjection() {
        var rng = SplitMix64(seed: 42)
        for round in 0..<1_500 {
            let zoom = [2, 5, 10, 16, 22, 29, 30][round % 7]
            let tile = 360.0 / Double(1 << zoom)
            // Walks whose steps stay inside a tile, cross one or two, or cross dozens (the
            // cover stays small at every zoom).
            let step = [tile / 8, tile, 30 * tile][round % 3]
            let baseLon = Double.random(in: -185...185, using: &rng), baseLat = Double.random(in: -87...87, using: &rng)
            var coords: [Double] = []
            var lon = longitude(&rng, zoom: zoom, near: baseLon), lat = latitude(&rng, zoom: zoom, near: baseLat)
            for _ in 0..<Int.random(in: 2...30, using: &rng) {
                coords += [lon, lat]
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    lon = longitude(&rng, zoom: zoom, near: lon)
                    lat = latitude(&rng, zoom: zoom, near: lat)
                } else {
                    lon += Double.random(in: -step...step, using: &rng)
                    lat = min(max(lat + Double.random(in: -step...step, using: &rng) / 2, -89), 89)
                }
            }
            let g = Geometry(kind: .lineString, coordinates: coords, partStarts: [0])
            for mode in [TileCoverage.Mode.closed, .minimal] {
                XCTAssertEqual(keys(TileCoverage.tiles(for: g, zoom: zoom, mode: mode)),
                               TileCoverage.tileKeys(tileSpace: projected(g, zoom: zoom), zoom: zoom, mode: mode),
                               "round \(round), z\(zoom), \(mode): \(coords)")
            }
        }
    }

    /// Polygons (§6.3) with vertices on tile edges, a few ulps off them, and on the centre
    /// lines y = row + ½ the fill scans (where a fast y could move a crossing), rings closed
    /// or left open, holes and several polygons: the lon/lat cover equals the tile-space
    /// cover of the exactly projected polygon, in both modes.
    func testPolygonsAgreeWithTheExactProjection() {
        var rng = SplitMix64(seed: 44)
        for round in 0..<1_000 {
            let zoom = [3, 6, 10, 12, 16, 22, 29][round % 7]
            let n = Double(1 << zoom)
            let tile = 360.0 / n
            let step = [tile / 4, 2 * tile, 12 * tile][round % 3]
            let baseLon = Double.random(in: -170...170, using: &rng), baseLat = Double.random(in: -80...80, using: &rng)
            var coords: [Double] = [], parts: [Int] = [], polygons: [Int] = []
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                polygons.append(parts.count)
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    parts.append(coords.count / 2)
                    var lon = longitude(&rng, zoom: zoom, near: baseLon), lat = latitude(&rng, zoom: zoom, near: baseLat)
                    let first = (lon, lat)
                    for _ in 0..<Int.random(in: 3...24, using: &rng) {
                        coords += [lon, lat]
                        switch Int.random(in: 0..<5, using: &rng) {
                        case 0:
                            lon = longitude(&rng, zoom: zoom, near: lon)
                            lat = latitude(&rng, zoom: zoom, near: lat)
                        case 1:
                            // On a row's centre line, or an ulp or two off it.
                            let row = (WebMercator.y(latitude: lat) * n).rounded(.down)
                            lat = WebMercator.latitude(y: (row + 0.5) / n)
                            for _ in 0..<Int.random(in: 0...2, using: &rng) { lat = Bool.random(using: &rng) ? lat.nextUp : lat.nextDown }
                            lon += Double.random(in: -step...step, using: &rng)
                        default:
                            lon += Double.random(in: -step...step, using: &rng)
                            lat = min(max(lat + Double.random(in: -step...step, using: &rng) / 2, -85), 85)
                        }
                    }
                    if round % 2 == 0 { coords += [first.0, first.1] }
                }
            }
            let g = Geometry(kind: .multiPolygon, coordinates: coords, partStarts: parts, polygonStarts: polygons)
            for mode in [TileCoverage.Mode.closed, .minimal] {
                XCTAssertEqual(keys(TileCoverage.tiles(for: g, zoom: zoom, mode: mode)),
                               TileCoverage.tileKeys(tileSpace: projected(g, zoom: zoom), zoom: zoom, mode: mode),
                               "round \(round), z\(zoom), \(mode): \(coords) \(parts) \(polygons)")
            }
        }
    }

    /// Lines and rings whose vertices mostly stay in one tile row, now and then stepping
    /// onto a row edge, a few ulps off it, a tenth of a tile inside it or into a neighbouring
    /// row, near the fast table's latitude limit (85°) at z0 and z1 and at deep zooms: the
    /// cover (and the accumulator's, feature after feature) equals the exactly projected one.
    func testVerticesKeptInOneRowAgreeWithTheExactProjection() {
        var rng = SplitMix64(seed: 45)
        for round in 0..<1_200 {
            let zoom = [0, 1, 4, 9, 12, 20, 29][round % 7]
            let n = Double(1 << zoom)
            let baseLat = round % 5 == 0 ? Double.random(in: 83...85.2, using: &rng) * (round % 2 == 0 ? 1 : -1)
                                         : Double.random(in: -80...80, using: &rng)
            let row = min((WebMercator.y(latitude: baseLat) * n).rounded(.down), n - 1)
            var x = Double.random(in: 0...n, using: &rng)
            var coords: [Double] = []
            for _ in 0..<Int.random(in: 3...40, using: &rng) {
                let f: Double
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: f = [0, 1, 0.1, 0.9][Int.random(in: 0..<4, using: &rng)]     // a row edge or the band's
                case 1: f = Double.random(in: -1.5...2.5, using: &rng)                  // a neighbouring row
                default: f = Double.random(in: 0.05...0.95, using: &rng)
                }
                var lat = WebMercator.latitude(y: min(max(row + f, 0), n) / n)
                for _ in 0..<Int.random(in: 0...2, using: &rng) { lat = Bool.random(using: &rng) ? lat.nextUp : lat.nextDown }
                x += Double.random(in: -0.4...0.6, using: &rng)
                coords += [WebMercator.longitude(x: x / n), lat]
            }
            let line = Geometry(kind: .lineString, coordinates: coords, partStarts: [0])
            let ring = Geometry(kind: .polygon, coordinates: coords + coords.prefix(2), partStarts: [0])
            for g in [line, ring] {
                for mode in [TileCoverage.Mode.closed, .minimal] {
                    XCTAssertEqual(keys(TileCoverage.tiles(for: g, zoom: zoom, mode: mode)),
                                   TileCoverage.tileKeys(tileSpace: projected(g, zoom: zoom), zoom: zoom, mode: mode),
                                   "round \(round), z\(zoom), \(g.kind), \(mode): \(coords)")
                }
            }
            // The accumulator (a dataset profile's cover, feature after feature) agrees too.
            var cover = TileCoverage.Accumulator(zoom: zoom)
            var got: [UInt64] = []
            cover.add(ring)
            cover.add(line)
            cover.finish(into: &got)
            let want = Set(TileCoverage.tileKeys(tileSpace: projected(ring, zoom: zoom), zoom: zoom)
                           + TileCoverage.tileKeys(tileSpace: projected(line, zoom: zoom), zoom: zoom)).sorted()
            XCTAssertEqual(got, want, "round \(round), accumulator")
        }
    }

    func testPointsAgreeWithTheExactProjection() {
        var rng = SplitMix64(seed: 43)
        for round in 0..<600 {
            let zoom = [0, 3, 10, 16, 24, 30][round % 6]
            let baseLon = Double.random(in: -185...185, using: &rng), baseLat = Double.random(in: -87...87, using: &rng)
            var coords: [Double] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                coords += [longitude(&rng, zoom: zoom, near: baseLon), latitude(&rng, zoom: zoom, near: baseLat)]
            }
            let g = Geometry(kind: .multiPoint, coordinates: coords)
            XCTAssertEqual(keys(TileCoverage.tiles(for: g, zoom: zoom)),
                           TileCoverage.tileKeys(tileSpace: projected(g, zoom: zoom), zoom: zoom),
                           "round \(round), z\(zoom): \(coords)")
        }
    }
}
