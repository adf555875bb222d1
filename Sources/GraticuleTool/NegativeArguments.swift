/// Negative numbers on the command line. The argument parser reads a token that starts
/// with "-" as an option, so `--x -1` was "Missing value for '--x'" and a positional `-1`
/// "Unknown option '-1'": the user never heard that the value was out of range. When a
/// command line does not parse, it is read again with each negative number bound to the
/// option before it (`--x=-1`) and the positionals from the first standalone negative
/// number on placed after `--`; when that parses, the command runs and checks the values'
/// ranges as for any other value. A command line that parses as given is never rewritten.
enum NegativeArguments {
    /// Whether `token` is a number below zero: "-1", "-0.5", "-1e3", "-.5".
    static func isNegativeNumber(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        return Double(token) != nil && !token.hasPrefix("--")
    }

    /// The arguments with negative numbers made unambiguous, or nil when there is none.
    static func rewrite(_ arguments: [String]) -> [String]? {
        guard arguments.contains(where: isNegativeNumber), !arguments.contains("--") else { return nil }
        var out: [String] = []
        var i = 0
        var positionalsFrom: Int? = nil
        while i < arguments.count {
            let t = arguments[i]
            if isNegativeNumber(t) {
                if let last = out.last, last.hasPrefix("--"), !last.contains("="), positionalsFrom == nil {
                    out[out.count - 1] = last + "=" + t
                } else if positionalsFrom == nil {
                    positionalsFrom = out.count
                    out.append(t)
                } else {
                    out.append(t)
                }
            } else {
                out.append(t)
            }
            i += 1
        }
        guard let p = positionalsFrom else { return out }
        // Everything from the first standalone negative number must be positional for
        // `--` to keep its meaning; an option after it keeps the original error.
        guard out[p...].allSatisfy({ !$0.hasPrefix("-") || isNegativeNumber($0) }) else { return nil }
        out.insert("--", at: p)
        return out
    }
}
