import XCTest
import Foundation
import GPX
import GraticuleTestSupport

/// The GPX reader against the sample files of ../shared/corpora/gpx (expected counts and
/// first points from the table in its SOURCES.md, which were derived with another XML
/// parser), and malformed input.
final class GPXReaderTests: XCTestCase {
    static func gpxFolder() throws -> String {
        let p = TestPaths.shared("gpx")
        guard FileManager.default.fileExists(atPath: p) else { throw XCTSkip("gpx corpus not found") }
        return p
    }

    static func read(_ path: String) throws -> GPXDocument {
        try GPXReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func gpxFolder() throws -> String { try Self.gpxFolder() }
    func read(_ path: String) throws -> GPXDocument { try Self.read(path) }

    /// Every file listed in SOURCES.md's table (and present) reads to its stated counts.
    func testSamplesMatchTheSourcesTable() throws {
        let folder = try gpxFolder()
        let table = try String(contentsOfFile: folder + "/SOURCES.md", encoding: .utf8)
        var checked = 0
        for line in table.split(separator: "\n") where line.hasPrefix("| ") && line.contains(".gpx |") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 7, !cells[0].contains("→") else { continue }
            let path = folder + "/" + cells[0]
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let doc = try read(path)
            func ints(_ s: String) -> [Int] { s.split(separator: "/").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            XCTAssertEqual(doc.waypoints.count, Int(cells[2]), cells[0])
            XCTAssertEqual([doc.routes.count, doc.routes.map(\.count).reduce(0, +)], ints(cells[3]), cells[0])
            XCTAssertEqual([doc.tracks.count, doc.tracks.map(\.count).reduce(0, +), doc.tracks.flatMap { $0 }.map(\.count).reduce(0, +)],
                           ints(cells[4]), cells[0])
            func point(_ s: String) -> GPXDocument.Point? {
                let v = s.split(separator: ",").compactMap { Double($0) }
                return v.count == 2 ? GPXDocument.Point(latitude: v[0], longitude: v[1]) : nil
            }
            XCTAssertEqual(doc.tracks.flatMap { $0 }.flatMap { $0 }.first, point(cells[5]), cells[0])
            XCTAssertEqual(doc.routes.flatMap { $0 }.first, point(cells[6]), cells[0])
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    /// "The first track or route" is the first in the file's order with points: a route
    /// before a track is followed, as is a track before a route; empty ones are passed over.
    func testFirstTrackOrRouteInFileOrder() throws {
        let route = #"<rte><rtept lat="1" lon="2"><course>90</course></rtept><rtept lat="1.5" lon="2.5"/></rte>"#
        let track = #"<trk><trkseg><trkpt lat="10" lon="20"/></trkseg></trk>"#
        let routeFirst = try GPXReader.read(Array("<gpx>\(route)\(track)</gpx>".utf8))
        XCTAssertEqual(routeFirst.firstPathRef, .route(0))
        XCTAssertEqual(routeFirst.firstPath, [.init(latitude: 1, longitude: 2), .init(latitude: 1.5, longitude: 2.5)])
        XCTAssertEqual(routeFirst.firstPathCourses, [90, nil])
        let trackFirst = try GPXReader.read(Array("<gpx>\(track)\(route)</gpx>".utf8))
        XCTAssertEqual(trackFirst.firstPathRef, .track(0))
        XCTAssertEqual(trackFirst.firstPath, [.init(latitude: 10, longitude: 20)])
        let emptyFirst = try GPXReader.read(Array("<gpx><rte/><trk><trkseg/></trk>\(track)\(route)</gpx>".utf8))
        XCTAssertEqual(emptyFirst.order, [.route(0), .track(0), .track(1), .route(1)])
        XCTAssertEqual(emptyFirst.firstPathRef, .track(1))
        // A document built by hand, without an order: tracks first.
        var byHand = GPXDocument()
        byHand.routes = [[.init(latitude: 1, longitude: 1)]]
        byHand.routeCourses = [[nil]]
        byHand.tracks = [[[.init(latitude: 2, longitude: 2)]]]
        byHand.trackCourses = [[[nil]]]
        XCTAssertEqual(byHand.firstPathRef, .track(0))
    }

    func testFirstPathAndMalformedInput() throws {
        let fells = try read(try gpxFolder() + "/openlayers/fells_loop.gpx")
        XCTAssertEqual(fells.firstPath?.count, 46, "no track: the first route")
        let doc = try GPXReader.read(Array("""
            \u{FEFF}<?xml version="1.0"?><!-- a comment with <trkpt> inside --><!DOCTYPE gpx>
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:trk><g:trkseg/><g:trkseg>
            <g:trkpt lon='13.5' lat="46.25"><ele>10</ele><![CDATA[<trkpt lat="1" lon="1"/>]]></g:trkpt>
            <g:trkpt lat=" 46.5 " lon="13.75"/></g:trkseg></g:trk></g:gpx>
            """.utf8))
        XCTAssertEqual(doc.firstPath, [.init(latitude: 46.25, longitude: 13.5), .init(latitude: 46.5, longitude: 13.75)])
        func error(_ s: String) -> GPXError? {
            do { _ = try GPXReader.read(Array(s.utf8)); return nil } catch { return error }
        }
        XCTAssertEqual(error("<gpx><trk><trkseg><trkpt lat=\"1\"/></trkseg></trk></gpx>")?.reason, "point without a numeric lat and lon")
        let e = error("<gpx>\n  <trk>\n  </gpx>")
        XCTAssertEqual(e?.line, 3)
        XCTAssertEqual(e?.column, 3)
        XCTAssertEqual(e?.reason, "end tag </gpx> closes <trk>")
        XCTAssertNotNil(error("<gpx><wpt lat=\"91\" lon=\"0\"/></gpx>"))
        // latitudeType and longitudeType are xsd:decimal: hexadecimal, exponents, inf and nan
        // are refused, naming the attribute (Double(_:) would read 0x10 as 16).
        for bad in ["0x10", "1e1", "inf", "nan", "+", "", "1.2.3"] {
            XCTAssertEqual(error("<gpx><wpt lat=\"\(bad)\" lon=\"0\"/></gpx>")?.reason,
                           "point whose lat '\(bad)' is not a decimal number", bad)
        }
        XCTAssertEqual(error("<gpx><wpt lat=\"1\" lon=\"0X1P4\"/></gpx>")?.reason, "point whose lon '0X1P4' is not a decimal number")
        XCTAssertNil(error("<gpx><wpt lat=\" -12.5 \" lon=\"+.5\"/></gpx>"), "signs, a bare fraction and spaces around are decimals")
        XCTAssertNotNil(error("<gpx><!-- never closed </gpx>"))
        XCTAssertNotNil(error("<gpx><wpt lat=\"1\" lon=\"2\"></gpx>"))
        XCTAssertNotNil(error(""))
        // Every prefix of a sample either reads or fails with an offset inside it.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try gpxFolder() + "/gpxpy/track-with-empty-segment.gpx")))
        for cut in 0...bytes.count {
            do { _ = try GPXReader.read(Array(bytes[..<cut])) } catch { XCTAssertLessThanOrEqual(error.offset, cut) }
        }
    }

    /// A location's heading as GPX records it: GPX 1.0's `<course>` in degrees from true
    /// north (0 ≤ course < 360), or in a GPX 1.1 point's extensions a `course` (Garmin's
    /// TrackPointExtension), `heading` or `bearing` element; the point's own `<course>`
    /// wins over an extension, points without one have none.
    func testCoursesFromTheFileAndItsExtensions() throws {
        let doc = try GPXReader.read(Array("""
            <gpx xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><trk><trkseg>
            <trkpt lat="1" lon="2"><course> 12.5 </course></trkpt>
            <trkpt lat="1" lon="3"><extensions><gpxtpx:TrackPointExtension><gpxtpx:course>270</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="1" lon="4"/>
            <trkpt lat="1" lon="5"><extensions><heading>90</heading><bearing>10</bearing></extensions><course>45</course></trkpt>
            <trkpt lat="1" lon="6"><name>course</name><desc><course>99</course></desc></trkpt>
            </trkseg></trk><rte><rtept lat="0" lon="0"><course>0</course></rtept></rte></gpx>
            """.utf8))
        XCTAssertEqual(doc.firstPathCourses, [12.5, 270, nil, 45, nil])
        XCTAssertEqual(doc.trackCourses, [[[12.5, 270, nil, 45, nil]]])
        XCTAssertEqual(doc.routeCourses, [[0]])
        XCTAssertEqual(doc.firstPath?.count, 5)

        func error(_ s: String) -> GPXError? {
            do { _ = try GPXReader.read(Array(s.utf8)); return nil } catch { return error }
        }
        let notNumber = error("<gpx><rte><rtept lat=\"1\" lon=\"2\">\n<course>north</course></rtept></rte></gpx>")
        XCTAssertEqual(notNumber?.line, 2)
        XCTAssertEqual(notNumber?.column, 9)
        XCTAssertEqual(notNumber?.reason, "<course> of a point is not a decimal number of degrees: 'north'")
        XCTAssertEqual(error("<gpx><rte><rtept lat=\"1\" lon=\"2\"><course>0x10</course></rtept></rte></gpx>")?.reason,
                       "<course> of a point is not a decimal number of degrees: '0x10'", "xsd:decimal: no hexadecimal")
        XCTAssertNotNil(error("<gpx><rte><rtept lat=\"1\" lon=\"2\"><course>360</course></rtept></rte></gpx>"))
        XCTAssertNotNil(error("<gpx><rte><rtept lat=\"1\" lon=\"2\"><course>-1</course></rtept></rte></gpx>"))
        XCTAssertNotNil(error("<gpx><rte><rtept lat=\"1\" lon=\"2\"><course>nan</course></rtept></rte></gpx>"))
    }
}
