import GraticuleTestSupport
import XCTest

extension XCTestCase {
    /// A new folder of this test's own under `$TMPDIR`, made now and removed when the test
    /// ends (``TestPaths/newFolder(_:)``).
    func newFolder(_ prefix: String) throws -> String {
        let dir = try TestPaths.newFolder(prefix)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}
