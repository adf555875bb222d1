import XCTest
import TileCover

/// A layer run over cameras: totals are the sums of the updates, a clear makes every tile
/// load again, "no tile" is not asked twice, and a source that fails stops the run naming
/// the update.
final class TileLayerSimulationTests: XCTestCase {
    let camera = Camera(longitude: 13.4, latitude: 52.5, zoom: 8, width: 800, height: 600)

    func testTotalsClearsAndAnswers() throws {
        let cameras = [camera, camera, camera, camera]
        let inView = try CameraCoverage.tiles(for: camera).count
        var asked: [Int] = []
        let run = try TileLayerSimulation(cameras: cameras, options: .init(), capacity: .init(), clearAt: [2]) { t, k in
            asked.append(k)
            return t.x % 2 == 0 ? .tile(bytes: 100) : .noTile
        }
        XCTAssertEqual(run.updates.count, 4)
        XCTAssertEqual(run.clears, 1)
        XCTAssertEqual(run.updates.map(\.requested), [inView, 0, inView, 0], "the clear at 2 forgets the cache and the no-tile answers")
        XCTAssertEqual(run.total.requested, 2 * inView)
        XCTAssertEqual(run.total.inView, 4 * inView)
        XCTAssertEqual(run.total.loaded + run.total.noTile, run.total.requested)
        XCTAssertEqual(run.total.loadedBytes, run.total.loaded * 100)
        XCTAssertEqual(Set(asked), [0, 2])
        let lines = run.csv.split(separator: "\n")
        XCTAssertEqual(String(lines[0]), TileLayerSimulation.csvHeader)
        XCTAssertEqual(lines.count, 5)
        XCTAssertTrue(lines[3].hasPrefix("2,true,\(inView),0,\(inView),"), String(lines[3]))
        XCTAssertTrue(run.totalLines[1].hasPrefix("requested: \(2 * inView) = loaded "))
    }

    func testFailuresNameTheUpdate() {
        struct Broken: Error {}
        XCTAssertThrowsError(try TileLayerSimulation(cameras: [camera, camera], options: .init(), capacity: .init(), clearAt: [1]) { _, k in
            if k == 1 { throw Broken() }
            return .noTile
        }) { e in
            guard case .source(let k, _)? = e as? TileLayerSimulation.Failure else { return XCTFail("\(e)") }
            XCTAssertEqual(k, 1)
        }
        var bad = camera
        bad.pitch = 89
        XCTAssertThrowsError(try TileLayerSimulation(cameras: [camera, bad], options: .init(), capacity: .init()) { _, _ in .noTile }) { e in
            guard case .camera(let k, _)? = e as? TileLayerSimulation.Failure else { return XCTFail("\(e)") }
            XCTAssertEqual(k, 1)
        }
    }
}
