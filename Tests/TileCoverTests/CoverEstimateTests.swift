import GeoModel
import XCTest
import TileCover

/// The estimate a command checks before covering: never below the cover it stands for (so
/// an answer too big to hold is always refused first), and within a small factor of it
/// plus a few per vertex (so a cover that fits is not refused).
final class CoverEstimateTests: XCTestCase {
    func testEstimateBoundsTheCoverFromAbove() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<60 {
            let zoom = Int.random(in: 2...11, using: &rng)
            let cx = Double.random(in: -170...170, using: &rng), cy = Double.random(in: -70...70, using: &rng)
            let r = Double.random(in: 0.01...8, using: &rng)
            var ring: [Double] = []
            let sides = Int.random(in: 3...12, using: &rng)
            for k in 0..<sides {
                let a = Double(k) / Double(sides) * 2 * .pi
                let rr = r * Double.random(in: 0.3...1, using: &rng)
                ring += [cx + rr * cos(a), cy + rr * sin(a)]
            }
            ring += ring.prefix(2)
            let polygon = Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0])
            let line = Geometry(kind: .lineString, coordinates: Array(ring.dropLast(2)), partStarts: [0])
            for g in [polygon, line] {
                let actual = Double(TileCoverage.tiles(for: g, zoom: zoom).count)
                let estimate = TileCoverage.estimatedCount(for: g, zoom: zoom)
                XCTAssertGreaterThanOrEqual(estimate, actual, "round \(round), \(g.kind) z\(zoom)")
                XCTAssertLessThanOrEqual(estimate, 8 * actual + 8 * Double(sides) + 64, "round \(round), \(g.kind) z\(zoom)")
            }
        }
        let points = Geometry(kind: .multiPoint, coordinates: [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(TileCoverage.estimatedCount(for: points, zoom: 20), 3)
    }

    /// The request the estimate exists for: a 1° square at z22 is about 1.4 · 10^8 tiles.
    func testOneDegreeAtZ22() {
        let square = Geometry(kind: .polygon, coordinates: [0, 0, 1, 0, 1, 1, 0, 1, 0, 0], partStarts: [0], polygonStarts: [0])
        let estimate = TileCoverage.estimatedCount(for: square, zoom: 22)
        XCTAssertGreaterThan(estimate, 1.3e8)
        XCTAssertLessThan(estimate, 1.5e8)
    }

    /// Longitudes far outside the world gave infinite differences and a NaN estimate, which
    /// a refusal printed as "estimated at nan tiles"; the estimate stays finite and an upper
    /// bound.
    func testFarLongitudesGiveAFiniteEstimate() {
        let ring: [Double] = [-1e300, -10, 1e300, -10, 1e300, 10, -1e300, 10, -1e300, -10]
        let polygon = Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0])
        for zoom in [0, 5, 14] {
            let e = TileCoverage.estimatedCount(for: polygon, zoom: zoom)
            XCTAssertTrue(e.isFinite, "z\(zoom): \(e)")
            XCTAssertGreaterThanOrEqual(e, Double(TileCoverage.tiles(for: polygon, zoom: zoom).count))
        }
        let line = Geometry(kind: .lineString, coordinates: [-1e308, 0, 1e308, 1])
        XCTAssertTrue(TileCoverage.estimatedCount(for: line, zoom: 20).isFinite)
    }

    /// The boundary estimate bounds the tiles a polygon's rings cross (its cover as lines)
    /// and leaves the interior out.
    func testBoundaryEstimateBoundsTheRings() {
        let ring: [Double] = [-20, -10, 30, -12, 25, 40, -15, 35, -20, -10]
        let polygon = Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0])
        let outline = Geometry(kind: .lineString, coordinates: ring)
        for zoom in [3, 8, 12] {
            let boundary = TileCoverage.estimatedBoundaryCount(for: polygon, zoom: zoom)
            XCTAssertGreaterThanOrEqual(boundary, Double(TileCoverage.tiles(for: outline, zoom: zoom).count), "z\(zoom)")
            XCTAssertLessThan(boundary, TileCoverage.estimatedCount(for: polygon, zoom: zoom), "z\(zoom)")
        }
        XCTAssertEqual(TileCoverage.estimatedBoundaryCount(for: outline, zoom: 9), TileCoverage.estimatedCount(for: outline, zoom: 9))
    }
}

