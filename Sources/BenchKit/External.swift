import GraticuleSupport
import Foundation

/// An implementation that runs in another program, spoken to over its stdin and stdout.
///
/// ## The external protocol (version 1)
///
/// The runner starts `command` with two more arguments, `--dataset PATH`, and with
/// `GRATICULE_EXTERNAL_PROTOCOL=1` in its environment. Lines are UTF-8, LF-terminated.
///
/// 1. The program loads the dataset and prepares (untimed), then prints `ready`.
/// 2. When the case checks results (`checksResult`), the runner sends `digest`; the
///    program performs the operation once and prints `digest TEXT`, its `ResultDigest` in
///    text form. A digest that differs from the reference implementation's marks the case
///    `wrong`, and it is not timed.
/// 3. The runner sends `run N`. The program performs the operation N times in a loop,
///    timing the loop with its own monotonic clock, and prints `ns T` where T is the total
///    elapsed nanoseconds as an integer of 1 or more (`ns 0` is a protocol violation). This repeats, interleaved with the runner's other
///    cases, for warm-up and for every sample.
/// 4. The runner sends `quit`; the program exits 0.
///
/// At any point the program may print `error MESSAGE` and exit non-zero; the runner then
/// marks the case `failed` with that message. Lines starting with `#` are ignored. A program
/// that ends early, or closes its output, is recorded as `crash`; one that takes longer than
/// `sampleTimeout` for an answer as `timeout`, whether or not its output is still open (a
/// child it started may hold it). The program runs in a process group of its own, and the
/// whole group is killed when it is stopped, so nothing it started outlives the run; its
/// standard error's last lines go to the detail. The
/// runner reads the program's peak resident memory from `/proc/PID/status` before `quit`.
public struct ExternalProgram: Sendable, Equatable {
    public var command: [String]
    public var environment: [String: String]
    public var workingDirectory: String?
    /// The longest the runner waits for any one answer (`ready`, `digest`, `ns`), in seconds.
    public var sampleTimeout: Double
    /// Whether the program answers `digest`.
    public var checksResult: Bool
    /// Why the program's result is known to differ from the reference's (a documented
    /// departure, such as another edge rule). A differing digest is then written to the
    /// detail and the case is timed; without it, the case is `wrong`.
    public var knownDifference: String?

    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
                sampleTimeout: Double = ExternalProgram.defaultSampleTimeout, checksResult: Bool = false,
                knownDifference: String? = nil) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.sampleTimeout = sampleTimeout
        self.checksResult = checksResult
        self.knownDifference = knownDifference
    }

    /// 60 s: far above any sample the runner asks for (its target is well under a second),
    /// so only a program that hangs reaches it.
    public static let defaultSampleTimeout = 60.0
}

/// Errors of an external implementation.
public enum ExternalError: Error, CustomStringConvertible, Equatable {
    case launchFailed(String)
    case exited(String)
    case protocolViolation(expected: String, got: String)
    case programError(String)
    case timedOut(String)

    public var description: String {
        switch self {
        case .launchFailed(let s): return "cannot start external program: \(s)"
        case .exited(let s): return "external program ended early: \(s)"
        case .protocolViolation(let e, let g):
            // Control bytes and other invisible characters are shown escaped ("ready\t").
            return "external protocol: expected \(e), got \(g.debugDescription)"
        case .programError(let s): return "external program reported: \(s)"
        case .timedOut(let s): return "external program gave no answer in time: \(s)"
        }
    }

    /// The status a case gets when this error ends it.
    var status: MetricResult.Status {
        switch self {
        case .exited: return .crash
        case .timedOut: return .timeout
        default: return .failed
        }
    }
}

final class _ExternalSampler: _Sampler {
    private var program: LineProtocolProcess
    /// How the program was started (to start it again after a request it does not know).
    private let start: () throws -> LineProtocolProcess
    private let slowdown: Double
    private let timeout: Double
    private let errorLog: String
    private var debt = 0.0

