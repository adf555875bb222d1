import GraticuleTestSupport
import Foundation
import XCTest

/// The real-world tiles of the shared corpus (`../shared/corpora/mvt-fixtures/real-world`,
/// every area but `compressed`), in name order, each with its label `area/name`. Skips the
/// calling test when the corpus is not beside the repository.
func realWorldTiles() throws -> [(label: String, bytes: [UInt8])] {
    let root = URL(fileURLWithPath: TestPaths.shared("mvt-fixtures/real-world"))
    guard let areas = try? FileManager.default.contentsOfDirectory(atPath: root.path) else {
        throw XCTSkip("real-world tiles not found at \(root.path)")
    }
    var tiles: [(label: String, bytes: [UInt8])] = []
    for area in areas.sorted() where area != "compressed" {
        let dir = root.appendingPathComponent(area)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.sorted() ?? [] where name.hasSuffix(".mvt") {
            tiles.append(("\(area)/\(name)", try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))))
        }
    }
    return tiles
}
