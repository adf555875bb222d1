import GraticuleSupport
import Foundation

/// Isolation of in-process implementations other than graticule's own: `graticule conform`
/// runs each in a child process (this executable again, `conform --suite S
/// --serve-implementation NAME`) that speaks the conformance protocol
/// (``ExternalConformanceManifest``), so a trap in it is a `crash` verdict for that case and
/// the run goes on with the child started again.
public enum ConformanceIsolation {
    /// The child's side: prints `ready`, then answers each `case SUITE LENGTH PATH` with the
    /// implementation's verdict on the file's bytes, until `quit` or the end of the input.
    /// Returns the exit status.
    public static func serve(_ implementation: ConformanceImplementation, readLine: () -> String?,
                             output: (String) -> Void) -> Int32 {
        output("ready")
        while let line = readLine() {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard let verb = parts.first else { continue }
            if verb == "quit" { return 0 }
            guard verb == "case", parts.count == 4 else {
                output("error unexpected command '\(line.prefix(200))'")
                return 2
            }
            guard let bytes = FileManager.default.contents(atPath: parts[3]) else {
                output("unsupported cannot read \(parts[3])")
                continue
            }
            let c = ConformanceCase(id: "", rule: "", input: [UInt8](bytes), expected: .either)
            output(Self.line(for: implementation.run(c)))
        }
        return 0
    }

    /// The protocol line for an outcome.
    static func line(for outcome: Outcome) -> String {
        func oneLine(_ s: String) -> String { s.split(whereSeparator: \.isNewline).joined(separator: " ") }
        switch outcome {
        case .accepted(let output):
            guard let output else { return "accept" }
            return "output " + Data(output.utf8).base64EncodedString()
        case .rejected(let errorClass, let detail):
            let cls = errorClass.isEmpty || errorClass.contains(" ") ? "invalid" : errorClass
            return "reject \(cls) \(oneLine(detail))"
        case .noVerdict(let failure, let detail):
            return "unsupported \(failure.rawValue): \(oneLine(detail))"
        }
    }

    /// The manifest that runs `name` for `suite` in the child.
    public static func manifest(name: String, suite: String, comparesOutput: Bool, executable: String,
                                timeout: Double = ExternalConformanceManifest.defaultTimeout) -> ExternalConformanceManifest {
        ExternalConformanceManifest(name: name, command: [executable, "conform", "--suite", suite, "--serve-implementation", name],
                                    suites: [suite], outputs: comparesOutput, requires: "", timeout: timeout)
    }
}
