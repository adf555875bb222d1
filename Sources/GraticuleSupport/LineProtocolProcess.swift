import Foundation

/// Another program spoken to one line at a time over its standard input and output: the
/// client that the benchmark runner's external implementations and the conformance
/// runner's external programs share. Lines are UTF-8 and LF-terminated; lines starting with
/// `#` are comments and never returned.
///
/// The program is started through `/usr/bin/env`, so `command[0]` is looked up on `PATH`,
/// in a process group of its own (Foundation's `Process` makes the child a group leader):
/// stopping it stops whatever it started too, even a child that still holds its output.
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

    /// What waiting for a line gave.
    public enum Read: Equatable, Sendable {
        /// A line (not a comment), without its LF.
        case line(String)
        /// The program closed its output (it ended or is ending).
        case closed
        /// No full line came within the time allowed.
        case timedOut
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private let errorLog: String?

    /// Starts `command` with `environment` added to this process's environment.
    ///
    /// - Parameters:
    ///   - command: the program and its arguments.
    ///   - environment: variables added to this process's environment.
    ///   - workingDirectory: where the program runs (default: this process's directory).
    ///   - errorLog: when given, the program's standard error goes to this file (read back
    ///     with `errorTail`); otherwise it is shared with this process's.
    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
                errorLog: String? = nil) throws(Failure) {
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
        self.errorLog = errorLog
        if let errorLog {
            guard FileManager.default.createFile(atPath: errorLog, contents: nil),
                  let handle = FileHandle(forWritingAtPath: errorLog) else {
                throw .launchFailed("cannot create \(errorLog)")
            }
            process.standardError = handle
        }
        Self.becomeSubreaper()
        do { try process.run() } catch { throw .launchFailed("\(error)") }
        Self.running.insert(process.processIdentifier)
    }

    /// A program its owner lets go of is stopped with everything it started: one that was
    /// refused (its first line was not `ready`) and went on running used to outlive the run.
    deinit {
        let pid = process.processIdentifier
        if Self.running.contains(pid) {
            // No reaping here (the process object, which reaps it, goes with this one), but
            // a wait for the kernel to have ended it: its children are adopted as it ends, so
            // looking for them sooner would miss them.
            Self.killGroup(pid)
            kill(pid, SIGKILL)
            Self.running.remove(pid)
            Self.awaitEnd(pid)
            // (After `terminate()` the pid is gone from `running`: its orphans were stopped then.)
            Self.stopAdoptedOrphans()
        }
    }

    /// On Linux, this process adopts every orphan among its descendants
    /// (`PR_SET_CHILD_SUBREAPER`), so a program's child that left its process group (`setsid`)
    /// becomes this process's child when the program ends, and `terminate()` stops it. macOS
    /// has no subreaper: there such a child outlives the run, which only its process group
    /// would have stopped.
    static func becomeSubreaper() {
        #if os(Linux)
        _ = _subreaper
        #endif
    }

    /// Stops the orphans this process adopted as subreaper: children it did not start, which
    /// sit in another session than this process (`setsid`), with their process groups; and
    /// reaps them. Linux only (read from /proc).
    /// Waits (up to two seconds) until the process `pid` has ended: gone, or a zombie
    /// waiting to be reaped. Its orphans have been adopted by then.
    static func awaitEnd(_ pid: Int32) {
        #if os(Linux)
        for _ in 0..<2000 where !_hasEnded(pid) { usleep(1_000) }
        #endif
    }

    static func stopAdoptedOrphans() {
        #if os(Linux)
        let me = getpid(), mySession = getsid(0)
        for _ in 0..<4 {
            var found = false
            for pid in _childPIDs(of: me) where !running.contains(pid) {
                let session = getsid(pid)
                guard session > 0, session != mySession else { continue }
                found = true
                let group = getpgid(pid)
                if group > 1 { kill(-group, SIGKILL) }
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
            if !found { return }
        }
        #endif
    }

    /// The programs started and not yet ended, so an interrupted run can stop them.
    private static let running = _ProcessRegistry()

    /// Stops (SIGKILL) every program started here that has not ended: an interrupted
    /// runner leaves no adapter behind. Safe to call from any thread.
    public static func stopAll() { running.killAll() }

    /// On SIGINT, SIGTERM or SIGHUP, stops every program started here, runs `cleanUp` (the
    /// run's scratch folder) and exits with the usual 128 + signal status (instead of
    /// leaving adapters running). Call once, early.
    public static func stopAllOnInterrupt(cleanUp: @escaping @Sendable () -> Void = {}) {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                running.interrupting = true
                stopAll()
                cleanUp()
                FileHandle.standardError.write(Data("graticule: interrupted (signal \(sig)); external programs stopped, unfinished outputs removed\n".utf8))
                exit(128 + sig)
            }
            source.resume()
            _interruptSources.append(source)
        }
    }

    /// Whether an interrupt is being handled: the handler is removing outputs and will exit
    /// with 128 + the signal. A command that fails meanwhile (its output folder vanished
    /// under it) waits for that exit rather than exiting 2 first (`waitIfInterrupted()`).
    public static var interrupting: Bool { running.interrupting }

    /// Blocks for good when an interrupt is being handled, so the handler's exit status
    /// (128 + signal) is the process's; returns at once otherwise.
    public static func waitIfInterrupted() {
        guard running.interrupting else { return }
        while true { pause() }
    }

    /// The most bytes of a program's own text (its standard error, a reason it gives) that
    /// a report's `detail` keeps: the last 4 KiB, so that a program writing megabytes
    /// cannot make every row of a report that large.
    public static let detailLimit = 4096

    /// `text` kept to its last `limit` bytes (on a character boundary), saying how many
    /// bytes were cut.
    public static func clipped(_ text: some StringProtocol, limit: Int = detailLimit) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return String(text) }
        var start = utf8.index(utf8.endIndex, offsetBy: -limit)
        // Step forward off a continuation byte so the kept text is valid UTF-8.
        while start < utf8.endIndex, utf8[start] & 0xC0 == 0x80 { start = utf8.index(after: start) }
        let kept = String(decoding: utf8[start...], as: UTF8.self)
        return "[\(utf8.count - kept.utf8.count) bytes cut] …" + kept
    }

    /// The last `limit` bytes the program wrote to standard error, on one line (empty
    /// without an `errorLog`).
    ///
    /// A Swift runtime's `Fatal error: ...` line, when the log holds one, comes first: the
    /// backtrace after it would otherwise fill the tail.
    /// The log is read at its two ends only (its first 64 KiB and its last `limit` bytes),
    /// so a program that writes gigabytes of errors costs this process no more memory.
    public func errorTail(limit: Int = detailLimit) -> String {
        guard let errorLog, let file = FileHandle(forReadingAtPath: errorLog) else { return "" }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()) ?? 0
        let headCount = Int(min(size, 65_536))
        try? file.seek(toOffset: 0)
        let headData = (try? file.read(upToCount: headCount)) ?? Data()
        try? file.seek(toOffset: size - min(size, UInt64(limit)))
        let tailData = (try? file.read(upToCount: limit)) ?? Data()
        let text = String(decoding: tailData, as: UTF8.self)
        let tail = text.split(whereSeparator: \.isNewline).joined(separator: " | ")
        let head = String(decoding: headData, as: UTF8.self)
        if let fatal = head.split(whereSeparator: \.isNewline).first(where: { $0.contains("Fatal error") }) {
            return String(fatal.prefix(limit)) + (tail.contains(fatal) ? "" : " | … | " + tail)
        }
        return tail
    }

    /// Whether `program` can be started as `command[0]`: a path to an executable file, or
    /// a name found on `PATH`.
    public static func canStart(_ program: String) -> Bool {
        let fm = FileManager.default
        if program.contains("/") { return fm.isExecutableFile(atPath: program) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { fm.isExecutableFile(atPath: "\($0)/\(program)") }
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

    /// How the program ended, if it ends within `timeout` seconds (`exit status 3`,
    /// `signal 4 (SIGILL)`); nil (and the program and its group stopped) when it is still
    /// running then, as a program that closed its output and went on would be.
    public func exitStatus(within timeout: Double) -> String? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while process.isRunning && DispatchTime.now().uptimeNanoseconds < deadline { usleep(2_000) }
        if process.isRunning {
            terminate()
            return nil
        }
        let status = terminationStatus
        Self.killGroup(process.processIdentifier)
        if process.terminationReason == .uncaughtSignal {
            let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
                                          SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM"]
            return "signal \(status)" + (names[status].map { " (\($0))" } ?? "")
        }
        return "exit status \(status)"
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
        switch readLine(timeout: nil) {
        case .line(let l): return l
        case .closed, .timedOut: return nil
        }
    }

    /// The next line that is not a comment, waiting at most `timeout` seconds in all
    /// (nil: without limit).
    public func readLine(timeout: Double?) -> Read {
        let deadline = timeout.map { DispatchTime.now().uptimeNanoseconds + UInt64(max(0, $0) * 1e9) }
        let fd = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                // A line may end in CRLF (a program written on Windows, or a text-mode stream):
                // the CR ends the line, it is not part of what the program said.
                let end = nl > buffer.startIndex && buffer[nl - 1] == 0x0D ? nl - 1 : nl
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...nl)
                if line.hasPrefix("#") { continue }
                return .line(line)
            }
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                if now >= deadline { return .timedOut }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ms = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
                let ready = poll(&pfd, 1, ms)
                if ready == 0 { return .timedOut }
                if ready < 0 { if errno == EINTR { continue }; return .closed }
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .closed }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Sends `goodbye` (when given) while the program runs, closes its input and waits up to
    /// `grace` seconds for it to end; a program still running then is killed.
    public func finish(saying goodbye: String? = "quit", grace: Double = 5) {
        guard process.isRunning else {
            // What the program left running in its group goes with it.
            Self.killGroup(process.processIdentifier)
            return
        }
        if let goodbye { try? send(goodbye) }
        try? input.fileHandleForWriting.close()
        // A program that does not end within `grace` seconds of its goodbye is killed.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(grace * 1e9)
        while process.isRunning && DispatchTime.now().uptimeNanoseconds < deadline { usleep(2_000) }
        terminate()
    }

    /// Ends the program and every process of its group at once (SIGKILL: a program that
    /// hangs may ignore SIGTERM) and waits for it.
    public func terminate() {
        let pid = process.processIdentifier
        Self.killGroup(pid)
        if process.isRunning { kill(pid, SIGKILL) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        Self.running.remove(pid)
        // What it started and set loose (setsid) was adopted here when it ended.
        Self.stopAdoptedOrphans()
    }

    /// SIGKILL to the process group led by `pid` (nothing when the group is gone).
    static func killGroup(_ pid: Int32) {
        if pid > 1 { kill(-pid, SIGKILL) }
    }
}

