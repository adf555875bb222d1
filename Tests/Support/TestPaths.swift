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
