import XCTest
import Foundation
import GraticuleTestSupport

/// The module map is `Package.swift`, read through `swift package dump-package`: every
/// target's Swift sources import only the targets and products it depends on there (plus
/// the platform), the cores import no Foundation (their hot loops read borrowed bytes), and
/// `Sources/README.md` and the DocC landing page list the modules the manifest declares.
/// A new import that crosses a boundary fails here before it spreads.
final class ModuleImportTests: XCTestCase {
    /// The platform modules any target may import.
    static let platform: Set<String> = ["Glibc", "Darwin", "Dispatch", "Foundation", "FoundationXML", "FoundationNetworking"]
    /// The platform modules a core must not import: Foundation and its parts (XML,
    /// networking) bring allocation and bridging into hot loops that read borrowed bytes.
    static let foundationModules: Set<String> = ["Foundation", "FoundationXML", "FoundationNetworking", "FoundationEssentials"]
    /// The layers of the module map, lowest first: a target depends only on its own layer or
    /// lower ones, so a core never reaches for the suite, and nothing but the executable for
    /// the command line. A new target must be placed here.
    static let layers: [Set<String>] = [
        ["CJSONSkip", "CVarintBlock", "CSQLite", "CZlib", "CBrotli", "CZstd"],
        ["PBF", "GeoModel", "JSON", "GeoJSON", "VectorTile", "TileCover", "GPX", "SourceDiff", "SourceDiffJSON", "TileArchive"],
        ["GraticuleSupport", "BenchKit", "DatasetProfile", "Conformance", "ConformanceData", "CorpusGenerators", "Workloads",
         "SwiftProtobufPeer"],
        ["GraticuleTool"],
        ["graticule"],
    ]
    /// Modules whose sources must not import Foundation.
    static let foundationFree: Set<String> = ["PBF", "GeoModel", "JSON", "GeoJSON", "VectorTile", "TileCover", "GPX", "SourceDiff",
                                              "SourceDiffJSON", "TileArchive"]

    /// One target of the manifest: its name, kind, source folder and the modules it may import.
    struct Target {
        var name: String
        var type: String
        var folder: String
        var dependencies: Set<String>
    }

    /// The manifest's targets, read once per test run.
    nonisolated(unsafe) static var cachedManifest: [Target]?

    /// Reads `Package.swift` with `swift package dump-package` (in a scratch folder of its
    /// own, so it never waits on the build's lock).
    static func manifest() throws -> [Target] {
        if let cachedManifest { return cachedManifest }
        let scratch = try TestPaths.newFolder("dump-package")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", TestPaths.repositoryRoot,
                             "--scratch-path", scratch + "/build", "dump-package"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let targets = json["targets"] as? [[String: Any]] else {
            throw ManifestError(reason: "swift package dump-package exited \(process.terminationStatus)")
        }
        let parsed = try targets.map { t -> Target in
            guard let name = t["name"] as? String, let type = t["type"] as? String else {
                throw ManifestError(reason: "a target without a name or type")
            }
            let folder = t["path"] as? String ?? (type == "test" ? "Tests/" : "Sources/") + name
            var deps: Set<String> = []
            for d in t["dependencies"] as? [[String: Any]] ?? [] {
                for key in ["byName", "target", "product"] {
                    if let first = (d[key] as? [Any])?.first as? String { deps.insert(first) }
                }
            }
            return Target(name: name, type: type, folder: folder, dependencies: deps)
        }
        cachedManifest = parsed
        return parsed
    }

    struct ManifestError: Error, CustomStringConvertible {
        var reason: String
        var description: String { "cannot read Package.swift: \(reason)" }
    }

    /// The modules a Swift file imports (`import X`, with or without indentation, an access
    /// level or attributes; `import struct X.Y` and submodule paths count as their module).
    /// Lines inside multi-line string literals (a Python program a test writes) are not code.
    static func imports(of text: String) -> [String] {
        var inLiteral = false
        return text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let delimiters = line.components(separatedBy: "\"\"\"").count - 1
            defer { if delimiters % 2 == 1 { inLiteral.toggle() } }
            guard !inLiteral else { return nil }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let w = words.first, w.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(w) {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            let kinds = ["struct", "class", "enum", "func", "var", "let", "protocol", "typealias"]
            let name = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            return String(name.split(separator: ".")[0].split(separator: ";")[0])
        }
    }

