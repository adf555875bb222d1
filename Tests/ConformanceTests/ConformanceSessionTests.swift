import XCTest
import Conformance
import GraticuleTestSupport

/// How a conform run picks its suites and implementations.
final class ConformanceSessionTests: XCTestCase {
    func impl(_ name: String) -> (String, () -> ConformanceImplementation) {
        (name, { ConformanceImplementation(name: name, comparesOutput: false) { _ in .accepted(output: nil) } })
    }

    func testSuiteSelection() throws {
        let named = try ConformanceSession.suites(named: "pbf-varint", folder: "/x", corpora: "/nowhere", missing: "")
        XCTAssertEqual(named.selected.map(\.folder), ["/x"])
        XCTAssertThrowsError(try ConformanceSession.suites(named: "nope", folder: nil, corpora: "/nowhere", missing: "")) {
            XCTAssertTrue("\($0)".hasPrefix("unknown suite 'nope'; known: "))
        }
        XCTAssertThrowsError(try ConformanceSession.suites(named: nil, folder: "/x", corpora: "/nowhere", missing: "")) {
            XCTAssertEqual("\($0)", "--path needs --suite")
        }
        // With no name: the suites whose folders exist run (the project's own are found as
        // resources wherever the shared corpora are), the others are skipped by name.
        let empty = try TestPaths.newFolder("no-corpora")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let all = try ConformanceSession.suites(named: nil, folder: nil, corpora: empty, missing: "get them")
        XCTAssertTrue(all.selected.map(\.entry.name).contains("pbf-varint"))
        XCTAssertTrue(all.skipped.contains("mvt-fixtures"))
        XCTAssertEqual(Set(all.selected.map(\.entry.name)).union(all.skipped), Set(ConformanceRegistry.names))
    }

    func testImplementationChoice() throws {
        let available = [impl("graticule"), impl("foundation"), impl("swift-protobuf")]
        func names(_ wanted: [String], strict: Bool = true, external: Set<String> = []) throws -> [String] {
            try ConformanceSession.implementations(for: "s", wanted: wanted, available: available, externalNames: external,
                                                   strict: strict).map(\.name)
        }
        XCTAssertEqual(try names(["graticule"]), ["graticule"])
        XCTAssertEqual(try names(["all"]), ["graticule", "foundation", "swift-protobuf"])
        XCTAssertEqual(try names(["foundation", "all", "foundation"]), ["foundation", "graticule", "swift-protobuf"], "once each")
        XCTAssertEqual(try names(["graticule", "mine"], external: ["mine"]), ["graticule"], "an external program answers for itself")
        XCTAssertEqual(try names(["graticule", "other"], strict: false), ["graticule"], "skipped where a suite lacks it")
        XCTAssertThrowsError(try names(["other"])) {
            XCTAssertEqual("\($0)", "suite 's' has no implementation 'other'; it has: graticule, foundation, swift-protobuf")
        }
    }
}
