import Foundation
import GraticuleTestSupport
import XCTest

/// corpora/external.tsv and corpora/fetch: the external corpora can be had without
/// ../shared, and the list says exactly what ../shared/corpora holds.
final class CorporaManifestTests: XCTestCase {
    let fetch = TestPaths.repositoryRoot + "/corpora/fetch"

    /// Runs a program; returns its exit status and standard output.
    @discardableResult
    func run(_ arguments: [String], in folder: String? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        if let folder { p.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func sha256(_ path: String) throws -> String {
        let r = try run(["sha256sum", path])
        XCTAssertEqual(r.status, 0, r.output)
        return String(r.output.prefix(64))
    }

    /// Every file of ../shared/corpora is listed with its size and SHA-256, and nothing
    /// listed is missing.
    func testManifestMatchesTheSharedCorpora() throws {
        let shared = TestPaths.shared("")
        guard FileManager.default.fileExists(atPath: shared) else { throw XCTSkip("no ../shared/corpora beside the repository") }
        let r = try run(["python3", fetch, "--check", shared])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains(" 0 problems"), r.output)
    }

    /// The peers' list (Benchmarks/Adapters/peers.tsv) matches ../shared/peers.
    func testPeersManifestMatchesTheSharedPeers() throws {
        let peers = URL(fileURLWithPath: TestPaths.repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared/peers").path
        guard FileManager.default.fileExists(atPath: peers) else { throw XCTSkip("no ../shared/peers beside the repository") }
        let r = try run(["python3", fetch, "--check", peers, "--manifest", TestPaths.repositoryRoot + "/Benchmarks/Adapters/peers.tsv"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("checked 8 files"), r.output)
    }

    /// The fetch script rebuilds a layout from a repository it is pointed at (a bare git
    /// repository made here), fetches only the listed files, refuses a file whose checksum
    /// differs, and its check finds a changed or an unlisted file.
    func testFetchRebuildsTheLayoutFromALocalRepository() throws {
        let dir = try TestPaths.newFolder("graticule-fetch-test")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let src = dir + "/src"
        try FileManager.default.createDirectory(atPath: src + "/test/nested", withIntermediateDirectories: true)
        try Data("{\"type\":\"Point\",\"coordinates\":[1,2]}\n".utf8).write(to: URL(fileURLWithPath: src + "/test/nested/a.json"))
        try Data("licence text\n".utf8).write(to: URL(fileURLWithPath: src + "/LICENSE"))
        try Data("held out\n".utf8).write(to: URL(fileURLWithPath: src + "/test/held.json"))
        let git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "init.defaultBranch=main"]
        XCTAssertEqual(try run(git + ["init", "-q"], in: src).status, 0)
        XCTAssertEqual(try run(git + ["add", "-A"], in: src).status, 0)
        XCTAssertEqual(try run(git + ["commit", "-qm", "fixtures"], in: src).status, 0)
        let commit = try run(["git", "rev-parse", "HEAD"], in: src).output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(commit.count, 40)
        try FileManager.default.createDirectory(atPath: dir + "/mirror/acme", withIntermediateDirectories: true)
        XCTAssertEqual(try run(["git", "clone", "-q", "--bare", src, dir + "/mirror/acme/data.git"]).status, 0)

        let a = src + "/test/nested/a.json", lic = src + "/LICENSE"
        func size(_ p: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: p)[.size] as! Int }
        func manifest(aSHA: String) throws -> String {
            "# test manifest\norigin\tacme\tacme/data\t\(commit)\tMIT\n"
                + "file\tsuite/data/a.json\t\(try size(a))\t\(aSHA)\tacme\ttest/nested/a.json\n"
                + "file\tsuite/UPSTREAM-LICENSE.txt\t\(try size(lic))\t\(try sha256(lic))\tacme\tLICENSE\n"
                + "file\tsuite/SOURCES.md\t4\t\(String(repeating: "0", count: 64))\t-\tnote: written with the corpus\n"
        }
        let good = dir + "/good.tsv"
        try manifest(aSHA: try sha256(a)).write(toFile: good, atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let r = try run(["python3", fetch, out, "--manifest", good, "--from", dir + "/mirror"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/suite/data/a.json"), FileManager.default.contents(atPath: a))
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/suite/UPSTREAM-LICENSE.txt"), FileManager.default.contents(atPath: lic))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/suite/held.json"))
        XCTAssertTrue(r.output.contains("not rebuilt: suite/SOURCES.md"), r.output)

        // A checksum that differs: the file is refused and not left behind; exit 1.
        let bad = dir + "/bad.tsv"
        try manifest(aSHA: String(repeating: "a", count: 64)).write(toFile: bad, atomically: true, encoding: .utf8)
        let r2 = try run(["python3", fetch, dir + "/out2", "--manifest", bad, "--from", dir + "/mirror"])
        XCTAssertEqual(r2.status, 1, r2.output)
        XCTAssertTrue(r2.output.contains("suite/data/a.json: upstream test/nested/a.json is SHA-256"), r2.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out2/suite/data/a.json"))

        // The check: the notes are absent from the fetched copy (listed, not rebuilt).
        try Data("note".utf8).write(to: URL(fileURLWithPath: out + "/suite/SOURCES.md"))
        XCTAssertEqual(try run(["python3", fetch, "--check", out, "--manifest", good]).status, 1, "the note's listed SHA-256 is zeros")
        let notesOK = try manifest(aSHA: try sha256(a)).replacingOccurrences(of: String(repeating: "0", count: 64), with: try sha256(out + "/suite/SOURCES.md"))
        try notesOK.write(toFile: good, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["python3", fetch, "--check", out, "--manifest", good]).status, 0)
        try Data("extra".utf8).write(to: URL(fileURLWithPath: out + "/suite/data/unlisted.json"))
        let r3 = try run(["python3", fetch, "--check", out, "--manifest", good])
        XCTAssertEqual(r3.status, 1)
        XCTAssertTrue(r3.output.contains("suite/data/unlisted.json: not in the manifest"), r3.output)

        // Bad usage and a malformed manifest exit 2.
        XCTAssertEqual(try run(["python3", fetch]).status, 2)
        XCTAssertEqual(try run(["python3", fetch, dir + "/out3", "--from", dir + "/mirror", "--manifest", dir + "/missing.tsv"]).status, 2)
        try "file\tsuite/x\tnot-a-number\tabc\tacme\tx\n".write(toFile: dir + "/malformed.tsv", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["python3", fetch, "--check", out, "--manifest", dir + "/malformed.tsv"]).status, 2)
    }
}
