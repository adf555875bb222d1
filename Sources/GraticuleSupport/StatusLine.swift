#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of status on standard error, redrawn in place (`\r`, then the line cleared) and
/// at most once per `minimumInterval`: the drawing that `ProgressLine` (bytes read) and
/// BenchKit's `RunProgress` (a run's phases) share.
public final class StatusLine {
    /// Whether the line is drawn at all.
    public let enabled: Bool
    let interval: UInt64
    private var last: UInt64 = 0
    private var drew = false
    private let sink: (String) -> Void

    /// - Parameters:
    ///   - enabled: false draws nothing.
    ///   - minimumIntervalSeconds: the least time between two draws.
    ///   - sink: where text goes (standard error by default).
    public init(enabled: Bool, minimumIntervalSeconds: Double, sink: ((String) -> Void)? = nil) {
        self.enabled = enabled
        interval = UInt64(minimumIntervalSeconds * 1e9)
        self.sink = sink ?? StatusLine.writeToStandardError
    }

    /// Writes `text` to standard error, unbuffered.
    public static func writeToStandardError(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Whether standard error is a terminal.
    public static var standardErrorIsTerminal: Bool { isatty(2) != 0 }

    /// A monotonic clock, in nanoseconds.
    public static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Whether a draw now would be shown (enabled, and the interval has passed).
    public var isDue: Bool { enabled && (!drew || StatusLine.now() &- last >= interval) }

    /// Draws `text` in place of the line, when due.
    public func draw(_ text: String) {
        guard isDue else { return }
        last = StatusLine.now()
        drew = true
        sink("\r\u{1B}[K" + text)
    }

    /// Ends the line, if one was drawn: keeping the last text (a newline after it) or
    /// clearing it.
    public func finish(keepingText: Bool) {
        guard enabled && drew else { return }
        sink(keepingText ? "\n" : "\r\u{1B}[K")
    }
}
