import ConformanceData
import GraticuleTestSupport
import Foundation
import XCTest
@testable import Conformance

/// The rule catalogue, the registry, the project's own suites and the external protocol.
final class RulesAndRegistryTests: XCTestCase {
    var root: String {
        TestPaths.repositoryRoot
    }
    var shared: String { root + "/../shared" }

    func catalogue() throws -> [SpecRule] { try RuleCatalog.load(path: root + "/corpora/conformance/rules.tsv") }

    func testCatalogueParsesAndRejectsMalformedLines() throws {
        let rules = try catalogue()
        XCTAssertGreaterThan(rules.count, 100)
        XCTAssertEqual(Set(rules.map(\.id)).count, rules.count)
        XCTAssertThrowsError(try RuleCatalog.parse("id\tspec\tsection\tlevel\tsummary\nA1\tx\ty\n")) { e in
            XCTAssertEqual(e as? RuleCatalog.Error, .malformedLine(line: 2, text: "A1\tx\ty"))
        }
        XCTAssertThrowsError(try RuleCatalog.parse("A1\ta\tb\tc\td\nA1\ta\tb\tc\td\n")) { e in
            XCTAssertEqual(e as? RuleCatalog.Error, .duplicateID(line: 2, id: "A1"))
        }
    }

    /// Every rule id of the MVT/protobuf checklist's tables, and every numbered item of the
    /// tile-cover checklist's §6 and §4 conformance list, is in the catalogue (read from
    /// the spec files themselves when they are beside the repository).
    func testCatalogueHoldsEverySpecChecklistID() throws {
        let ids = Set(try catalogue().map(\.id))
        if let mvt = FileManager.default.contents(atPath: shared + "/specs/mvt-pbf.md") {
            var found = 0
            for line in String(decoding: mvt, as: UTF8.self).split(separator: "\n") where line.hasPrefix("| ") {
                let cell = line.dropFirst(2).prefix { $0 != " " && $0 != "|" }
                guard let first = cell.first, "ABCDP".contains(first), cell.dropFirst().allSatisfy(\.isNumber), cell.count > 1 else { continue }
                found += 1
                XCTAssertTrue(ids.contains(String(cell)), "mvt-pbf.md rule \(cell) is not in the catalogue")
            }
            XCTAssertGreaterThan(found, 50)
        }
        if let tc = FileManager.default.contents(atPath: shared + "/specs/tilecover.md") {
            let text = String(decoding: tc, as: UTF8.self)
            guard let s6 = text.range(of: "## 6.") else { return XCTFail("tilecover.md has no §6") }
            var n6 = 0
            for line in text[s6.upperBound...].split(separator: "\n") {
                let t = line.drop { $0 == " " }
                if line.first?.isNumber == true, let dot = t.firstIndex(of: "."), let n = Int(t[..<dot]) {
                    n6 += 1
                    XCTAssertTrue(ids.contains("TC-6.\(n)"), "tilecover.md §6 item \(n) is not in the catalogue")
                }
            }
            XCTAssertEqual(n6, 8)
            for n in 1...9 { XCTAssertTrue(ids.contains("TC-4.\(n)")) }
        }
    }

