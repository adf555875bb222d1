import Foundation

/// Another program spoken to one line at a time over its standard input and output: the
/// client that the benchmark runner's external implementations and the conformance
/// runner's external programs share. Lines are UTF-8 and LF-terminated; lines starting with
/// `#` are comments and never returned.
///
/// The program is started through `/usr/bin/env`, so `command[0]` is looked up on `PATH`.
/// Writing to a program that has ended fails the write instead of raising `SIGPIPE`.
public final class LineProtocolProcess {
    /// Why a program could not be started or spoken to.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case emptyCommand
        case launchFailed(String)
        case writeFailed(String)

        public var description: String {
            switch self {
            case .emptyCommand: return "empty command"
            case .launchFailed(let why): return why
            case .writeFailed(let why): return "cannot write to it: \(why)"
            }
        }
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Starts `command` with `environment` added to this process's environment.
    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil) throws(Failure) {
        guard !command.isEmpty else { throw .emptyCommand }
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let dir = workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: dir) }
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { throw .launchFailed("\(error)") }
    }

    /// The program's process id.
    public var processIdentifier: Int32 { process.processIdentifier }
    /// Whether the program is still running.
    public var isRunning: Bool { process.isRunning }
    /// The exit status once the program has ended (waits for it).
    public var terminationStatus: Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends one line (the LF is added).
    public func send(_ line: String) throws(Failure) {
        do { try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) } catch {
            throw .writeFailed("\(error)")
        }
    }

    /// The next line that is not a comment, without its LF; nil once the program has closed
    /// its output.
    public func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if line.hasPrefix("#") { continue }
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Sends `goodbye` (when given) while the program runs, closes its input and waits for
    /// it to end.
    public func finish(saying goodbye: String? = "quit") {
        guard process.isRunning else { return }
        if let goodbye { try? send(goodbye) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Ends the program at once.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}
