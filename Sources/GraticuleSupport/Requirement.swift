import Foundation

/// One thing an external program needs before it can run (a runtime, a library, a
/// package, a folder of data), as its manifest declares it under `"requirements"`:
///
/// ```json
/// "requirements": [
///   { "need": "orjson (Python)", "probe": ["python3", "-c", "import orjson"],
///     "install": "python3 -m pip install orjson==3.8.3" } ]
/// ```
///
/// `probe` is run from the working folder; exit status 0 means the need is met. `install`
/// is the exact command that meets it, printed when it is not.
public struct Requirement: Equatable, Sendable {
    public var need: String
    public var probe: [String]
    public var install: String

    public init(need: String, probe: [String], install: String) {
        self.need = need
        self.probe = probe
        self.install = install
    }

    static let keys: Set<String> = ["need", "probe", "install"]

    /// The manifest's `requirements` (none when the key is absent).
    public static func list(in o: StrictJSONObject) throws(StrictJSONObject.Failure) -> [Requirement] {
        var out: [Requirement] = []
        for r in try o.objects("requirements") ?? [] {
            try r.checkKeys(keys)
            out.append(Requirement(need: try r.requiredString("need"), probe: try r.requiredStrings("probe"),
                                   install: try r.requiredString("install")))
        }
        return out
    }

    /// Runs the probe (at most `timeout` seconds, its output discarded, from `folder` or
    /// the working folder): true when it starts and exits 0.
    public func isMet(timeout: Double = 30, in folder: String? = nil) -> Bool {
        guard LineProtocolProcess.canStart(probe[0]) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = probe
        if let folder { p.currentDirectoryURL = URL(fileURLWithPath: folder) }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            return false
        }
        return p.terminationReason == .exit && p.terminationStatus == 0
    }

    /// The line that says what is missing and how to get it.
    public func missingLine(for implementation: String) -> String {
        "\(implementation): missing \(need); install it with: \(install)"
    }

    /// One `missingLine` per requirement of `requirements` whose probe fails in `folder`.
    public static func missingLines(_ requirements: [Requirement], for implementation: String, in folder: String?) -> [String] {
        requirements.filter { !$0.isMet(in: folder) }.map { $0.missingLine(for: implementation) }
    }
}

extension StrictJSONObject {
    /// Fails when the manifest's program (`command[0]`) is not on `PATH`, naming what to
    /// install: the requirement whose probe runs that program, else the `requires` text.
    public func checkCommandStarts(_ command: [String]) throws(Failure) {
        guard !LineProtocolProcess.canStart(command[0]) else { return }
        let requires = try string("requires")
        let hint = try Requirement.list(in: self).first(where: { $0.probe.first == command[0] })
            .map { " (missing \($0.need); install it with: \($0.install))" }
            ?? requires.map { " (needs: \($0))" } ?? ""
        throw Failure(path: path, reason: "'command': no program '\(command[0])' on PATH\(hint)")
    }

    /// The manifest's `workingDirectory`, a folder given relative to the manifest file,
    /// as an absolute path (nil when absent: the program runs in the current folder).
    public func workingDirectory() throws(Failure) -> String? {
        guard let rel = try string("workingDirectory") else { return nil }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        let url = rel.hasPrefix("/") ? URL(fileURLWithPath: rel) : base.appendingPathComponent(rel)
        let folder = url.standardizedFileURL.path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw Failure(path: path, reason: "'workingDirectory': no folder \(folder)")
        }
        return folder
    }
}
