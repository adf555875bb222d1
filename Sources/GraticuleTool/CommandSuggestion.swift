import ArgumentParser

/// The command a mistyped first argument most likely meant (`graticule bnech` → `bench`), for
/// the usage error's message.
enum CommandSuggestion {
    /// The subcommand of `graticule` nearest to `word`: at most two edits away (an adjacent
    /// swap counts as one), the nearest first; nil when none is that near or `word` is an
    /// option.
    static func nearest(to word: String) -> String? {
        guard !word.hasPrefix("-") else { return nil }
        let names = GraticuleCommand.configuration.subcommands.map { $0._commandName }
        guard !names.contains(word) else { return nil }
        let scored = names.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
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
