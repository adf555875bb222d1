/// A position in a JSON text: byte offset, 1-based line and 1-based column.
///
/// Columns count Unicode scalars, not bytes, so they match what an editor shows; a CR LF
/// pair, a lone CR and a lone LF each end one line (RFC 8259 §2 allows all three as
/// whitespace). Errors of this module carry one of these.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The location of `offset` in `bytes` (clamped to the end).
    ///
    /// Used only when an error is reported, so the scan from the start is not on any hot path.
    /// - Complexity: O(offset); allocates nothing.
    public init(offset: Int, in bytes: UnsafeRawBufferPointer) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        var i = 0
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1; column = 1
            } else if b == 0x0D {
                if i + 1 < end, bytes[i + 1] == 0x0A { i += 1 }
                line += 1; column = 1
            } else if b & 0xC0 != 0x80 {
                // Count a UTF-8 lead byte or ASCII byte, not continuation bytes.
                column += 1
            }
            i += 1
        }
        self.init(offset: end, line: line, column: column)
    }

    public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