    init(program: ExternalProgram, datasetPath: String, slowdown: Double, scratchDirectory: String) throws {
        guard !program.command.isEmpty else { throw ExternalError.launchFailed("empty command") }
        self.slowdown = slowdown
        self.timeout = program.sampleTimeout
        errorLog = scratchDirectory + "/external-\(getpid())-\(UInt32.random(in: 0 ... .max)).stderr"
        var env = program.environment
        env["GRATICULE_EXTERNAL_PROTOCOL"] = "1"
        let log = errorLog
        // Absolute: the program may run in another folder (its manifest's workingDirectory).
        let datasetPath = datasetPath.hasPrefix("/") || datasetPath == "-"
            ? datasetPath : FileManager.default.currentDirectoryPath + "/" + datasetPath
        start = {
            do {
                return try LineProtocolProcess(command: program.command + ["--dataset", datasetPath],
                                               environment: env, workingDirectory: program.workingDirectory, errorLog: log)
            } catch { throw ExternalError.launchFailed("\(error)") }
        }
        self.program = try start()
        try awaitReady()
    }

    private func awaitReady() throws {
        let line = try readLine(waitingFor: "ready")
        guard line == "ready" || line.hasPrefix("ready ") else {
            throw ExternalError.protocolViolation(expected: "ready", got: String(line.prefix(200)))
        }
    }

    private func stderrNote() -> String {
        let tail = program.errorTail()
        return tail.isEmpty ? "" : "; stderr: \(tail)"
    }

    private func readLine(waitingFor what: String) throws -> String {
        switch program.readLine(timeout: timeout) {
        case .line(let line):
            if line.hasPrefix("error ") { throw ExternalError.programError(LineProtocolProcess.clipped(line.dropFirst(6)) + stderrNote()) }
            return line
        case .closed:
            // A program that closed its output may still be running: it gets a moment to
            // end, then it and its group are stopped.
            guard let status = program.exitStatus(within: 2) else {
                throw ExternalError.exited("closed its output while the runner waited for '\(what)' and kept running; it was stopped" + stderrNote())
            }
            throw ExternalError.exited("while the runner waited for '\(what)', \(status)" + stderrNote())
        case .timedOut:
            program.terminate()
            throw ExternalError.timedOut("no '\(what)' within \(timeout) s; the program was stopped" + stderrNote())
        }
    }

    private func send(_ line: String) throws {
        do { try program.send(line) } catch {
            let status = program.exitStatus(within: 2) ?? "still running; it was stopped"
            throw ExternalError.exited("\(error), \(status)" + stderrNote())
        }
    }

    private func timed(_ n: Int) throws -> UInt64 {
        try send("run \(n)")
        let line = try readLine(waitingFor: "ns")
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "ns", let ns = UInt64(parts[1]) else {
            throw ExternalError.protocolViolation(expected: "ns T", got: String(line.prefix(200)))
        }
        // No loop of one operation or more takes no time: a clock that says so cannot be
        // sampled (report at least 1 from a coarse clock).
        guard ns > 0 else {
            throw ExternalError.protocolViolation(expected: "ns T with T of 1 or more for run \(n)", got: String(line.prefix(200)))
        }
        return ns
    }

    /// The program's `elements` answer: its located elements (`element LINE` each, then
    /// `end`), asked only when its digest differs from the reference's.
    ///
    /// `elements` is optional: a program that does not know it (answers `error ...`, or
    /// ends) is started again, so the case goes on to be timed, and the error says so.
    func elements() throws -> [String] {
        do {
            try send("elements")
            var out: [String] = []
            while true {
                let line = try readLine(waitingFor: "element or end")
                if line == "end" { return out }
                guard line.hasPrefix("element ") else {
                    throw ExternalError.protocolViolation(expected: "element LINE or end", got: String(line.prefix(200)))
                }
                out.append(String(line.dropFirst(8)))
            }
        } catch {
            // Whatever state the program is in now, start it anew for the timing.
            program.finish()
            program = try start()
            try awaitReady()
            throw ExternalError.programError("it does not answer 'elements' (optional: \(error))")
        }
    }