    static func swiftFiles(_ folder: String) -> [String] {
        let root = TestPaths.repositoryRoot + "/" + folder
        let e = FileManager.default.enumerator(atPath: root)
        var out: [String] = []
        while let f = e?.nextObject() as? String {
            // A nested package (an example) is its own manifest's business.
            if f.contains("/.build/") || f.hasPrefix(".build/") { continue }
            if f.hasSuffix(".swift") { out.append(root + "/" + f) }
        }
        return out.sorted()
    }

    /// What a target's sources import that the manifest does not let them: one line per
    /// violation (empty when the target keeps to the map).
    static func violations(of target: Target, files: [(path: String, text: String)]) -> [String] {
        var out: [String] = []
        let allowed = target.dependencies.union(platform).union(target.type == "test" ? ["XCTest"] : [])
        for (path, text) in files {
            for m in imports(of: text) {
                if foundationFree.contains(target.name) && foundationModules.contains(m) {
                    out.append("\(path): \(target.name) is a core and must not import \(m)")
                } else if !allowed.contains(m) {
                    out.append("\(path): \(target.name) may not import \(m) (Package.swift gives it: \(target.dependencies.sorted()))")
                }
            }
        }
        return out
    }

    func testEveryTargetImportsOnlyWhatTheManifestAllows() throws {
        var files = 0
        for target in try Self.manifest() where target.type != "system" {
            let paths = Self.swiftFiles(target.folder)
            let texts = try paths.map { (path: $0, text: try String(contentsOfFile: $0, encoding: .utf8)) }
            files += texts.count
            for v in Self.violations(of: target, files: texts) { XCTFail(v) }
        }
        XCTAssertGreaterThan(files, 150, "too few Swift files read; is the manifest's layout understood?")
    }

    /// The manifest keeps to the layers: every non-test target is in one, and depends only on
    /// targets of its layer or lower ones (products of other packages aside). The cores are
    /// exactly the Foundation-free modules.
    func testTargetsKeepToTheLayers() throws {
        func layer(_ name: String) -> Int? { Self.layers.firstIndex { $0.contains(name) } }
        let targets = try Self.manifest()
        let names = Set(targets.map(\.name))
        var checked = 0
        for t in targets where t.type != "test" && !t.folder.hasPrefix("Tests/") {
            guard let mine = layer(t.name) else { XCTFail("\(t.name) is in no layer of ModuleImportTests.layers"); continue }
            for d in t.dependencies where names.contains(d) {
                guard let theirs = layer(d) else { continue }
                XCTAssertLessThanOrEqual(theirs, mine, "\(t.name) (layer \(mine)) depends on \(d) (layer \(theirs))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 40)
        XCTAssertEqual(Self.layers[1], Self.foundationFree, "the cores are the Foundation-free modules")
    }

    func testTheLayerRuleCanFail() {
        let core = Target(name: "GeoJSON", type: "regular", folder: "Sources/GeoJSON", dependencies: ["JSON"])
        XCTAssertEqual(Self.violations(of: core, files: [("a.swift", "import FoundationXML\n")]).count, 1)
        XCTAssertEqual(Self.violations(of: core, files: [("a.swift", "import JSON\n")]).count, 0)
    }

    /// Every folder under Sources/ is a target's, so a new module has to be placed in the map;
    /// a target without Swift sources is a C target (a module map or headers under include/).
    func testEverySourceFolderIsATarget() throws {
        let targets = try Self.manifest()
        let folders = Set(targets.map(\.folder))
        let fm = FileManager.default
        var checked = 0
        for f in try fm.contentsOfDirectory(atPath: TestPaths.repositoryRoot + "/Sources") where !f.hasPrefix(".") {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: TestPaths.repositoryRoot + "/Sources/" + f, isDirectory: &isDir), isDir.boolValue else {
                continue  // README.md, CHANGELOG.md
            }
            XCTAssertTrue(folders.contains("Sources/" + f), "Sources/\(f) is no target's folder in Package.swift")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 20)
        for t in targets where Self.swiftFiles(t.folder).isEmpty {
            let root = TestPaths.repositoryRoot + "/" + t.folder
            XCTAssertTrue(fm.fileExists(atPath: root + "/module.modulemap") || fm.fileExists(atPath: root + "/include"),
                          "\(t.name) has neither Swift sources nor C headers in \(t.folder)")
        }
    }

    /// The Swift modules a reader meets: every library and executable target with Swift
    /// sources, except test helpers.
    static func documentedModules() throws -> Set<String> {
        Set(try manifest().filter { ($0.type == "regular" || $0.type == "executable") && !$0.folder.hasPrefix("Tests/")
            && !swiftFiles($0.folder).isEmpty }.map(\.name))
    }

    /// The first column's code spans of the module table in `Sources/README.md`.
    static func readmeModules(_ text: String) -> Set<String> {
        var out: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(3)
            if let end = cell.firstIndex(of: "`") { out.insert(String(cell[..<end])) }
        }
        return out
    }

    /// The modules the DocC landing page lists under its `## Modules` heading (`` `Name` ``
    /// at the start of each item).
    static func landingPageModules(_ text: String) -> Set<String> {
        guard let start = text.range(of: "\n## Modules\n") else { return [] }
        var out: Set<String> = []
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("- `") else { continue }
            let item = line.dropFirst(3)
            if let end = item.firstIndex(of: "`") { out.insert(String(item[..<end])) }
        }
        return out
    }

