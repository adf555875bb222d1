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
/// 2. The runner sends `run N`. The program performs the operation N times in a loop,
///    timing the loop with its own monotonic clock, and prints `ns T` where T is the total
///    elapsed nanoseconds as an integer. This repeats, interleaved with the runner's other
///    cases, for warm-up and for every sample.
/// 3. The runner sends `quit`; the program exits 0.
///
/// At any point the program may print `error MESSAGE` and exit non-zero; the runner then
/// marks the case `failed` with that message. Lines starting with `#` are ignored. The
/// runner reads the program's peak resident memory from `/proc/PID/status` before `quit`.
public struct ExternalProgram: Sendable, Equatable {
    public var command: [String]
    public var environment: [String: String]
    public var workingDirectory: String?

    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
    }
}

/// Errors of an external implementation.
public enum ExternalError: Error, CustomStringConvertible, Equatable {
    case launchFailed(String)
    case exited(String)
    case protocolViolation(expected: String, got: String)
    case programError(String)

    public var description: String {
        switch self {
        case .launchFailed(let s): return "cannot start external program: \(s)"
        case .exited(let s): return "external program ended early: \(s)"
        case .protocolViolation(let e, let g): return "external protocol: expected \(e), got '\(g)'"
        case .programError(let s): return "external program reported: \(s)"
        }
    }
}

final class _ExternalSampler: _Sampler {
    private let program: LineProtocolProcess
    private let slowdown: Double
    private var debt = 0.0

    init(program: ExternalProgram, datasetPath: String, slowdown: Double) throws {
        guard !program.command.isEmpty else { throw ExternalError.launchFailed("empty command") }
        self.slowdown = slowdown
        var env = program.environment
        env["GRATICULE_EXTERNAL_PROTOCOL"] = "1"
        do {
            self.program = try LineProtocolProcess(command: program.command + ["--dataset", datasetPath],
                                                   environment: env, workingDirectory: program.workingDirectory)
        } catch { throw ExternalError.launchFailed("\(error)") }
        let line = try readLine()
        guard line == "ready" || line.hasPrefix("ready ") else {
            throw ExternalError.protocolViolation(expected: "ready", got: line)
        }
    }

    private func readLine() throws -> String {
        guard let line = program.readLine() else {
            throw ExternalError.exited("status \(program.terminationStatus)")
        }
        if line.hasPrefix("error ") { throw ExternalError.programError(String(line.dropFirst(6))) }
        return line
    }

    private func send(_ line: String) throws {
        do { try program.send(line) } catch { throw ExternalError.exited("\(error)") }
    }

    private func timed(_ n: Int) throws -> UInt64 {
        try send("run \(n)")
        let line = try readLine()
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "ns", let ns = UInt64(parts[1]) else {
            throw ExternalError.protocolViolation(expected: "ns T", got: line)
        }
        return ns
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

    func close() { program.finish() }
}

/// A registration of an external implementation, read from a JSON manifest:
///
/// ```json
/// { "benchmark": "json.parse", "implementation": "python.orjson",
///   "datasetKinds": ["geojson"], "command": ["python3", "Benchmarks/Adapters/json_parse.py", "orjson"],
///   "requires": "pip install orjson", "quick": true }
/// ```
///
/// Optional: `parameters` (the case's parameters, so it is compared with the in-process
/// case of the same parameters) and `datasetNames` (substrings; only matching datasets).
///
/// `command` paths are relative to the working directory of the run. The runner registers
/// one case per dataset of the listed kinds.
public struct ExternalManifest: Codable, Equatable, Sendable {
    public var benchmark: String
    public var implementation: String
    public var datasetKinds: [String]
    public var command: [String]
    public var requires: String?
    public var quick: Bool?
    public var parameters: [String: String]?
    /// When given, only datasets whose name contains one of these strings (a manifest for
    /// polygons names the polygon datasets among those of its kind).
    public var datasetNames: [String]?

    public static func load(path: String) throws -> ExternalManifest {
        let bytes = try FileIO.readAll(path)
        do {
            return try JSONDecoder().decode(ExternalManifest.self, from: Data(bytes))
        } catch {
            throw FileIO.Failure(path: path, reason: "not an external manifest: \(error)")
        }
    }

    /// The cases this manifest adds for the given datasets.
    public func cases(datasets: [Dataset]) -> [BenchmarkCase] {
        datasets.filter { d in
            datasetKinds.contains(d.kind) && (datasetNames.map { names in names.contains { d.name.contains($0) } } ?? true)
        }.map {
            BenchmarkCase(name: benchmark, implementation: implementation, dataset: $0,
                          parameters: parameters ?? [:], quick: quick ?? true,
                          body: .external(ExternalProgram(command: command)))
        }
    }
}
