import CorpusGenerators
import Foundation
import GPX
import XCTest

/// `corpus generate gpx --courses`: the same positions as without, and each point's course
/// is the bearing of its next step on the ground (checked against bearings computed here
/// from the positions the file holds).
final class GeneratedCoursesTests: XCTestCase {
    func testCoursesAreTheBearingsOfTheNextStep() throws {
        let plain = try GPXReader.read(GPXTrackGenerator.generate(points: 500, seed: 3).bytes)
        let withCourses = try GPXReader.read(GPXTrackGenerator.generate(points: 500, seed: 3, courses: true).bytes)
        XCTAssertEqual(plain.tracks, withCourses.tracks)
        let points = try XCTUnwrap(withCourses.firstPath)
        let courses = try XCTUnwrap(withCourses.firstPathCourses)
        XCTAssertEqual(points.count, 500)
        XCTAssertEqual(courses.compactMap { $0 }.count, 500)
        var worst = 0.0
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let east = (b.longitude - a.longitude) * cos(a.latitude * .pi / 180)
            let north = b.latitude - a.latitude
            var bearing = atan2(east, north) * 180 / .pi
            if bearing < 0 { bearing += 360 }
            let course = try XCTUnwrap(courses[i])
            XCTAssertTrue(course >= 0 && course < 360, "\(course)")
            var d = abs(bearing - course)
            d = min(d, 360 - d)
            worst = max(worst, d)
        }
        // Positions are written to 1e-6 degrees over steps of 1e-4 to 3e-4: about 1° at most.
        XCTAssertLessThan(worst, 1.5)
    }

    /// The generator's own atan2 (no libm, the same bits everywhere) agrees with the
    /// platform's to 1e-14 over the circle.
    func testSeriesAtan2() {
        for i in 0..<720 {
            let t = Double(i) * .pi / 360 - .pi + 1e-9
            let y = sin(t) * 3, x = cos(t) * 3
            XCTAssertEqual(SeriesTrig.atan2(y, x), atan2(y, x), accuracy: 1e-14, "\(t)")
        }
        XCTAssertEqual(SeriesTrig.atan2(0, -1), .pi, accuracy: 1e-15)
        XCTAssertEqual(SeriesTrig.atan2(1, 0), .pi / 2)
    }
}
