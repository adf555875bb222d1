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
        var counter = _LineCounter()
        if end > 0 { counter.advance(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), end) }
        self.init(offset: end, line: counter.line, column: counter.column)
    }

    public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
