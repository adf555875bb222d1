/// Plain-text tables for terminals and logs: columns padded to their widest cell, the first
/// three left-aligned (names), the rest right-aligned (figures), a rule under the header.
public enum TextTable {
    /// The table as lines ending in LF.
    ///
    /// - Complexity: O(cells). Allocates the output string.
    public static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let w = i < widths.count ? widths[i] : c.count
                return i < 3 ? c.padding(toLength: w, withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: w - c.count) + c
            }.joined(separator: "  ") + "\n"
        }
        var out = line(header)
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for r in rows { out += line(r) }
        return out
    }
}
