/// Why a GPX file cannot be read.
public struct GPXError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    /// Byte offset from the start of the input, and the 1-based line and column there.
    public let offset: Int
    public let line: Int
    public let column: Int

    public var description: String { "\(reason) at line \(line), column \(column) (byte \(offset))" }
}
