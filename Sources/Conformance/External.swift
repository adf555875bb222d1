import GraticuleSupport
import Foundation

/// A conformance implementation that runs in another program.
///
/// ## The conformance protocol (version 1)
///
/// The runner starts `command` with `GRATICULE_CONFORM_PROTOCOL=1` in its environment.
/// Lines are UTF-8 and LF-terminated.
///
/// 1. The program prepares and prints `ready`.
/// 2. For each case the runner writes the case's input bytes to a file and sends
///    `case SUITE CASE-ID-LENGTH PATH`, where PATH is the file (the case id is not sent:
///    ids may hold spaces; its length lets a program log it). The program answers with one
///    line:
///    - `accept` — the input is accepted (no canonical output given);
///    - `output B64` — accepted, with the suite's canonical output as base64-encoded UTF-8
///      (an empty output is `output` followed by nothing);
///    - `reject CLASS DETAIL...` — rejected, with an error class (`invalid`, `fatal`, ...)
///      and free text;
///    - `unsupported REASON...` — the program cannot run this suite's cases (counted as a
///      failure, with the reason in the detail).
/// 3. The runner sends `quit`; the program exits 0.
///
/// Lines starting with `#` are ignored. A program that dies or answers out of protocol fails
/// the case it was on, and every later case, with the reason in the detail.
///
/// A manifest (JSON) describes one program: `name`, `command` (argv, run from the package
/// root), `suites` (the suites it takes), `outputs` (false when it gives verdicts only) and
/// `requires` (how to install what it needs, shown when it cannot start).
public struct ExternalConformanceManifest: Equatable, Sendable {
    public var name: String
    public var command: [String]
    public var suites: [String]
    public var outputs: Bool
    public var requires: String

    public init(name: String, command: [String], suites: [String], outputs: Bool, requires: String) {
        self.name = name
        self.command = command
        self.suites = suites
        self.outputs = outputs
        self.requires = requires
    }

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        case invalid(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p): return "\(p): cannot read the manifest"
            case .invalid(let p, let why): return "\(p): \(why)"
            }
        }
    }

    public static func load(path: String) throws(Error) -> ExternalConformanceManifest {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        guard let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .invalid(path, "not a JSON object")
        }
        guard let name = obj["name"] as? String, !name.isEmpty else { throw .invalid(path, "no name") }
        guard let command = obj["command"] as? [String], !command.isEmpty else { throw .invalid(path, "no command") }
        guard let suites = obj["suites"] as? [String], !suites.isEmpty else { throw .invalid(path, "no suites") }
        return ExternalConformanceManifest(name: name, command: command, suites: suites,
                                           outputs: obj["outputs"] as? Bool ?? true,
                                           requires: obj["requires"] as? String ?? "")
    }
}

/// A running external conformance program (see `ExternalConformanceManifest`).
public final class ExternalConformanceProgram {
    private let program: LineProtocolProcess
    private let scratch: String
    private var broken: String?
    public let manifest: ExternalConformanceManifest

    /// Starts the program and waits for `ready`.
    public init(manifest: ExternalConformanceManifest, workingDirectory: String? = nil) throws {
        self.manifest = manifest
        scratch = NSTemporaryDirectory() + "graticule-conform-\(getpid())-\(UInt32.random(in: 0 ... .max)).bin"
        do {
            program = try LineProtocolProcess(command: manifest.command, environment: ["GRATICULE_CONFORM_PROTOCOL": "1"],
                                              workingDirectory: workingDirectory)
        } catch {
            throw ExternalConformanceManifest.Error.invalid(manifest.name, "cannot start \(manifest.command.joined(separator: " ")): \(error)")
        }
        let first = program.readLine()
        guard first == "ready" else {
            program.terminate()
            let hint = manifest.requires.isEmpty ? "" : " (needs: \(manifest.requires))"
            throw ExternalConformanceManifest.Error.invalid(manifest.name, "did not start: \(first ?? "no output")\(hint)")
        }
    }

    deinit { finish() }

    /// Sends `quit` and waits for the program to end.
    public func finish() {
        guard program.isRunning else { return }
        program.finish()
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private func send(_ line: String) {
        guard program.isRunning else { return }
        try? program.send(line)
    }

    private func readLine() -> String? { program.readLine() }

    /// Runs one case.
    public func run(suite: String, _ c: ConformanceCase) -> Outcome {
        if let broken { return .rejected(errorClass: "adapter-error", detail: broken) }
        guard FileManager.default.createFile(atPath: scratch, contents: Data(c.input)) else {
            return .rejected(errorClass: "adapter-error", detail: "cannot write \(scratch)")
        }
        send("case \(suite) \(c.id.utf8.count) \(scratch)")
        guard let line = readLine() else {
            broken = "program ended (exit status \(program.isRunning ? -1 : program.terminationStatus))"
            return .rejected(errorClass: "adapter-error", detail: broken!)
        }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        switch parts.first {
        case "accept":
            return .accepted(output: nil)
        case "output":
            guard let data = Data(base64Encoded: parts.count > 1 ? parts[1] : "") else {
                return .rejected(errorClass: "adapter-error", detail: "output is not base64")
            }
            return .accepted(output: String(decoding: data, as: UTF8.self))
        case "reject":
            return .rejected(errorClass: parts.count > 1 ? parts[1] : "invalid", detail: parts.count > 2 ? parts[2] : "")
        case "unsupported":
            return .rejected(errorClass: "unsupported", detail: parts.dropFirst().joined(separator: " "))
        default:
            broken = "out of protocol: '\(line.prefix(200))'"
            return .rejected(errorClass: "adapter-error", detail: broken!)
        }
    }

    /// The program as a `ConformanceImplementation` for one suite.
    public func implementation(suite: String) -> ConformanceImplementation {
        ConformanceImplementation(name: manifest.name, comparesOutput: manifest.outputs) { [self] c in
            run(suite: suite, c)
        }
    }
}
