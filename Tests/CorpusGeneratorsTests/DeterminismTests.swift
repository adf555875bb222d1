import XCTest
@testable import CorpusGenerators

/// The same seed gives byte-identical output on every machine: these checksums (FNV-1a
/// 64 of the bytes, as `graticule corpus generate` writes them) are pinned, so a change in a
/// generator, or a platform difference in its arithmetic, fails here. Archive containers are
/// not pinned: their gzip bytes depend on the zlib version; the tile bytes inside are.
final class DeterminismTests: XCTestCase {
    func fnv(_ b: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for x in b { h = (h ^ UInt64(x)) &* 0x100_0000_01B3 }
        return h
    }

    func testGeneratorsArePinned() throws {
        let points = PointsGeoJSON.generate(count: 1000, seed: 1).bytes
        XCTAssertEqual(points.count, 185_722)
        XCTAssertEqual(fnv(points), 0x467B_6D3D_C46C_C76B)

        for (format, size, sum) in [(MixedGeoJSON.Format.featureCollection, 303_335, 0x7DF9_F189_B789_0FCB as UInt64),
                                    (.sequence, 303_292, 0xA828_32FE_8B7C_27E2), (.newlineDelimited, 302_792, 0x1A42_6519_8714_D06C)] {
            var out: [UInt8] = []
            let r = MixedGeoJSON.generate(count: 500, seed: 1, format: format) { out += $0 }
            XCTAssertEqual(r.features, 500)
            XCTAssertEqual(r.bytes, out.count)
            XCTAssertEqual(out.count, size, "\(format)")
            XCTAssertEqual(fnv(out), sum, "\(format)")
        }
        let gpx = GPXTrackGenerator.generate(points: 500, seed: 1).bytes
        XCTAssertEqual(fnv(gpx), 0x1512_5A20_7C41_70E9)
        let walk = LinesGeoJSON.randomWalk(vertices: 500, seed: 1).bytes
        XCTAssertEqual(fnv(walk), 0x306D_954E_AE3A_9632)
        let tile = SyntheticTiles.tile(z: 3, x: 5, y: 2, seed: 1, density: 0.05)
        XCTAssertEqual(tile.count, 1039)
        XCTAssertEqual(fnv(tile), 0xC3EA_0DBC_02EE_600C)
    }

    /// A byte limit stops the stream at a feature boundary just past the limit, and the
    /// output is a prefix of the unlimited stream's features.
    func testByteLimitedStreamIsBoundedAndComplete() {
        var out: [UInt8] = []
        let r = MixedGeoJSON.generate(count: nil, bytes: 200_000, seed: 2, format: .newlineDelimited) { out += $0 }
        XCTAssertGreaterThanOrEqual(out.count, 200_000)
        XCTAssertLessThan(out.count, 200_000 + 80_000)
        XCTAssertEqual(out.last, 0x0A)
        XCTAssertEqual(out.filter { $0 == 0x0A }.count, r.features)
        var all: [UInt8] = []
        MixedGeoJSON.generate(count: r.features + 10, seed: 2, format: .newlineDelimited) { all += $0 }
        XCTAssertEqual(Array(all.prefix(out.count)), out)
    }
}
