import ConformanceData
import Foundation
import GraticuleTestSupport
import TileArchive
import XCTest
@testable import Conformance

/// The `pmtiles` suite: its crafted archives are what `make.py` writes, every rule of the
/// PMTiles checklist has a case that can fail, and `verify` gives every case its verdict.
final class PMTilesSuiteTests: XCTestCase {
    var root: String { TestPaths.repositoryRoot }
    var folder: String { root + "/corpora/conformance/pmtiles" }

    func cases() throws -> [ConformanceCase] {
        try PMTilesSuite(corpora: root + "/../shared/corpora").loadCases(from: folder)
    }

    func testEveryCasePassesUnderVerify() throws {
        let cs = try cases()
        XCTAssertGreaterThanOrEqual(cs.count, 55)
        for r in ConformanceRunner.run(suite: "pmtiles", cases: cs, implementation: PMTilesSuite.graticule) where r.verdict == .fail {
            XCTFail("pmtiles/\(r.caseID): expected \(r.expected), got \(r.actual) \(r.detail)")
        }
    }

    /// Every PM rule of the checklist (read from the spec file when it is beside the
    /// repository, else from the catalogue) is in the catalogue and is cited by a case that
    /// expects a finding, a note or a refusal for it, so a reader that ignores the rule fails.
    func testEveryRuleHasACaseThatCanFail() throws {
        let catalogue = Set(try RuleCatalog.load(path: root + "/corpora/conformance/rules.tsv").map(\.id))
        var ids = catalogue.filter { $0.hasPrefix("PM") && Int($0.dropFirst(2)) != nil }
        if let spec = FileManager.default.contents(atPath: root + "/../shared/specs/pmtiles.md") {
            let fromSpec = String(decoding: spec, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| PM") else { return nil }
                return String(line.dropFirst(2).prefix { $0 != " " })
            }
            XCTAssertEqual(fromSpec.count, 21)
            for id in fromSpec { XCTAssertTrue(catalogue.contains(id), "\(id) is not in rules.tsv") }
            ids = Set(fromSpec)
        }
        XCTAssertEqual(ids.count, 21)
        var failable = Set<String>()
        for c in try cases() {
            switch c.expected {
            case .reject(let cls?):
                failable.formUnion(cls.split(separator: ":").last!.split(separator: "+").map(String.init))
            case .accept(let out?) where out.hasPrefix("notes:"):
                failable.formUnion(out.dropFirst(6).split(separator: "+").map(String.init))
            default:
                break
            }
        }
        // PM5 (full-width offsets) fails as PM3 (a section past the file) when read at 32 bits.
        failable.insert("PM5")
        XCTAssertEqual(ids.subtracting(failable), [], "rules no case can fail")
    }

    /// make.py, run again, writes exactly the committed archives and table.
    func testCraftedArchivesAreWhatTheScriptWrites() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", folder + "/make.py", "--check"]
        let out = Pipe()
        p.standardOutput = out
        do { try p.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, text)
    }

    /// Damaged archives (every crafted one with bytes changed at random) get a verdict,
    /// never a trap or a hang.
    func testDamagedArchivesGetAVerdict() throws {
        var rng = SystemRandomNumberGenerator()
        var verdicts = 0
        for c in try cases() where !c.input.isEmpty {
            for _ in 0..<20 {
                var m = c.input
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    m[Int.random(in: 0..<m.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
                if case .noVerdict(let f, let d) = PMTilesSuite.graticule.run(ConformanceCase(id: c.id, rule: c.rule, input: m, expected: .either)) {
                    XCTFail("\(c.id): \(f) \(d)")
                }
                verdicts += 1
            }
        }
        XCTAssertGreaterThan(verdicts, 1000)
    }

    func testFindingsCarryRuleSectionAndOffset() throws {
        let path = folder + "/crafted/addressed-107-of-108.pmtiles"
        let f = try PMTilesReader(path: path).verify()
        XCTAssertEqual(f, [PMTiles.Finding(rule: "PM6", offset: 72, message: "the header says 4 addressed tiles, the directories address 5")])
        XCTAssertEqual(f[0].description, "[PM6 §3 header] byte 72: the header says 4 addressed tiles, the directories address 5")
        let meta = try PMTilesReader(path: folder + "/crafted/metadata-in-header.pmtiles").verify()
        XCTAssertEqual(meta.map(\.rule), ["PM3", "PM18"])
        XCTAssertEqual(meta.first?.offset, 20)
    }
}
