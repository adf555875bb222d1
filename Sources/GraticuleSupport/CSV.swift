/// RFC 4180 CSV: fields holding a comma, a double quote, CR or LF are quoted and inner
/// quotes doubled. Records end with LF; the reader also accepts CRLF.
public enum CSV {
    /// Quotes one field when RFC 4180 requires it.
    ///
    /// - Complexity: O(field length).
    public static func escape(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"")
            || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else { return field }
        var out = "\""
        for ch in field {
            if ch == "\"" { out += "\"\"" } else { out.append(ch) }
        }
        return out + "\""
    }

    /// One record, fields escaped and joined, terminated by LF.
    public static func record(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\n"
    }

    /// A parse failure with the 1-based line where the bad record starts.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "CSV line \(line): \(reason)" }
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// Parses a whole document into records. Quoted fields may span lines.
    ///
    /// - Throws: `ParseError` for an unterminated quote or a stray quote inside an
    ///   unquoted field.
    /// - Complexity: O(n).
    public static func parse(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        let bytes = Array(text.utf8)
        var i = 0
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b); i += 2; continue
                    }
                    inQuotes = false
                } else {
                    if b == UInt8(ascii: "\n") { line += 1 }
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\""):
                guard field.isEmpty && !fieldWasQuoted else {
                    throw ParseError(line: line, reason: "quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            case UInt8(ascii: "\r") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\n"):
                endField()
                records.append(record)
                record = []
                line += 1
                recordLine = line
            default:
                field.append(b)
            }
            i += 1
        }
        if inQuotes { throw ParseError(line: recordLine, reason: "unterminated quoted field") }
        if !field.isEmpty || !record.isEmpty || fieldWasQuoted {
            endField()
            records.append(record)
        }
        return records
    }

    /// Formats a number for a report: integers without a fraction, others in Swift's
    /// shortest round-trip form; non-finite values as empty fields.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
