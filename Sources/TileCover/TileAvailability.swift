/// When a tile source cannot answer: tiles listed with the updates at which a request for
/// them fails with "not available now" (a tile layer asks again on a later update).
///
/// The text form has one tile per line, `z/x/y UPDATES`, where UPDATES is `*` (every
/// update) or a comma-separated list of update numbers and inclusive ranges `A-B`; `#`
/// starts a comment. A tile may be listed on several lines.
public struct TileAvailability: Equatable, Sendable {
    /// A line that is not `z/x/y UPDATES`.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var reason: String
        public var description: String { "line \(line): \(reason): '\(text)'" }
    }

    var always: Set<TileID> = []
    var ranges: [TileID: [ClosedRange<Int>]] = [:]

    public init() {}

    /// Reads the text form.
    ///
    /// - Throws: `ParseError` with the line number of the first bad line.
    public init(parsing text: String) throws(ParseError) {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            func bad(_ why: String) -> ParseError { ParseError(line: n + 1, text: String(raw), reason: why) }
            guard fields.count == 2 else { throw bad("expected z/x/y and the updates") }
            let zxy = fields[0].split(separator: "/")
            guard zxy.count == 3, let z = Int(zxy[0]), let x = Int(zxy[1]), let y = Int(zxy[2]), let t = TileID(z: z, x: x, y: y) else {
                throw bad("not a tile z/x/y of the 2^z grid")
            }
            if fields[1] == "*" { always.insert(t); continue }
            for item in fields[1].split(separator: ",", omittingEmptySubsequences: false) {
                let ends = item.split(separator: "-", omittingEmptySubsequences: false)
                guard (1...2).contains(ends.count), let a = Int(ends[0]), let b = Int(ends.last!), a >= 0, a <= b else {
                    throw bad("updates must be *, N or A-B (0 ≤ A ≤ B), comma-separated")
                }
                ranges[t, default: []].append(a...b)
            }
        }
    }

    /// Whether a request for `t` at update `update` fails with "not available".
    public func isUnavailable(_ t: TileID, at update: Int) -> Bool {
        always.contains(t) || (ranges[t]?.contains { $0.contains(update) } ?? false)
    }

    /// Tiles listed.
    public var count: Int { always.union(ranges.keys).count }
}