    /// No case of any registered suite cites a rule the catalogue lacks.
    func testEveryCitedRuleIsCatalogued() throws {
        let ids = Set(try catalogue().map(\.id))
        var checked = 0
        for e in ConformanceRegistry.entries {
            let dir: String
            switch e.folder {
            case .project(let n): dir = root + "/corpora/conformance/" + n
            case .shared(let n): dir = shared + "/corpora/" + n
            }
            guard FileManager.default.fileExists(atPath: dir) else { continue }
            for c in try e.make().loadCases(from: dir) {
                for id in c.rule.split(separator: "+") {
                    XCTAssertTrue(ids.contains(String(id)), "\(e.name)/\(c.id) cites \(id), not in the catalogue")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 70)
    }

    func testCoverageListsRulesWithoutCasesAndUnknownIDs() {
        let rules = [SpecRule(id: "R1", spec: "s", section: "1", level: "MUST", summary: ""),
                     SpecRule(id: "R2", spec: "s", section: "2", level: "MUST", summary: "")]
        let row = { (rule: String, v: VerdictRow.Verdict, impl: String) in
            VerdictRow(suite: "s", implementation: impl, caseID: "c", rule: rule, expected: "", actual: "", verdict: v, detail: "")
        }
        let (cov, unknown) = RuleCatalog.coverage(rules: rules, rows: [row("R1+R9", .pass, "graticule"), row("R1", .fail, "graticule"),
                                                                        row("R2", .pass, "other")])
        XCTAssertEqual(cov[0].pass, 1)
        XCTAssertEqual(cov[0].fail, 1)
        XCTAssertEqual(cov[1].cases, [], "another implementation's rows do not exercise a rule for graticule")
        XCTAssertEqual(unknown, ["R9"])
        XCTAssertTrue(RuleCatalog.csv(cov).contains("R2,s,2,MUST,0,0,0,,\n"))
    }

    func testProjectSuitesPass() throws {
        for (suite, impl, dir) in [(TileMathSuite() as ConformanceSuite, TileMathSuite.graticule, "tile-math"),
                                   (GeoJSONSeqSuite(), GeoJSONSeqSuite.graticule, "geojson-seq")] {
            let cases = try suite.loadCases(from: root + "/corpora/conformance/" + dir)
            XCTAssertGreaterThan(cases.count, 10)
            for r in ConformanceRunner.run(suite: suite.name, cases: cases, implementation: impl) where r.verdict == .fail {
                XCTFail("\(suite.name)/\(r.caseID): expected \(r.expected), got \(r.actual) \(r.detail)")
            }
        }
    }

    func testCaseTableUnescapes() {
        XCTAssertEqual(CaseTable.unescape(#"\x1e{}\n\\x"#), [0x1E, 0x7B, 0x7D, 0x0A, 0x5C, 0x78])
    }

    func testVerdictOnlyImplementationsAreMarked() {
        let c = ConformanceCase(id: "c", rule: "A1", input: [], expected: .accept(output: "layers"))
        let quiet = ConformanceImplementation(name: "q", comparesOutput: false) { _ in .accepted(output: nil) }
        let full = ConformanceImplementation(name: "f") { _ in .accepted(output: nil) }
        let rows = ConformanceRunner.run(suite: "s", cases: [c], implementation: quiet)
            + ConformanceRunner.run(suite: "s", cases: [c], implementation: full)
        XCTAssertEqual(rows.map(\.verdict), [.pass, .fail])
        let t = ConformanceTally.tally(rows)
        XCTAssertEqual(t.map(\.verdictOnly), [true, false])
        XCTAssertEqual(ConformanceTally.parse(csv: ConformanceTally.csv(t)), t)
    }

    /// The external protocol against a small program: accept, output, reject, unsupported,
    /// and a program that dies mid-run.
    func testExternalProtocol() throws {
        let script = NSTemporaryDirectory() + "graticule-conform-test-\(getpid()).py"
        try """
        import base64, sys
        print("# comment lines are ignored"); print("ready", flush=True)
        for line in sys.stdin:
            p = line.split(" ", 3)
            if p[0].strip() == "quit": break
            data = open(p[3].rstrip("\\n"), "rb").read()
            if data == b"a": print("accept", flush=True)
            elif data == b"o": print("output " + base64.b64encode(b"two\\nlines").decode(), flush=True)
            elif data == b"e": print("output ", flush=True)
            elif data == b"u": print("unsupported no such thing", flush=True)
            elif data == b"x": sys.exit(3)
            else: print("reject fatal bad input here", flush=True)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let m = ExternalConformanceManifest(name: "py", command: ["python3", script], suites: ["s"], outputs: true, requires: "")
        let p = try ExternalConformanceProgram(manifest: m)
        func run(_ s: String) -> Outcome { p.run(suite: "s", ConformanceCase(id: "id with spaces", rule: "R", input: Array(s.utf8), expected: .either)) }
        XCTAssertEqual(run("a"), .accepted(output: nil))
        XCTAssertEqual(run("o"), .accepted(output: "two\nlines"))
        XCTAssertEqual(run("e"), .accepted(output: ""))
        XCTAssertEqual(run("u"), .noVerdict(.unsupported, detail: "no such thing"))
        XCTAssertEqual(run("zz"), .rejected(errorClass: "fatal", detail: "bad input here"))
        guard case .noVerdict(.crash, _) = run("x") else { return XCTFail("a dead program must fail the case") }
        XCTAssertEqual(run("a"), .accepted(output: nil), "the program is started again for the next case")
        p.finish()
    }

    func testManifestsInTheRepositoryLoad() throws {
        for n in ["conform-json", "conform-orjson", "conform-mapbox-vector-tile", "conform-mercantile", "tile-cover-js"] {
            let m = try ExternalConformanceManifest.load(path: root + "/Benchmarks/Adapters/\(n).json")
            XCTAssertFalse(m.suites.isEmpty)
            XCTAssertTrue(m.suites.allSatisfy { ConformanceRegistry.names.contains($0) }, "\(n): unknown suite")
        }
        XCTAssertThrowsError(try ExternalConformanceManifest.load(path: "/nonexistent.json"))
    }
}

/// Graticule's own suites and rule catalogue are found without the working folder's help.
final class ConformanceDataTests: XCTestCase {
    /// The located folder is a copy of corpora/conformance (the resource bundle beside the
    /// test binary), byte for byte, and is not found through the working folder.
    func testBundledDataEqualsTheSources() throws {
        let folder = try XCTUnwrap(ConformanceData.folder, ConformanceData.missingFolder)
        XCTAssertTrue(folder.hasPrefix("/"), folder)
        let source = TestPaths.repositoryRoot + "/corpora/conformance"
        for file in ["rules.tsv", "pbf-varint/cases.tsv", "geojson-seq/cases.tsv", "tile-math/cases.tsv", "pmtiles/cases.tsv"] {
            let bundled = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/" + file), "\(folder)/\(file)")
            XCTAssertEqual(bundled, FileManager.default.contents(atPath: source + "/" + file), file)
        }
        XCTAssertEqual(RuleCatalog.defaultPath, folder + "/rules.tsv")
        XCTAssertGreaterThanOrEqual(try RuleCatalog.load(path: RuleCatalog.defaultPath).count, 114)
        for e in ConformanceRegistry.entries {
            guard case .project(let n) = e.folder else { continue }
            XCTAssertEqual(e.path(corpora: "/nowhere"), folder + "/" + n)
            XCTAssertFalse(try e.make().loadCases(from: e.path(corpora: "/nowhere")).isEmpty, n)
        }
    }
}
