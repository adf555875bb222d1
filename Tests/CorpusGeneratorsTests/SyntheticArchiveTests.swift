import XCTest
import CorpusGenerators
import GraticuleTestSupport
import TileArchive
import TileCover

/// Archives of generated tiles read back tile for tile, in every format; a compression a
/// format cannot hold is refused before anything is written.
final class SyntheticArchiveTests: XCTestCase {
    func testEveryFormatReadsBack() throws {
        let folder = try TestPaths.newFolder("synthetic-archive")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let count = 100
        for format in SyntheticArchive.Format.allCases {
            let path = folder + "/a." + format.rawValue
            var progress: [Int] = []
            let written = try SyntheticArchive.write(count: count, format: format, compression: .none, seed: 4, density: 0.05,
                                                     to: path) { progress.append($0) }
            XCTAssertEqual(progress, [0], "every 1,024 tiles")
            XCTAssertEqual(written.maxZoom, 4, "tiles 0-99: z0 to z4")
            var total = 0
            for id in 0..<UInt64(count) {
                let t = PMTiles.tile(id: id)!
                let expected = SyntheticTiles.tile(z: Int(t.z), x: Int(t.x), y: Int(t.y), seed: 4, density: 0.05)
                let stored: [UInt8]?
                if format == .dir {
                    stored = FileManager.default.contents(atPath: "\(path)/\(t.z)/\(t.x)/\(t.y).mvt").map { Array($0) }
                } else {
                    stored = try TileArchiveFile.tile(t, path: path)
                }
                XCTAssertEqual(stored, expected, "\(format) \(t)")
                total += expected.count
            }
            XCTAssertEqual(written.tileBytes, total)
        }
    }

    func testCompressionTheFormatCannotHoldIsRefused() throws {
        let folder = try TestPaths.newFolder("synthetic-archive")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertThrowsError(try SyntheticArchive.write(count: 5, format: .mbtiles, compression: .brotli, seed: 1, density: 0.05,
                                                        to: folder + "/a.mbtiles"))
        XCTAssertThrowsError(try SyntheticArchive.write(count: 0, format: .pmtiles, compression: .gzip, seed: 1, density: 0.05,
                                                        to: folder + "/b.pmtiles"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing written")
        XCTAssertTrue(SyntheticArchive.tileJSON(maxZoom: 3, compression: "gzip").contains(#""maxzoom":3"#))
    }
}
