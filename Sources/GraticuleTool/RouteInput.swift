import GraticuleSupport
import GeoJSON
import GeoModel
import GPX
import TileCover

/// The route `cover follow` and `tiles load --route` follow: a GPX file's first track or
/// route with points, or a GeoJSON line (`GeoObject.firstLine`: a LineString or
/// MultiLineString, as a geometry, a Feature, or the first line feature of a collection),
/// with the compass headings a GPX file records per point.
struct RouteInput {
    let points: [GeoPosition]
    /// The heading recorded with each point (nil where a point has none); nil for GeoJSON.
    let courses: [Double?]?

    /// Reads `file` as GeoJSON when its first byte (after white space and a byte order
    /// mark) is `{`, else as GPX; exit 2 naming the file when it holds no route.
    static func read(_ file: String) -> RouteInput {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file) } catch { fail("\(error)") }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
            let doc: GeoJSONDocument
            do { doc = try GeoJSONReader.read(bytes, options: GeoJSONReadOptions(strict: true)) } catch { fail("\(file): \(error)") }
            guard let line = doc.object.firstLine else {
                fail("\(file): no LineString or MultiLineString with positions (a geometry, a Feature, or a feature of a collection)")
            }
            return RouteInput(points: line, courses: nil)
        }
        let doc: GPXDocument
        do { doc = try GPXReader.read(bytes) } catch { fail("\(file): \(error)") }
        guard let path = doc.firstPath else { fail("\(file): no track or route points") }
        return RouteInput(points: path, courses: doc.firstPathCourses)
    }

    /// The compass heading at every route point: those of `headingsFile` (one per line,
    /// `CompassHeadings`), else those the GPX file records; exit 2 when neither gives one
    /// per point.
    func compassHeadings(_ headingsFile: String?, file: String) -> [Double] {
        if let headingsFile {
            let text: String
            do { text = try FileIO.readText(headingsFile) } catch { fail("\(error)") }
            do { return try CompassHeadings.parse(text) } catch {
                fail("\(headingsFile):\(error.line): not a heading in degrees: '\(error.text)'")
            }
        }
        guard let courses else {
            fail("--mode compass: \(file) is GeoJSON, which records no headings; give --headings FILE (one compass heading per route point)")
        }
        let missing = courses.filter { $0 == nil }.count
        guard missing == 0 else {
            fail("--mode compass: \(missing) of \(points.count) route points in \(file) have no <course> or extension heading; "
                 + "give --headings FILE (one compass heading per route point)")
        }
        return courses.map { $0! }
    }
}
