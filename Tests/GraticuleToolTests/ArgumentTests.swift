import XCTest
@testable import GraticuleTool

/// The command line reads what users type.
final class ArgumentTests: XCTestCase {
    /// West longitudes and counter-clockwise bearings are negative numbers; an option's value
    /// that starts with a minus sign is still its value, with or without `=`.
    func testNegativeCentreAndBearing() throws {
        for args in [["cover", "camera", "--center", "-123.1,49.2", "--zoom", "12", "--bearing", "-30"],
                     ["cover", "camera", "--center=-123.1,49.2", "--zoom", "12", "--bearing=-30"]] {
            let parsed = try GraticuleCommand.parseAsRoot(args)
            let camera = try XCTUnwrap(parsed as? CoverCommand.CameraCover, "\(args)")
            XCTAssertEqual(camera.center, "-123.1,49.2")
            XCTAssertEqual(camera.bearing, -30)
        }
    }
}
