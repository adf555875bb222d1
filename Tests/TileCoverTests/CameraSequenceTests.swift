import GeoModel
import TileCover
import XCTest

/// Camera lists as CSV files arrive: LF or CRLF line ends, a byte order mark, quoted header
/// names and fields (RFC 4180), all read as the plain file is; a value or a quote that
/// cannot be read is named with its line (and column).
final class CameraSequenceTests: XCTestCase {
    let template = Camera(longitude: 0, latitude: 0, zoom: 10, width: 400, height: 300)

    func parse(_ csv: String) throws -> [Camera] { try CameraSequence.parse(csv: csv, template: template) }

    func testLineEndsMarksAndQuotesReadAlike() throws {
        let plain = "longitude,latitude,zoom,bearing\n14.5,46.05,15,90\n-0.5,51.5,12.5,0\n"
        let want = try parse(plain)
        XCTAssertEqual(want.count, 2)
        XCTAssertEqual(want[1].zoom, 12.5)
        XCTAssertEqual(want[0].bearing, 90)
        for variant in [plain.replacingOccurrences(of: "\n", with: "\r\n"),
                        "\u{FEFF}" + plain,
                        "\u{FEFF}" + plain.replacingOccurrences(of: "\n", with: "\r\n"),
                        "\"longitude\",\"latitude\",\"zoom\",\"bearing\"\n\"14.5\",46.05,15,\"90\"\n-0.5,51.5,\"12.5\",0",
                        plain.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"] {
            XCTAssertEqual(try parse(variant), want, variant.debugDescription)
            XCTAssertEqual(try CameraSequence.columns(csv: variant), ["longitude", "latitude", "zoom", "bearing"])
        }
    }

    func testWhatCannotBeReadIsNamed() {
        func reason(_ csv: String) -> String? {
            do { _ = try parse(csv); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(reason("longitude,latitude\n0x10,0\n"), "line 2: longitude '0x10' is not a number")
        XCTAssertEqual(reason("longitude,latitude\r\n1,nan\r\n"), "line 2: latitude 'nan' is not a number")
        XCTAssertEqual(reason("\"longitude,latitude\n1,2\n"), "line 1: the quote at column 1 is not closed")
        XCTAssertEqual(reason("longitude,latitude\n\"1\"x,2\n"), "line 2: 'x' at column 4 follows a closing quote; a comma was expected")
        XCTAssertEqual(reason("lon,lat\n1,2\n"),
                       "line 1: the header needs a longitude (or center_longitude) and a latitude (or center_latitude) column")
    }
}
