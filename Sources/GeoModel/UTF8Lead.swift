/// What a UTF-8 lead byte promises (RFC 3629 §4): how many continuation bytes follow and
/// the range the first of them must lie in (which rules out overlong forms, surrogates and
/// code points past U+10FFFF). The one table the readers of text formats share.
public struct UTF8Lead: Sendable, Equatable {
    /// Continuation bytes after the lead: 1 to 3.
    public let continuations: Int
    /// The allowed range of the first continuation byte.
    public let low: UInt8, high: UInt8

    /// The promise of a lead byte at or above 0x80; nil for a byte that cannot start a
    /// sequence (a continuation byte, 0xC0, 0xC1, 0xF5 and above).
    @inlinable @inline(__always)
    public init?(_ b: UInt8) {
        switch b {
        case 0xC2...0xDF: (continuations, low, high) = (1, 0x80, 0xBF)
        case 0xE0: (continuations, low, high) = (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (continuations, low, high) = (2, 0x80, 0xBF)
        case 0xED: (continuations, low, high) = (2, 0x80, 0x9F)
        case 0xF0: (continuations, low, high) = (3, 0x90, 0xBF)
        case 0xF1...0xF3: (continuations, low, high) = (3, 0x80, 0xBF)
        case 0xF4: (continuations, low, high) = (3, 0x80, 0x8F)
        default: return nil
        }
    }

    /// Whether the bytes after the lead, `at(1)...at(continuations)`, complete it.
    @inlinable @inline(__always)
    public func accepts(_ at: (Int) -> UInt8) -> Bool {
        let c1 = at(1)
        guard c1 >= low && c1 <= high else { return false }
        if continuations >= 2 && at(2) & 0xC0 != 0x80 { return false }
        if continuations == 3 && at(3) & 0xC0 != 0x80 { return false }
        return true
    }
}
