import Foundation
import GraticuleSupport
import GraticuleTestSupport
import XCTest

/// A manifest's requirements: read strictly, probed without hanging, reported with the
/// command that installs what is missing.
final class RequirementTests: XCTestCase {
    func testProbesDecideWhetherANeedIsMet() {
        XCTAssertTrue(Requirement(need: "true", probe: ["true"], install: "-").isMet())
        XCTAssertFalse(Requirement(need: "false", probe: ["false"], install: "-").isMet())
        XCTAssertFalse(Requirement(need: "absent", probe: ["graticule-no-such-program-\(getpid())"], install: "-").isMet())
        let start = Date()
        XCTAssertFalse(Requirement(need: "hangs", probe: ["sleep", "30"], install: "-").isMet(timeout: 0.3))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "a probe that hangs is stopped at its timeout")
        XCTAssertEqual(Requirement(need: "orjson (Python)", probe: ["false"], install: "python3 -m pip install orjson==3.8.3")
                        .missingLine(for: "python.orjson"),
                       "python.orjson: missing orjson (Python); install it with: python3 -m pip install orjson==3.8.3")
    }

    func testManifestsListRequirementsStrictly() throws {
        let dir = try TestPaths.newFolder("graticule-requirements")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func read(_ json: String) throws -> [Requirement] {
            try json.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
            return try Requirement.list(in: try StrictJSONObject(path: dir + "/m.json"))
        }
        XCTAssertEqual(try read(#"{"requirements": [{"need": "n", "probe": ["true"], "install": "apt-get install -y n"}]}"#),
                       [Requirement(need: "n", probe: ["true"], install: "apt-get install -y n")])
        XCTAssertEqual(try read("{}"), [])
        XCTAssertThrowsError(try read(#"{"requirements": [{"need": "n", "probe": [], "install": "i"}]}"#)) { e in
            XCTAssertTrue("\(e)".contains("requirements[0].probe"), "\(e)")
        }
        XCTAssertThrowsError(try read(#"{"requirements": [{"need": "n", "probe": ["true"], "install": "i", "url": "x"}]}"#)) { e in
            XCTAssertTrue("\(e)".contains("unknown key 'requirements[0].url'"), "\(e)")
        }
        XCTAssertThrowsError(try read(#"{"requirements": [{"need": "n", "probe": ["true"]}]}"#)) { e in
            XCTAssertTrue("\(e)".contains("install"), "\(e)")
        }
    }

    /// `workingDirectory` is relative to the manifest file, and must be a folder; probes run
    /// there.
    func testWorkingDirectoryIsRelativeToTheManifest() throws {
        let dir = try TestPaths.newFolder("graticule-wd")
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"workingDirectory": ".."}"#.write(toFile: dir + "/a/b/m.json", atomically: true, encoding: .utf8)
        let wd = try StrictJSONObject(path: dir + "/a/b/m.json").workingDirectory()
        XCTAssertEqual(wd, URL(fileURLWithPath: dir + "/a").standardizedFileURL.path)
        try #"{"workingDirectory": "missing"}"#.write(toFile: dir + "/a/b/m.json", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try StrictJSONObject(path: dir + "/a/b/m.json").workingDirectory()) { e in
            XCTAssertTrue("\(e)".contains("'workingDirectory': no folder"), "\(e)")
        }
        try Data().write(to: URL(fileURLWithPath: dir + "/a/marker"))
        XCTAssertTrue(Requirement(need: "marker", probe: ["test", "-f", "marker"], install: "-").isMet(in: dir + "/a"))
        XCTAssertFalse(Requirement(need: "marker", probe: ["test", "-f", "marker"], install: "-").isMet(in: dir + "/a/b"))
    }
}