    func testTheModuleListsAgreeWithTheManifest() throws {
        let modules = try Self.documentedModules()
        XCTAssertGreaterThanOrEqual(modules.count, 18)
        let readme = Self.readmeModules(try String(contentsOfFile: TestPaths.repositoryRoot + "/Sources/README.md", encoding: .utf8))
        XCTAssertEqual(readme.subtracting(modules).sorted(), [], "Sources/README.md lists modules Package.swift does not declare")
        XCTAssertEqual(modules.subtracting(readme).sorted(), [], "Sources/README.md misses modules of Package.swift")
        let landing = Self.landingPageModules(try String(
            contentsOfFile: TestPaths.repositoryRoot + "/Sources/GraticuleTool/GraticuleTool.docc/GraticuleTool.md", encoding: .utf8))
        XCTAssertEqual(landing.subtracting(modules).sorted(), [], "the DocC landing page lists modules Package.swift does not declare")
        XCTAssertEqual(modules.subtracting(landing).sorted(), [], "the DocC landing page misses modules of Package.swift")
    }

    func testTheImportReaderReadsEveryForm() {
        XCTAssertEqual(Self.imports(of: "import A\n@testable import B\npublic import C.D\nimport struct E.F\n// import G\nlet importX = 1"),
                       ["A", "B", "C", "E"])
        XCTAssertEqual(Self.imports(of: "let p = \"\"\"\n    import sys\n    \"\"\"\nimport K"), ["K"])
        XCTAssertEqual(Self.imports(of: "#if canImport(Glibc)\n\timport Glibc\n  @preconcurrency  import\tDarwin\r\nimport H;"),
                       ["Glibc", "Darwin", "H"])
    }

    /// The checks catch what they are for: each hole planted in a copy of a real target.
    func testPlantedViolationsAreCaught() {
        let tileArchive = Target(name: "TileArchive", type: "regular", folder: "Sources/TileArchive", dependencies: ["PBF"])
        XCTAssertEqual(Self.violations(of: tileArchive, files: [("a.swift", "import PBF\n")]).count, 0)
        XCTAssertEqual(Self.violations(of: tileArchive, files: [("a.swift", "import Foundation\n")]).count, 1)
        XCTAssertEqual(Self.violations(of: tileArchive, files: [("a.swift", "#if X\n\timport GeoJSON\n#endif\n")]).count, 1)
        let conformance = Target(name: "Conformance", type: "regular", folder: "Sources/Conformance", dependencies: ["PBF"])
        XCTAssertEqual(Self.violations(of: conformance, files: [("a.swift", "import GraticuleTool\n")]).count, 1)
        XCTAssertEqual(Self.readmeModules("| module | owns |\n|---|---|\n| `PBF` | x |\n| `GeoModel` (`y`) | z |"), ["PBF", "GeoModel"])
        XCTAssertEqual(Self.landingPageModules("# T\n\n## Modules\n\n- `PBF`: a\n- `GPX`: b\n\n## Topics\n- `X`"), ["PBF", "GPX"])
    }
}