    /// The program's `digest` answer.
    func digest() throws -> ResultDigest {
        try send("digest")
        let line = try readLine(waitingFor: "digest")
        guard line.hasPrefix("digest "), let d = ResultDigest(parsing: String(line.dropFirst(7))) else {
            throw ExternalError.protocolViolation(expected: "digest COUNTS checksum=HEX", got: String(line.prefix(200)))
        }
        return d
    }

    func sample(_ iterations: Int) throws -> UInt64 {
        var ns = try timed(iterations)
        if slowdown > 0 {
            debt += Double(iterations) * slowdown
            let extra = Int(debt)
            debt -= Double(extra)
            if extra > 0 { ns &+= try timed(extra) }
        }
        return ns
    }

    func allocations(_ iterations: Int) -> (count: Double, bytes: Double, peak: Double?)? { nil }
    var allocationsUnsupportedReason: String { "external program: its allocator is not observed" }

    func peakResident(_ iterations: Int) -> Double? {
        ProcessStatus.peakResidentBytes(pid: String(program.processIdentifier)).map { Double($0) }
    }

    func close() {
        program.finish()
        try? FileManager.default.removeItem(atPath: errorLog)
    }
}

/// A registration of an external implementation, read from a JSON manifest. One program
/// may declare several benchmarks (and, for `graticule conform`, conformance suites):
///
/// ```json
/// { "implementation": "tile-cover.js",
///   "command": ["node", "Benchmarks/Adapters/tilecover_js.js"],
///   "requires": "Debian's nodejs",
///   "role": "peer",
///   "sampleTimeout": 60,
///   "benchmarks": [
///     { "benchmark": "tilecover.polygon", "arguments": ["polygon", "12"],
///       "datasetKinds": ["geojson"], "datasetNames": ["canada"],
///       "parameters": {"zoom": "12"}, "quick": false, "checksResult": true } ],
///   "conformance": { "arguments": ["conform"], "suites": ["tile-cover"] } }
/// ```
///
/// Each benchmark runs `command + arguments + ["--dataset", PATH]` once per dataset of its
/// `datasetKinds` (and, when given, whose name contains one of `datasetNames`).
/// `parameters` make it comparable with the in-process case of the same parameters;
/// `checksResult` says the program answers `digest`; `knownDifference` gives the reason
/// its result differs from the reference's, when it does by design. `role` is `candidate`
/// (the default: an implementation you brought, gated by `compare` and `bench --baseline`)
/// or `peer` (a comparison, reported and never gated by default; every adapter the
/// project ships is one). The older one-benchmark form (the
/// benchmark's keys at the top level, beside `implementation` and `command`) is read too.
/// An unknown key, a missing one or a wrong type is an error naming the file and the key.
public struct ExternalManifest: Equatable, Sendable {
    public struct Benchmark: Equatable, Sendable {
        public var benchmark: String
        public var arguments: [String]
        public var datasetKinds: [String]
        /// When given, only datasets whose name contains one of these strings.
        public var datasetNames: [String]?
        public var parameters: [String: String]
        public var quick: Bool
        public var checksResult: Bool
        /// Why the result is known to differ from the reference's (see `ExternalProgram`).
        public var knownDifference: String?
    }

    public var implementation: String
    public var command: [String]
    public var requires: String?
    /// What the program needs, each with a probe and the command that installs it.
    public var requirements: [Requirement] = []
    /// Where the program and its probes run (the manifest's `workingDirectory`, relative to
    /// the manifest file); nil: the current folder.
    public var workingDirectory: String?
    public var sampleTimeout: Double
    public var benchmarks: [Benchmark]
    /// `candidate` unless the manifest says `peer`.
    public var role: MetricResult.Role = .candidate

