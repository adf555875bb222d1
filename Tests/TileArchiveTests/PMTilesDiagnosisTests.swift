import Foundation
import GraticuleTestSupport
import TileArchive
import XCTest

/// A file that is not a PMTiles v3 archive is told apart by why (PM1, PM4): empty, not
/// PMTiles, another version (the versions 1 and 2 layout, `PM` and a 16-bit version,
/// included), a header cut short; a directory without entries breaks PM12 and is said so.
final class PMTilesDiagnosisTests: XCTestCase {
    func error(_ bytes: [UInt8]) -> PMTiles.Error? {
        guard let folder = try? TestPaths.newFolder("graticule-diagnosis") else {
            XCTFail("cannot make a folder under $TMPDIR")
            return nil
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/archive.pmtiles"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        do { _ = try PMTilesReader(path: path); return nil } catch { return error }
    }

    func testWhyAFileIsNotAVersion3Archive() {
        XCTAssertEqual(error([]), .empty)
        XCTAssertEqual(error(Array("This is not".utf8)), .notPMTiles)
        XCTAssertEqual(error([0x50, 0x4D, 2, 0] + [UInt8](repeating: 0, count: 60)), .unsupportedVersion(2))
        XCTAssertEqual(error([0x50, 0x4D, 1, 0] + [UInt8](repeating: 0, count: 10)), .unsupportedVersion(1))
        XCTAssertEqual(error(Array("PMTiles".utf8) + [4] + [UInt8](repeating: 0, count: 119)), .unsupportedVersion(4))
        XCTAssertEqual(error(Array("PMTiles".utf8) + [3] + [UInt8](repeating: 0, count: 52)), .truncated(section: "header", offset: 60))
        XCTAssertEqual(error(Array("PMTiles".utf8)), .truncated(section: "header", offset: 7))
        XCTAssertTrue(PMTiles.Error.truncated(section: "header", offset: 60).description.contains("60 of its 127 bytes"))
    }

    func testADirectoryWithoutEntriesBreaksPM12() {
        XCTAssertThrowsError(try PMTiles.decodeDirectory([0], base: 127)) { e in
            guard case .malformedDirectory(let why, 127, "PM12")? = e as? PMTiles.Error else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("no entries"), why)
            XCTAssertTrue("\(e)".contains("[PM12]"), "\(e)")
        }
    }
}
