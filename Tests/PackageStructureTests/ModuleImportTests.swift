import XCTest
import Foundation
import GraticuleTestSupport

/// The module map of ARCHITECTURE.md, kept: every module imports only the modules it may
/// depend on, and the cores import no Foundation (their hot loops read borrowed bytes).
/// A new import that crosses a boundary fails here before it spreads.
final class ModuleImportTests: XCTestCase {
    /// The platform modules any target may import.
    static let platform: Set<String> = ["Glibc", "Darwin", "Foundation"]
    /// Modules whose sources must not import Foundation.
    static let foundationFree: Set<String> = ["PBF", "GeoModel", "GeoJSON", "VectorTile", "TileCover", "GPX", "SourceDiff",
                                              "SourceDiffJSON"]

    /// Each module under Sources/ (or elsewhere, by folder) and what it may import.
    static let allowed: [String: (folder: String, imports: Set<String>)] = [
        "PBF": ("Sources/PBF", ["CVarintBlock"]),
        "GeoModel": ("Sources/GeoModel", []),
        "GeoJSON": ("Sources/GeoJSON", ["GeoModel", "CJSONSkip"]),
        "VectorTile": ("Sources/VectorTile", ["PBF", "GeoModel"]),
        "TileCover": ("Sources/TileCover", ["GeoModel"]),
        "GPX": ("Sources/GPX", ["GeoModel"]),
        "SourceDiff": ("Sources/SourceDiff", ["GeoModel", "TileCover"]),
        "SourceDiffJSON": ("Sources/SourceDiffJSON", ["SourceDiff", "GeoJSON", "GeoModel"]),
        "TileArchive": ("Sources/TileArchive", ["PBF", "TileCover", "CSQLite", "CZlib", "CBrotli", "CZstd"]),
        "DatasetProfile": ("Sources/DatasetProfile", ["GeoJSON", "GeoModel", "VectorTile", "TileArchive", "TileCover", "GraticuleSupport"]),
        "BenchKit": ("Sources/BenchKit", ["CJemalloc", "GraticuleSupport"]),
        "Conformance": ("Sources/Conformance", ["PBF", "VectorTile", "GeoJSON", "GeoModel", "TileCover", "GraticuleSupport", "ConformanceData"]),
        "ConformanceData": ("corpora/conformance", []),
        "GraticuleSupport": ("Sources/GraticuleSupport", []),
        "CorpusGenerators": ("corpora/Generators", ["PBF", "GraticuleSupport"]),
        "Workloads": ("Benchmarks/Suites", ["BenchKit", "PBF", "GeoModel", "GeoJSON", "SourceDiff", "TileCover", "VectorTile",
                                            "CorpusGenerators", "SwiftProtobufPeer", "GraticuleSupport", "GPX"]),
        "GraticuleTool": ("Sources/GraticuleTool", ["BenchKit", "Conformance", "Workloads", "CorpusGenerators", "SwiftProtobufPeer",
                                                    "TileArchive", "GeoJSON", "GeoModel", "SourceDiff", "SourceDiffJSON", "TileCover",
                                                    "GPX", "VectorTile", "DatasetProfile", "GraticuleSupport", "ArgumentParser"]),
        "graticule": ("Sources/graticule", ["GraticuleTool"]),
    ]

    /// The modules a Swift file imports (`import X`, with or without an access level or
    /// attribute; submodule paths count as their module).
    static func imports(of text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            var words = line.split(separator: " ").map(String.init)
            while let w = words.first, w.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(w) {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            let name = ["struct", "class", "enum", "func", "var", "let", "protocol", "typealias"].contains(words[1]) && words.count >= 3
                ? words[2] : words[1]
            return String(name.split(separator: ".")[0])
        }
    }

    func swiftFiles(_ folder: String) -> [String] {
        let root = TestPaths.repositoryRoot + "/" + folder
        let e = FileManager.default.enumerator(atPath: root)
        var out: [String] = []
        while let f = e?.nextObject() as? String {
            if f.hasSuffix(".swift") { out.append(root + "/" + f) }
        }
        return out
    }

    func testEveryModuleImportsOnlyWhatTheMapAllows() throws {
        var checked = 0
        for (module, rule) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let files = swiftFiles(rule.folder)
            XCTAssertFalse(files.isEmpty, "\(module): no sources in \(rule.folder)")
            for file in files {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for m in Self.imports(of: text) {
                    checked += 1
                    if Self.foundationFree.contains(module) && m == "Foundation" {
                        XCTFail("\(file): \(module) is a core and must not import Foundation")
                    } else if !Self.platform.contains(m) && !rule.imports.contains(m) {
                        XCTFail("\(file): \(module) may not import \(m) (allowed: \(rule.imports.sorted()))")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 50)
    }

    /// Every source folder is in the table, so a new module has to be placed in the map.
    func testEverySourceFolderIsInTheMap() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: TestPaths.repositoryRoot + "/Sources")
        let known = Set(Self.allowed.values.map { $0.folder })
        let fm = FileManager.default
        var checked = 0
        for f in folders where !f.hasPrefix(".") {
            let path = TestPaths.repositoryRoot + "/Sources/" + f
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }  // README.md, CHANGELOG.md
            // C targets (a module map, or headers under include/) import nothing Swift.
            if fm.fileExists(atPath: path + "/module.modulemap") || fm.fileExists(atPath: path + "/include") { continue }
            XCTAssertTrue(known.contains("Sources/" + f), "Sources/\(f) is not in the module map of this test")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 15)
    }

    func testTheImportReaderReadsEveryForm() {
        XCTAssertEqual(Self.imports(of: "import A\n@testable import B\npublic import C.D\nimport struct E.F\n// import G\nlet importX = 1"),
                       ["A", "B", "C", "E"])
    }
}