    static let benchmarkKeys: Set<String> = ["benchmark", "arguments", "datasetKinds", "datasetNames", "parameters",
                                             "quick", "checksResult", "knownDifference"]
    static let programKeys: Set<String> = ["implementation", "command", "requires", "requirements", "workingDirectory", "sampleTimeout", "benchmarks",
                                           "conformance", "role"]

    public static func load(path: String) throws -> ExternalManifest {
        let o = try StrictJSONObject(path: path)
        let implementation = try o.requiredString("implementation")
        guard implementation != "graticule" else {
            throw StrictJSONObject.Failure(path: path, reason: "'implementation' must not be graticule (the reference)")
        }
        let command = try o.requiredStrings("command")
        try o.checkCommandStarts(command)
        let workingDirectory = try o.workingDirectory()
        let timeout = try o.number("sampleTimeout") ?? ExternalProgram.defaultSampleTimeout
        guard timeout > 0, timeout.isFinite else { throw StrictJSONObject.Failure(path: path, reason: "'sampleTimeout' must be a positive number of seconds") }
        var role = MetricResult.Role.candidate
        if let r = try o.string("role") {
            guard let parsed = MetricResult.Role(rawValue: r), parsed != .project else {
                throw StrictJSONObject.Failure(path: path, reason: "'role' is 'candidate' or 'peer', got '\(r)'")
            }
            role = parsed
        }
        var entries: [StrictJSONObject]
        if o.has("benchmark") {
            try o.checkKeys(programKeys.union(benchmarkKeys))
            guard !o.has("benchmarks") else {
                throw StrictJSONObject.Failure(path: path, reason: "give 'benchmark' or 'benchmarks', not both")
            }
            entries = [o]
        } else {
            try o.checkKeys(programKeys)
            entries = try o.objects("benchmarks") ?? []
            guard !entries.isEmpty else {
                throw StrictJSONObject.Failure(path: path, reason: "missing key 'benchmarks': the program declares no benchmark")
            }
        }
        var benchmarks: [Benchmark] = []
        for e in entries {
            if !o.has("benchmark") { try e.checkKeys(benchmarkKeys) }
            benchmarks.append(Benchmark(benchmark: try e.requiredString("benchmark"), arguments: try e.strings("arguments") ?? [],
                                        datasetKinds: try e.requiredStrings("datasetKinds"),
                                        datasetNames: try e.strings("datasetNames"),
                                        parameters: try e.stringMap("parameters") ?? [:], quick: try e.bool("quick") ?? true,
                                        checksResult: try e.bool("checksResult") ?? false,
                                        knownDifference: try e.string("knownDifference")))
        }
        var m = ExternalManifest(implementation: implementation, command: command, requires: try o.string("requires"),
                                 sampleTimeout: timeout, benchmarks: benchmarks, role: role)
        m.requirements = try Requirement.list(in: o)
        m.workingDirectory = workingDirectory
        return m
    }

    /// A line per requirement whose probe fails here (what is missing, the command that
    /// installs it); each probe runs once.
    public func missingRequirements() -> [String] {
        Requirement.missingLines(requirements, for: implementation, in: workingDirectory)
    }

    /// The benchmark names this manifest declares that `known` does not hold.
    public func unknownBenchmarks(known: Set<String>) -> [String] {
        benchmarks.map(\.benchmark).filter { !known.contains($0) }
    }

    /// The cases this manifest adds for the given datasets.
    public func cases(datasets: [Dataset]) -> [BenchmarkCase] {
        benchmarks.flatMap { b in
            datasets.filter { d in
                b.datasetKinds.contains(d.kind) && (b.datasetNames.map { names in names.contains { d.name.contains($0) } } ?? true)
            }.map {
                BenchmarkCase(name: b.benchmark, implementation: implementation, dataset: $0,
                              parameters: b.parameters, quick: b.quick,
                              body: .external(ExternalProgram(command: command + b.arguments, workingDirectory: workingDirectory,
                                                              sampleTimeout: sampleTimeout, checksResult: b.checksResult,
                                                              knownDifference: b.knownDifference)),
                              role: role)
            }
        }
    }
}
