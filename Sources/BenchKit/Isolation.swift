import GraticuleSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Isolation of in-process implementations that are not the project's own: their cases
/// run in a child process (this executable again) that speaks the external protocol, so a
/// trap in someone else's code is that case's `crash` verdict, not the end of the run.
///
/// The child builds the same suite, sets the one case up and serves `ready`, `digest`
/// (the case's result digest), `elements` (its located elements, or its plain elements when
/// the check has those, `element LINE` each, then `end`), `run N` → `ns T` and `quit`.
public enum CaseIsolation {
    /// How to start the child: `executable arguments… CASE-ID`.
    public struct Child: Sendable, Equatable {
        public var executable: String
        /// Arguments before the case id, which the runner appends.
        public var arguments: [String]

        public init(executable: String, arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    /// Whether a case runs in the isolation child: in-process cases of every role but the
    /// project's own.
    public static func isolates(_ bcase: BenchmarkCase) -> Bool {
        guard case .inProcess = bcase.body else { return false }
        return bcase.role != .project
    }

    /// The external program that serves `bcase` from the child.
    static func program(for bcase: BenchmarkCase, child: Child) -> ExternalProgram {
        ExternalProgram(command: [child.executable] + child.arguments + [bcase.id.description], checksResult: bcase.check != nil)
    }

    /// The child's side: sets `bcase` up and serves the protocol on the lines `readLine`
    /// gives and to `output` until `quit` or the end of the input. Returns the exit status.
    /// `trapOnRun` is a benchmark-only hook: trap on the first `run`, as broken code would
    /// (how the isolation itself is tested).
    public static func serve(_ bcase: BenchmarkCase, trapOnRun: Bool = false, readLine: () -> String?,
                             output: (String) -> Void) -> Int32 {
        guard case .inProcess(let setup) = bcase.body else {
            output("error \(bcase.id) is not an in-process case")
            return 2
        }
        let workload: Workload
        do { workload = try setup(bcase.dataset) } catch {
            output("error setup failed: \(error)")
            return 2
        }
        output("ready")
        var check: ResultCheck?
        while let line = readLine() {
            let parts = line.split(separator: " ")
            guard let verb = parts.first else { continue }
            switch verb {
            case "quit":
                return 0
            case "digest", "elements":
                do {
                    guard let make = bcase.check else {
                        output("error the case computes no result digest")
                        return 2
                    }
                    if check == nil { check = try make(bcase.dataset) }
                    if verb == "digest" {
                        output("digest \(check!.digest)")
                    } else {
                        for e in try check!.locatedElements?() ?? check!.elements ?? [] { output("element " + e) }
                        output("end")
                    }
                } catch {
                    output("error \(error)")
                    return 2
                }
            case "run":
                guard parts.count == 2, let n = Int(parts[1]), n > 0 else {
                    output("error expected 'run N', got '\(line.prefix(200))'")
                    return 2
                }
                if trapOnRun { fatalError("injected trap (--inject-trap) in \(bcase.id)") }
                let t0 = _SystemProbe.nowNanoseconds()
                workload.run(n)
                output("ns \(max(1, _SystemProbe.nowNanoseconds() &- t0))")
            default:
                output("error unknown command '\(line.prefix(200))'")
                return 2
            }
        }
        return 0
    }
}
