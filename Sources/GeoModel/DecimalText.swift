/// Numbers written in text files and on the command line, read as decimals only.
///
/// `Double(_:)` also accepts hexadecimal (`0x10` is 16), `inf`, `infinity` and `nan` in any
/// case: text that no format the project reads allows for a coordinate, a heading or a zoom,
/// and that would otherwise be taken silently for a number.
public enum DecimalText {
    /// The value of `text` when it is a decimal number: an optional sign, digits with an
    /// optional fraction (`12`, `12.5`, `12.`, `.5`), and, when `exponent` allows, an
    /// exponent (`1e-3`); nil for anything else, spaces included, and for a value too large
    /// for a double.
    ///
    /// - Parameters:
    ///   - text: the number's text.
    ///   - exponent: whether an exponent is allowed (XML Schema's `xsd:decimal`, which GPX
    ///     uses for coordinates and headings, has none).
    public static func parse<S: StringProtocol>(_ text: S, exponent: Bool = true) -> Double? {
        var digits = 0
        var i = text.utf8.startIndex
        let u = text.utf8, end = u.endIndex
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        if i < end && (u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-")) { i = u.index(after: i) }
        while i < end && isDigit(u[i]) { digits += 1; i = u.index(after: i) }
        if i < end && u[i] == UInt8(ascii: ".") {
            i = u.index(after: i)
            while i < end && isDigit(u[i]) { digits += 1; i = u.index(after: i) }
        }
        guard digits > 0 else { return nil }
        if exponent && i < end && (u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E")) {
            i = u.index(after: i)
            if i < end && (u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-")) { i = u.index(after: i) }
            var exponentDigits = 0
            while i < end && isDigit(u[i]) { exponentDigits += 1; i = u.index(after: i) }
            guard exponentDigits > 0 else { return nil }
        }
        guard i == end, let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }
}
