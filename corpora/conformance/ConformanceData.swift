import Foundation

/// Where Graticule's own conformance data is, wherever the tool runs: the rule catalogue
/// (`rules.tsv`) and the project's suites (`pbf-varint`, `geojson-seq`, `tile-math`).
///
/// The files are package resources, copied beside every executable that links
/// `Conformance` (Graticule's own tool, the example package's, a user's). A binary moved
/// away from its resource bundle falls back to the source checkout it was built from.
public enum ConformanceData {
    /// The folder holding `rules.tsv` and the suite folders, or nil when neither the
    /// resource bundle nor the source checkout can be found.
    public static let folder: String? = locate()

    /// What to print in place of `folder` when it was not found: names the places looked in.
    public static var missingFolder: String {
        "<Graticule's conformance data, not found in \(candidates.joined(separator: " or "))>"
    }

    /// The places looked in, in order (for messages that say what is missing).
    public static var candidates: [String] {
        var out: [String] = []
        var dirs: [URL] = []
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() { dirs.append(exe) }
        dirs.append(Bundle.main.bundleURL)
        for dir in dirs {
            let found = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in found.sorted() where name.hasSuffix("_ConformanceData.resources") {
                out.append(dir.appendingPathComponent(name).path)
            }
        }
        // The source folder this file was compiled from (corpora/conformance).
        out.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().path)
        return out
    }

    private static func locate() -> String? {
        candidates.first { FileManager.default.fileExists(atPath: $0 + "/rules.tsv") }
    }
}
