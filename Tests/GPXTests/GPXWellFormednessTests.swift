import GPX
import XCTest

/// GPX is XML: its characters must be ones XML allows (XML 1.0 §2.2) in its encoding, and
/// an attribute appears once per start tag (§3.1). Each violation is an error at its byte;
/// once they were read as if nothing were wrong.
final class GPXWellFormednessTests: XCTestCase {
    let head = #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1"><trk><trkseg>"#
    let tail = "</trkseg></trk></gpx>"

    func error(_ bytes: [UInt8]) -> GPXError? {
        do { _ = try GPXReader.read(bytes); return nil } catch { return error }
    }

    func testCharactersAndAttributesXMLRefuses() throws {
        let good = Array((head + #"<trkpt lat="1" lon="2"/>"# + tail).utf8)
        XCTAssertNil(error(good))
        // Invalid UTF-8 in an attribute value, at its byte.
        var bad = Array((head + #"<trkpt lat="1" lon="2" name="Q"/>"# + tail).utf8)
        let x = bad.firstIndex(of: UInt8(ascii: "Q"))!
        bad[x] = 0xFF
        XCTAssertEqual(error(bad)?.offset, x)
        XCTAssertTrue(error(bad)?.reason.contains("invalid UTF-8") ?? false)
        // A UTF-8 sequence cut short.
        bad[x] = 0xE2
        XCTAssertEqual(error(bad)?.offset, x)
        // NUL in an attribute.
        bad[x] = 0
        XCTAssertEqual(error(bad)?.offset, x)
        XCTAssertTrue(error(bad)?.reason.contains("U+0000") ?? false, "\(String(describing: error(bad)))")
        // The same attribute twice.
        let twice = Array((head + #"<trkpt lat="1" lon="2" lat="3"/>"# + tail).utf8)
        let e = error(twice)
        XCTAssertTrue(e?.reason.contains("attribute lat is given twice in <trkpt>") ?? false, "\(String(describing: e))")
        XCTAssertEqual(e?.offset, twice.count - tail.utf8.count - #"lat="3"/>"#.utf8.count)
        // Prefixed names differ from unprefixed ones.
        XCTAssertNil(error(Array((head + #"<trkpt lat="1" lon="2" a:lat="3"/>"# + tail).utf8)))
    }

    func testEncodings() {
        // ISO-8859-1, declared: every byte is a character.
        var latin = Array((#"<?xml version="1.0" encoding="ISO-8859-1"?><gpx><trk><trkseg><trkpt lat="1" lon="2"><name>Q</name></trkpt>"#
                           + tail).utf8)
        latin[latin.firstIndex(of: UInt8(ascii: "Q"))!] = 0xE9
        XCTAssertNil(error(latin))
        XCTAssertTrue(error(Array(#"<?xml version="1.0" encoding="Shift_JIS"?><gpx/>"#.utf8))?.reason.contains("shift_jis is not supported") ?? false)
        XCTAssertTrue(error([0xFF, 0xFE, 0x3C, 0x00])?.reason.contains("UTF-16") ?? false)
    }
}