/// The signal sources of `stopAllOnInterrupt`, kept alive for the process's life.
nonisolated(unsafe) private var _interruptSources: [DispatchSourceSignal] = []

#if os(Linux)
/// Set once: this process adopts its orphaned descendants. `prctl` is variadic in C, which
/// Swift does not call; it is called through its address with the five integer arguments
/// of the system call (option 36, PR_SET_CHILD_SUBREAPER, from <linux/prctl.h>).
private let _subreaper: Void = {
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") else { return }
    _ = unsafeBitCast(symbol, to: Prctl.self)(36, 1, 0, 0, 0)
}()

/// The live processes (not zombies, which their waiter reaps: Foundation's `Process` waits
/// for its own) whose parent is `parent`, from /proc/PID/stat (state, field 3; parent,
/// field 4).
/// Whether `pid` has ended: no such process, or a zombie (or dead) one.
private func _hasEnded(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
        return true
    }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state == "Z" || state == "X"
}

private func _childPIDs(of parent: Int32) -> [Int32] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    var out: [Int32] = []
    for e in entries {
        guard let pid = Int32(e), let stat = try? String(contentsOfFile: "/proc/\(e)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // After the command name in parentheses: state, then the parent's id.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, fields[0] != "Z", fields[0] != "X", Int32(fields[1]) == parent { out.append(pid) }
    }
    return out
}
#endif

/// Process ids under a lock.
private final class _ProcessRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var pids = Set<Int32>()
    private var _interrupting = false
    var interrupting: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _interrupting }
        set { lock.lock(); _interrupting = newValue; lock.unlock() }
    }

    func insert(_ pid: Int32) { lock.lock(); pids.insert(pid); lock.unlock() }
    func remove(_ pid: Int32) { lock.lock(); pids.remove(pid); lock.unlock() }
    func contains(_ pid: Int32) -> Bool { lock.lock(); defer { lock.unlock() }; return pids.contains(pid) }
    func killAll() {
        lock.lock()
        let all = pids
        lock.unlock()
        for pid in all {
            LineProtocolProcess.killGroup(pid)
            kill(pid, SIGKILL)
        }
        LineProtocolProcess.stopAdoptedOrphans()
    }
}
