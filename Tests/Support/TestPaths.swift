import Foundation

/// Where the tests find their data: this repository's `corpora/` and the shared corpora
/// that CI checks out beside the repository (`../shared/corpora`).
public enum TestPaths {
    /// The repository root (the folder holding Package.swift).
    public static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `../shared/corpora/NAME` beside the repository (the path, whether or not it exists).
    public static func shared(_ name: String) -> String {
        URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent()
            .appendingPathComponent("shared/corpora").appendingPathComponent(name).path
    }

    /// `corpora/NAME` in this repository.
    public static func corpora(_ name: String) -> String {
        repositoryRoot + "/corpora/" + name
    }
}

extension TestPaths {
    /// A new, empty folder of this test run's own under `$TMPDIR` (the name starts with
    /// `prefix`; a random part makes it unique), made here: a test never relies on a folder
    /// an earlier run left behind. Callers remove it when they are done.
    public static func newFolder(_ prefix: String) throws -> String {
        var root = NSTemporaryDirectory()
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        let dir = root + "/\(prefix)-\(getpid())-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
