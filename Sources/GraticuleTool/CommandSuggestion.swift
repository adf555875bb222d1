import ArgumentParser

/// The command a mistyped argument most likely meant (`graticule bnech` → `bench`,
/// `graticule cover camra` → `cover camera`), for the usage error's message. Mistyped
/// options are ArgumentParser's to suggest.
enum CommandSuggestion {
    /// The subcommand of `graticule` nearest to `word`: at most two edits away (an adjacent
    /// swap counts as one), the nearest first; nil when none is that near or `word` is an
    /// option.
    static func nearest(to word: String) -> String? {
        nearest(arguments: [word])
    }

    /// The command path `arguments` most likely meant: the words that name subcommands are
    /// followed while they match; the first that does not is replaced by the nearest
    /// subcommand at that level (two edits at most). Nil when every word matches, an option
    /// comes first, the command there has no subcommands, or none is near.
    static func nearest(arguments: [String]) -> String? {
        var command: ParsableCommand.Type = GraticuleCommand.self
        var path: [String] = []
        for word in arguments {
            guard !word.hasPrefix("-") else { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let exact = subcommands.first(where: { $0._commandName == word }) {
                command = exact
                path.append(word)
                continue
            }
            let scored = subcommands.map { ($0._commandName, distance(word.lowercased(), $0._commandName)) }.filter { $0.1 <= 2 }
            guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
            return (path + [best.0]).joined(separator: " ")
        }
        return nil
    }

    /// Edit distance with adjacent transpositions (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }
}
