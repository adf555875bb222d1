import XCTest
import Foundation

extension XCTestCase {
    /// A path named `name` in a folder of its own, removed when the test ends.
    func temporaryPath(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "graticule-profile-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir + "/" + name
    }
}
