/// Why a JSON text, or a format read on top of JSON (GeoJSON), was rejected, where, and in
/// which member.
///
/// `location` is the byte offset, line and column of the offending byte (for a truncated
/// input: the end); `path` names the member, as in `features[1234].geometry.coordinates[0][5]`.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        // JSON layer (RFC 8259)
        /// The input ended inside a value (a truncated document).
        case unexpectedEnd
        /// A byte that the grammar does not allow here; `expected` says what would fit.
        case unexpectedByte(UInt8, expected: String)
        /// Bytes that are not UTF-8 (RFC 8259 §8.1): overlong forms, surrogates, code points
        /// above U+10FFFF, stray continuation bytes, truncated sequences.
        case invalidUTF8
        /// A backslash escape that RFC 8259 §7 does not define, or a lone surrogate escape.
        case invalidEscape
        /// An unescaped control character (below U+0020) inside a string (RFC 8259 §7).
        case controlCharacterInString
        /// A number outside the RFC 8259 §6 grammar (`01`, `1.`, `.5`, `+1`, ...).
        case invalidNumber(String)
        /// A number whose magnitude rounds to infinity as a double (`1e400`).
        case numberOutOfRange
        /// Objects and arrays nested deeper than the reader's limit.
        case depthLimitExceeded(Int)
        /// Something other than whitespace after the end of the text.
        case trailingContent
        /// A member that a format on top of JSON allows once, twice in one object (GeoJSON's
        /// `type`, `coordinates`, ...).
        case duplicateMember(String)

        /// The byte source failed (an I/O error, not bad data).
        case readFailed(String)

        // The format read on top of JSON (GeoJSON, RFC 7946)
        /// The text is JSON but not the GeoJSON the rule requires; `rule` names the section
        /// (`RFC 7946 §3.1.6`). Raised by the `GeoJSON` module, never by this one.
        case invalidGeoJSON(rule: String, message: String)
    }

    public var kind: Kind
    public var location: SourceLocation
    /// Member path components from the root, outermost first.
    public var path: [JSONPathComponent]

    public init(kind: Kind, location: SourceLocation, path: [JSONPathComponent] = []) {
        self.kind = kind
        self.location = location
        self.path = path
    }

    /// The path as text: `features[3].geometry.coordinates[0]`; `$` for the root.
    public var pathString: String {
        var s = ""
        for c in path {
            switch c {
            case .key(let k):
                if !s.isEmpty { s += "." }
                s += k
            case .index(let i):
                s += "[\(i)]"
            }
        }
        return s.isEmpty ? "$" : s
    }

    public var description: String { "\(reason) at \(location), in \(pathString)" }

    /// What is wrong, without the location.
    public var reason: String {
        let what: String
        switch kind {
        case .unexpectedEnd: what = "unexpected end of input"
        case .unexpectedByte(let b, let expected):
            let shown = b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16)
            what = "unexpected \(shown), expected \(expected)"
        case .invalidUTF8: what = "invalid UTF-8 (RFC 8259 §8.1)"
        case .invalidEscape: what = "invalid escape sequence (RFC 8259 §7)"
        case .controlCharacterInString: what = "unescaped control character in a string (RFC 8259 §7)"
        case .invalidNumber(let why): what = "invalid number: \(why) (RFC 8259 §6)"
        case .numberOutOfRange: what = "number out of the range of a double"
        case .depthLimitExceeded(let n): what = "nesting deeper than \(n)"
        case .trailingContent: what = "content after the end of the JSON text"
        case .duplicateMember(let k): what = "duplicate member \"\(k)\""
        case .readFailed(let message): what = "read failed: \(message)"
        case .invalidGeoJSON(let rule, let message): what = "\(message) (\(rule))"
        }
        return what
    }
}

/// One step of a member path: an object member name or an array index.
public enum JSONPathComponent: Equatable, Hashable, Sendable {
    case key(String)
    case index(Int)
}
