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
///    - `unsupported REASON...` — the program cannot run this suite's cases (a failure,
///      with the reason in the detail).
/// 3. The runner sends `quit`; the program exits 0.
///
/// Lines starting with `#` are ignored. Every case has a time limit (`timeout`, 10 s by
/// default). A program that ends while it works on a case gets `crash` for that case, one
/// that does not answer in time gets `timeout` (it is killed), one that answers out of
/// protocol gets `adapter-error`; the last lines of its standard error go to the detail,
/// and the program is started again for the next case. None of these is ever a pass.
///
/// A manifest (JSON) describes one program. The form shared with `graticule bench` is
/// `implementation`, `command` (argv, run from the package root), `requires` (how to install
/// what it needs, shown when it cannot start) and `conformance`: an object with `suites`,
/// `arguments` (added to `command`), `outputs` (false when it gives verdicts only) and
/// `timeout` (seconds per case). The older form has `name`, `command`, `suites`, `outputs`
/// and `requires` at the top level. Unknown keys are errors.
public struct ExternalConformanceManifest: Equatable, Sendable {
    public var name: String
    public var command: [String]
    public var suites: [String]
    public var outputs: Bool
    public var requires: String
    /// What the program needs, each with a probe and the command that installs it.
    public var requirements: [Requirement] = []
    /// Where the program and its probes run (`workingDirectory`, relative to the manifest
    /// file); nil: the current folder.
    public var workingDirectory: String?
    /// Seconds a case may take before the program is stopped and the case is `timeout`.
    public var timeout: Double

    /// 10 s per case.
    public static let defaultTimeout = 10.0

    /// A line per requirement whose probe fails here (what is missing, the command that
    /// installs it).
    public func missingRequirements() -> [String] {
        Requirement.missingLines(requirements, for: name, in: workingDirectory)
    }

    public init(name: String, command: [String], suites: [String], outputs: Bool, requires: String,
                timeout: Double = ExternalConformanceManifest.defaultTimeout) {
        self.name = name
        self.command = command
        self.suites = suites
        self.outputs = outputs
        self.requires = requires
        self.timeout = timeout
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

    static let sharedKeys: Set<String> = ["implementation", "command", "requires", "requirements", "workingDirectory", "sampleTimeout", "benchmarks", "conformance", "role"]
    static let sectionKeys: Set<String> = ["suites", "arguments", "outputs", "timeout"]
    static let olderKeys: Set<String> = ["name", "command", "suites", "outputs", "requires", "requirements", "workingDirectory", "timeout"]

    public static func load(path: String) throws(Error) -> ExternalConformanceManifest {
        do {
            let o = try StrictJSONObject(path: path)
            let command = try o.requiredStrings("command")
            let requirements = try Requirement.list(in: o)
            try o.checkCommandStarts(command)
            if let section = try o.object("conformance") {
                try o.checkKeys(sharedKeys)
                try section.checkKeys(sectionKeys)
                var m = ExternalConformanceManifest(
                    name: try o.requiredString("implementation"), command: command + (try section.strings("arguments") ?? []),
                    suites: try section.requiredStrings("suites"), outputs: try section.bool("outputs") ?? true,
                    requires: try o.string("requires") ?? "", timeout: try section.number("timeout") ?? defaultTimeout)
                m.requirements = requirements
                m.workingDirectory = try o.workingDirectory()
                return try m.validated(path)
            }
            if o.has("implementation") {
                throw StrictJSONObject.Failure(path: path, reason: "missing key 'conformance': the program declares no conformance suite")
            }
            try o.checkKeys(olderKeys)
            var m = ExternalConformanceManifest(name: try o.requiredString("name"), command: command,
                                                suites: try o.requiredStrings("suites"), outputs: try o.bool("outputs") ?? true,
                                                requires: try o.string("requires") ?? "",
                                                timeout: try o.number("timeout") ?? defaultTimeout)
            m.requirements = requirements
            m.workingDirectory = try o.workingDirectory()
            return try m.validated(path)
        } catch let failure as StrictJSONObject.Failure {
            throw .invalid(failure.path, failure.reason)
        } catch let e as Error {
            throw e
        } catch {
            throw .invalid(path, "\(error)")
        }
    }

    private func validated(_ path: String) throws -> ExternalConformanceManifest {
        guard timeout > 0 else { throw Error.invalid(path, "'timeout' must be positive") }
        guard name != "graticule" else { throw Error.invalid(path, "the implementation must not be called graticule") }
        return self
    }
}

/// A running external conformance program (see `ExternalConformanceManifest`), started
/// again after a case it crashed or hung on.
public final class ExternalConformanceProgram {
    private var program: LineProtocolProcess
    private let scratch: String
    private let errorLog: String
    private let workingDirectory: String?
    public let manifest: ExternalConformanceManifest

