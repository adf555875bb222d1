import GeoModel

/// A device's compass headings, one per route point, read from text: one heading in degrees
/// clockwise from north per line; blank lines and `#` comments are skipped.
public enum CompassHeadings {
    /// A line that is not a heading: its 1-based number and its text.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var text: String

        public init(line: Int, text: String) {
            self.line = line
            self.text = text
        }

        public var description: String { "line \(line): not a heading in degrees: '\(text)'" }
    }

    public static func parse(_ text: String) throws(ParseError) -> [Double] {
        var values: [Double] = []
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let line = content.drop(while: { $0 == " " || $0 == "\t" })
            let trimmed = String(line.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
            if trimmed.isEmpty { continue }
            guard let v = DecimalText.parse(trimmed) else { throw ParseError(line: i + 1, text: trimmed) }
            values.append(v)
        }
        return values
    }
}
