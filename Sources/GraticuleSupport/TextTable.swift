/// Plain-text tables for terminals and logs: columns padded to their widest cell, the first
/// three left-aligned (names), the rest right-aligned (figures), a rule under the header.
public enum TextTable {
    /// The table as lines ending in LF.
    ///
    /// - Parameters:
    ///   - maxWidth: when given, the columns listed in `shrinkable` are narrowed (widest
    ///     first, never below 8 characters) until a line fits, and their cells cut with `…`.
    ///     Columns not listed keep their width.
    /// - Complexity: O(cells). Allocates the output string.
    ///   - leftAligned: how many leading columns are names (left-aligned); 3 by default.
    public static func render(header: [String], rows: [[String]], maxWidth: Int? = nil,
                              shrinkable: [Int] = [], leftAligned: Int = 3) -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        if let maxWidth {
            func total() -> Int { widths.reduce(0, +) + 2 * max(0, widths.count - 1) }
            while total() > maxWidth {
                guard let i = shrinkable.filter({ $0 < widths.count && widths[$0] > 8 })
                    .max(by: { widths[$0] < widths[$1] }) else { break }
                widths[i] -= 1
            }
        }
        func fit(_ c: String, _ w: Int) -> String {
            c.count <= w ? c : String(c.prefix(max(0, w - 1))) + "…"
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let w = i < widths.count ? widths[i] : c.count
                let t = fit(c, w)
                // Padding by hand: Foundation's `padding(toLength:)` bridges through NSString
                // for every cell, which dominated tables of many rows.
                let pad = String(repeating: " ", count: max(0, w - t.count))
                return i < leftAligned ? t + pad : pad + t
            }.joined(separator: "  ") + "\n"
        }
        var out = line(header)
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for r in rows { out += line(r) }
        return out
    }
}
