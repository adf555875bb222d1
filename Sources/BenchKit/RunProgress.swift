import GraticuleSupport

/// Progress on standard error while a run measures.
///
/// On a terminal: one self-overwriting line (GraticuleSupport's `StatusLine`), redrawn at
/// most ten times a second. Without a terminal (a CI log): a line when a phase starts
/// (setup, warm-up, sampling, allocations, memory, instructions; the phase is the first word
/// of the text) and otherwise at most one line every 10 seconds, so a log shows that the run
/// is alive without filling up.
public final class RunProgress {
    let enabled: Bool
    let terminal: Bool
    let logInterval: UInt64
    private var last: UInt64 = 0
    private var phase = ""
    /// Lines written to the log so far (without a terminal).
    public private(set) var logLines = 0
    private let sink: (String) -> Void
    private let line: StatusLine

    /// - Parameters:
    ///   - enabled: false prints nothing (`--quiet`).
    ///   - terminal: nil asks whether standard error is a terminal.
    ///   - logIntervalSeconds: the least time between two log lines of the same phase.
    ///   - sink: where text goes (standard error by default).
    public init(enabled: Bool, terminal: Bool? = nil, logIntervalSeconds: Double = 10,
                sink: ((String) -> Void)? = nil) {
        self.enabled = enabled
        self.terminal = terminal ?? StatusLine.standardErrorIsTerminal
        self.logInterval = UInt64(logIntervalSeconds * 1e9)
        let sink = sink ?? StatusLine.writeToStandardError
        self.sink = sink
        line = StatusLine(enabled: enabled && self.terminal, minimumIntervalSeconds: 0.1, sink: sink)
    }

    public func update(_ text: String) {
        guard enabled else { return }
        if terminal {
            line.draw("[graticule] " + String(text.prefix(100)))
            return
        }
        let now = StatusLine.now()
        let p = String(text.prefix { $0 != " " && $0 != ":" })
        guard p != phase || now &- last >= logInterval else { return }
        phase = p
        last = now
        logLines += 1
        sink("[graticule] " + text + "\n")
    }

    public func finish() {
        line.finish(keepingText: false)
    }
}
