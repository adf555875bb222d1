import Foundation

/// The folders of data Graticule reads but does not ship: the shared corpora (public
/// conformance suites and real-world datasets) and the peers kept for comparisons, laid
/// out as `corpora/fetch` writes them.
public enum SharedFolders {
    /// The environment variable naming the corpora folder.
    public static let corporaVariable = "GRATICULE_CORPORA"

    /// The corpora folder to use when none is given: `$GRATICULE_CORPORA`, else
    /// `../shared/corpora` from the working folder, else the one beside the source checkout
    /// the binary was built from. When none exists, the first candidate (so messages name it).
    public static func corpora(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let all = corporaCandidates(environment: environment)
        return all.first(where: isDirectory) ?? all[0]
    }

    /// Every place `corpora()` looks, in order.
    public static func corporaCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let set = environment[corporaVariable], !set.isEmpty { return [set] }
        var out = ["../shared/corpora"]
        if let root = sourceCheckout { out.append(root + "/../shared/corpora") }
        return out
    }

    /// The source checkout this binary was built from, when it still exists (the package
    /// root: the folder holding `Package.swift`).
    public static var sourceCheckout: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // GraticuleSupport
            .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
        return FileManager.default.fileExists(atPath: root + "/Package.swift") ? root : nil
    }

    /// The line that tells a person how to get the corpora when `path` has none; `option`
    /// is how the command is given a folder.
    public static func missingCorpora(_ path: String, option: String = "--corpora DEST or set GRATICULE_CORPORA") -> String {
        "no corpora at \(path): get them with `corpora/fetch DEST` (from Graticule's checkout; see corpora/external.tsv), then pass \(option)"
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
}
