import Foundation

/// A progress line on standard error for long reads, redrawn at most twice a second, shown
/// only when standard error is a terminal (or when forced): what was read, of how much,
/// the rate, a count and the time left.
public struct ProgressLine {
    public let total: Int?
    /// What the count in the line counts ("features", "tiles").
    public var unit: String
    private let start = Date()
    private let line: StatusLine

    /// `total` is in bytes, or in the counted unit when the count is the progress.
    public init(total: Int?, force: Bool = false, unit: String = "features") {
        self.total = total
        self.unit = unit
        line = StatusLine(enabled: force || StatusLine.standardErrorIsTerminal, minimumIntervalSeconds: 0.5)
    }

    /// Redraws the line, if half a second has passed, with `bytes` of `total` done and
    /// `count` items seen.
    public mutating func update(_ bytes: Int, count: Int) {
        guard line.isDue else { return }
        let elapsed = max(Date().timeIntervalSince(start), 1e-9)
        let rate = Double(bytes) / elapsed / 1e6
        var text = ""
        if let total, total > 0 {
            let filled = min(20, max(0, 20 * bytes / total))
            text += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "] "
        }
        text += String(format: "%.1f MB", Double(bytes) / 1e6)
        if let total, total > 0 {
            let left = rate > 0 ? (Double(total - bytes) / 1e6) / rate : 0
            text += String(format: " of %.1f MB (%.0f%%), %.0f MB/s, %d \(unit), %.0f s left",
                           Double(total) / 1e6, 100 * Double(bytes) / Double(total), rate, count, left)
        } else {
            text += String(format: ", %.0f MB/s, %d \(unit)", rate, count)
        }
        line.draw(text)
    }

    /// Ends the line, if one was drawn.
    public func finish() {
        line.finish(keepingText: true)
    }
}
