import GeoModel
import GraticuleSupport
import XCTest
@testable import TileCover

/// `TileCoverage.runs(for:zoom:mode:)` holds the same tiles as the list-building cover
/// (each geometry's list, united), in the same (y, x) order, with a count that needs no
/// enumeration; and its memory follows runs, not tiles.
final class TileRunsTests: XCTestCase {
    func randomGeometry(_ rng: inout SplitMix64) -> Geometry {
        func lon() -> Double { Double(rng.next() % 3600) / 10 - 180 }
        func lat() -> Double { Double(rng.next() % 1600) / 10 - 80 }
        switch rng.next() % 4 {
        case 0:
            return Geometry(kind: .multiPoint, coordinates: (0..<6).flatMap { _ in [lon(), lat()] })
        case 1:
            return Geometry(kind: .lineString, coordinates: (0..<5).flatMap { _ in [lon(), lat()] })
        default:
            // A star-shaped ring around a centre (possibly self-touching after rounding).
            let cx = lon() / 2, cy = lat() / 2, r = Double(rng.next() % 400) / 10 + 0.5
            var ring: [Double] = []
            for k in 0..<7 {
                let a = Double(k) / 7 * 2 * Double.pi
                let s = r * (0.4 + Double(rng.next() % 60) / 100)
                ring += [cx + s * cos(a), cy + s * sin(a) * 0.7]
            }
            ring += ring.prefix(2)
            return Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0])
        }
    }

    func testRunsEqualTheListedCover() {
        var rng = SplitMix64(seed: 56)
        for trial in 0..<300 {
            let zoom = Int(rng.next() % 9)
            let geometries = (0..<Int(1 + rng.next() % 3)).map { _ in randomGeometry(&rng) }
            for mode in [TileCoverage.Mode.closed, .minimal] {
                var expected = Set<TileID>()
                for g in geometries { expected.formUnion(TileCoverage.tiles(for: g, zoom: zoom, mode: mode)) }
                let sortedExpected = expected.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
                let runs = TileCoverage.runs(for: geometries, zoom: zoom, mode: mode)
                XCTAssertEqual(Array(runs), sortedExpected, "trial \(trial) z\(zoom) \(mode)")
                XCTAssertEqual(runs.count, expected.count, "trial \(trial)")
                for r in zip(runs.runs, runs.runs.dropFirst()) {
                    XCTAssertTrue(r.0.row < r.1.row || r.0.lastColumn + 1 < r.1.firstColumn, "runs overlap or touch: \(r)")
                }
                // contains agrees with membership, in and out.
                for t in sortedExpected.prefix(20) { XCTAssertTrue(runs.contains(t)) }
                let n = 1 << zoom
                for _ in 0..<20 {
                    let t = TileID(z: zoom, x: Int(rng.next() % UInt64(n)), y: Int(rng.next() % UInt64(n)))!
                    XCTAssertEqual(runs.contains(t), expected.contains(t), "trial \(trial) \(t)")
                }
            }
        }
    }

    /// One accumulator, used again and again, gives each group of geometries the tiles of
    /// the one-shot cover (united), whether a geometry comes as a `Geometry` or as a
    /// `FlatGeometry` inside shared buffers with other positions around it and three
    /// values per position.
    func testAccumulatorEqualsTheOneShotCover() {
        var rng = SplitMix64(seed: 5960)
        for mode in [TileCoverage.Mode.closed, .minimal] {
            for zoom in [0, 4, 9] {
                var cover = TileCoverage.Accumulator(zoom: zoom, mode: mode)
                var keys: [UInt64] = []
                for trial in 0..<200 {
                    let geometries = (0..<Int(1 + rng.next() % 3)).map { _ in randomGeometry(&rng) }
                    var expected = Set<UInt64>()
                    for g in geometries {
                        for t in TileCoverage.tiles(for: g, zoom: zoom, mode: mode) { expected.insert(UInt64(t.y) << 32 | UInt64(t.x)) }
                    }
                    let flat = trial % 2 == 1
                    for g in geometries {
                        if flat { cover.add(Self.embedded(g, &rng)) } else { cover.add(g) }
                    }
                    cover.finish(into: &keys)
                    XCTAssertEqual(keys, expected.sorted(), "z\(zoom) \(mode) trial \(trial) flat \(flat)")
                }
            }
        }
    }

    /// The fill's passing over vertices that lie in the tile of both their neighbours
    /// changes no cover: detailed rings (hundreds of vertices, many per tile, spiky and
    /// self-intersecting) at zooms 0–9, both modes, with and without it.
    func testPassingOverInnerVerticesChangesNoCover() {
        var rng = SplitMix64(seed: 5962)
        var passed = 0
        for trial in 0..<120 {
            let cx = Double(rng.next() % 300) - 150, cy = Double(rng.next() % 140) - 70
            let r = Double(rng.next() % 300) / 10 + 0.3
            var ring: [Double] = []
            let count = 100 + Int(rng.next() % 600)
            for k in 0..<count {
                let a = Double(k) / Double(count) * 2 * Double.pi
                let s = r * (0.3 + Double(rng.next() % 70) / 100)
                ring += [cx + s * cos(a) * 1.5, cy + s * sin(a)]
            }
            if trial % 2 == 0 { ring += ring.prefix(2) }
            let g = Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0])
            for zoom in [0, 3, 6, 9] {
                for minimal in [false, true] {
                    var with = _Cover(zoom: zoom), without = _Cover(zoom: zoom)
                    with.minimal = minimal
                    without.minimal = minimal
                    without.passesOverInnerVertices = false
                    with.add(g, projected: true)
                    without.add(g, projected: true)
                    let a = with.finish(), b = without.finish()
                    XCTAssertTrue(a == b, "trial \(trial) z\(zoom) minimal \(minimal): \(a.count) tiles against \(b.count)")
                    passed += 1
                }
            }
        }
        XCTAssertEqual(passed, 960)
    }

    /// `g` as a flat geometry in buffers that hold other positions, parts and polygons
    /// before and after it, three values per position (NaN altitudes).
    static func embedded(_ g: Geometry, _ rng: inout SplitMix64) -> FlatGeometry {
        let before = Int(rng.next() % 4), after = Int(rng.next() % 3)
        var coordinates: [Double] = []
        for _ in 0..<before { coordinates += [1, 2, 3] }
        for i in 0..<g.positionCount { coordinates += [g.x(i), g.y(i), .nan] }
        for _ in 0..<after { coordinates += [4, 5, 6] }
        let partBase = Int(rng.next() % 3), polygonBase = Int(rng.next() % 3)
        let parts = Array(0..<partBase) + g.partStarts.map { $0 + before } + [before + g.positionCount]
        let polygons = Array(0..<polygonBase) + g.polygonStarts.map { $0 + partBase } + [partBase + g.partStarts.count]
        let flat = FlatGeometry(kind: g.kind, coordinates: coordinates, stride: 3, positions: before..<(before + g.positionCount),
                                partStarts: parts, parts: partBase..<(partBase + g.partStarts.count),
                                polygonStarts: polygons, polygons: polygonBase..<(polygonBase + g.polygonStarts.count))
        return flat
    }

    /// The world square at z14: 2^28 tiles held as one run per row.
    func testTheWorldAtZ14IsOneRunPerRow() {
        let world = Geometry(kind: .polygon, coordinates: [-180, -86, 180, -86, 180, 86, -180, 86, -180, -86],
                             partStarts: [0], polygonStarts: [0])
        let runs = TileCoverage.runs(for: [world], zoom: 14)
        XCTAssertEqual(runs.count, 1 << 28)
        XCTAssertEqual(runs.runs.count, 1 << 14)
        XCTAssertEqual(runs.runs.first, TileRuns.Run(row: 0, firstColumn: 0, lastColumn: 16383))
        XCTAssertTrue(runs.contains(TileID(z: 14, x: 8191, y: 9000)!))
        XCTAssertFalse(runs.contains(TileID(z: 13, x: 1, y: 1)!))
    }

    func testAnEmptyCover() {
        let runs = TileCoverage.runs(for: [], zoom: 5)
        XCTAssertEqual(runs.count, 0)
        var it = runs.makeIterator()
        XCTAssertNil(it.next())
    }

    /// The text of a cover, whatever the chunk size, is its tiles' `z/x/y` (or quadkey)
    /// lines in order.
    func testTextIsTheTilesOneALine() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<40 {
            let zoom = Int(rng.next() % 12)
            let geometries = [randomGeometry(&rng), randomGeometry(&rng)]
            let runs = TileCoverage.runs(for: geometries, zoom: zoom)
            for (format, line) in [(TileRuns.TextFormat.lines, { (t: TileID) in t.description }), (.quadkeys, { $0.quadkey })] {
                let expected = runs.map { line($0) + "\n" }.joined()
                for chunk in [1, 7, 1 << 20] {
                    var bytes: [UInt8] = []
                    runs.writeText(format, chunkBytes: chunk) { bytes += $0 }
                    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected, "z\(zoom) \(format) chunk \(chunk)")
                }
            }
        }
    }
}