    /// Starts the program and waits for `ready`.
    public init(manifest: ExternalConformanceManifest, workingDirectory: String? = nil) throws {
        self.manifest = manifest
        self.workingDirectory = workingDirectory ?? manifest.workingDirectory
        let stem = NSTemporaryDirectory() + "graticule-conform-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        scratch = stem + ".bin"
        errorLog = stem + ".stderr"
        program = try Self.start(manifest, workingDirectory: self.workingDirectory, errorLog: errorLog)
    }

    private static func start(_ manifest: ExternalConformanceManifest, workingDirectory: String?,
                              errorLog: String) throws -> LineProtocolProcess {
        let program: LineProtocolProcess
        do {
            program = try LineProtocolProcess(command: manifest.command, environment: ["GRATICULE_CONFORM_PROTOCOL": "1"],
                                              workingDirectory: workingDirectory, errorLog: errorLog)
        } catch {
            throw ExternalConformanceManifest.Error.invalid(manifest.name, "cannot start \(manifest.command.joined(separator: " ")): \(error)")
        }
        let first = program.readLine(timeout: manifest.timeout)
        guard first == .line("ready") else {
            let stderr = program.errorTail()
            program.terminate()
            let hint = manifest.requires.isEmpty ? "" : " (needs: \(manifest.requires))"
            let said: String
            switch first {
            case .line(let l): said = "'\(l.prefix(200))'"
            case .closed: said = "it ended"
            case .timedOut: said = "no 'ready' within \(manifest.timeout) s"
            }
            throw ExternalConformanceManifest.Error.invalid(
                manifest.name, "did not start: \(said)\(hint)" + (stderr.isEmpty ? "" : "; stderr: \(stderr)"))
        }
        return program
    }

    deinit { finish() }

    /// Sends `quit` and waits for the program to end.
    public func finish() {
        program.finish()
        try? FileManager.default.removeItem(atPath: scratch)
        try? FileManager.default.removeItem(atPath: errorLog)
    }

    /// Records the failure and starts the program again for the next case.
    private func broken(_ failure: Outcome.Failure, _ why: String) -> Outcome {
        let stderr = program.errorTail()
        program.terminate()
        let detail = why + (stderr.isEmpty ? "" : "; stderr: \(stderr)")
        do { program = try Self.start(manifest, workingDirectory: workingDirectory, errorLog: errorLog) } catch {
            return .noVerdict(failure, detail: detail + "; restart failed: \(error)")
        }
        return .noVerdict(failure, detail: detail)
    }

    /// Runs one case.
    public func run(suite: String, _ c: ConformanceCase) -> Outcome {
        guard FileManager.default.createFile(atPath: scratch, contents: Data(c.input)) else {
            return .noVerdict(.adapterError, detail: "cannot write \(scratch)")
        }
        if !program.isRunning { return broken(.crash, "the program had ended before the case") }
        do { try program.send("case \(suite) \(c.id.utf8.count) \(scratch)") } catch {
            return broken(.crash, "the program ended: \(error)")
        }
        let line: String
        switch program.readLine(timeout: manifest.timeout) {
        case .line(let l): line = l
        case .closed:
            // A program that closed its output may still run: a moment to end, then stopped.
            return broken(.crash, "the program ended (" + (program.exitStatus(within: 2) ?? "it closed its output and kept running; it was stopped") + ")")
        case .timedOut: return broken(.timeout, "no answer within \(manifest.timeout) s; the program was stopped")
        }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        switch parts.first {
        case "accept":
            return .accepted(output: nil)
        case "output":
            guard let data = Data(base64Encoded: parts.count > 1 ? parts[1] : "") else {
                return .noVerdict(.adapterError, detail: "output is not base64")
            }
            return .accepted(output: String(decoding: data, as: UTF8.self))
        case "reject":
            return .rejected(errorClass: LineProtocolProcess.clipped(parts.count > 1 ? parts[1] : "invalid", limit: 200),
                             detail: parts.count > 2 ? LineProtocolProcess.clipped(parts[2]) : "")
        case "unsupported":
            return .noVerdict(.unsupported, detail: LineProtocolProcess.clipped(parts.dropFirst().joined(separator: " ")))
        default:
            return broken(.adapterError, "out of protocol: '\(line.prefix(200))'")
        }
    }

    /// Starts the program of `manifest`, runs every case of `suite` through it and stops it.
    ///
    /// - Throws: `ExternalConformanceManifest.Error` when the program does not start.
    public static func run(_ manifest: ExternalConformanceManifest, suite: String, cases: [ConformanceCase],
                           judge: ((ConformanceCase, String) -> (pass: Bool, detail: String)?)? = nil) throws -> [VerdictRow] {
        let program = try ExternalConformanceProgram(manifest: manifest)
        defer { program.finish() }
        return ConformanceRunner.run(suite: suite, cases: cases, implementation: program.implementation(suite: suite), judge: judge)
    }

    /// The program as a `ConformanceImplementation` for one suite.
    public func implementation(suite: String) -> ConformanceImplementation {
        ConformanceImplementation(name: manifest.name, comparesOutput: manifest.outputs) { [self] c in
            run(suite: suite, c)
        }
    }
}
