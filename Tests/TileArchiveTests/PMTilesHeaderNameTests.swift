import TileArchive
import XCTest

/// Header codes are printed by name (PMTiles v3 §3.1), never as bare numbers.
final class PMTilesHeaderNameTests: XCTestCase {
    func testCodesReadAsNames() {
        XCTAssertEqual(PMTiles.compressionName(2), "gzip")
        XCTAssertEqual(PMTiles.compressionName(1), "none")
        XCTAssertEqual(PMTiles.compressionName(4), "zstd")
        XCTAssertEqual(PMTiles.compressionName(0), "unknown (0)")
        XCTAssertEqual(PMTiles.compressionName(9), "undefined (9)")
        XCTAssertEqual(PMTiles.tileTypeName(1), "mvt")
        XCTAssertEqual(PMTiles.tileTypeName(2), "png")
        XCTAssertEqual(PMTiles.tileTypeName(5), "avif")
        XCTAssertEqual(PMTiles.tileTypeName(9), "undefined (9)")
    }
}
