/// A geometry command integer (MVT 2.1 §4.3.1): the command id in the low 3 bits and the
/// repeat count in the high 29 bits.
///
/// This module will hold the lazy tile decoder, encoder and validator; the command integer
/// is its first piece.
public struct CommandInteger: Equatable, Sendable {
    /// Geometry commands (§4.3.3).
    public enum Command: UInt32, Sendable {
        case moveTo = 1
        case lineTo = 2
        case closePath = 7
    }

    /// The raw id (1, 2 and 7 are defined; anything else is invalid per §4.3.1).
    public var id: UInt32
    /// How many times the command repeats (0 ..< 2^29).
    public var count: UInt32

    /// Splits a raw command integer.
    public init(raw: UInt32) {
        id = raw & 0x7
        count = raw >> 3
    }

    /// - Precondition: `count < 2^29`.
    public init(_ command: Command, count: UInt32) {
        precondition(count < 1 << 29, "command count beyond 29 bits")
        id = command.rawValue
        self.count = count
    }

    /// The command, or nil for an id the spec does not define.
    public var command: Command? { Command(rawValue: id) }

    /// The encoded integer: `(id & 0x7) | (count << 3)`.
    public var raw: UInt32 { (id & 0x7) | (count << 3) }
}
