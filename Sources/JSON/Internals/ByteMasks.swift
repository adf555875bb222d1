/// Tests on eight bytes at once (one little-endian word) for the string scanner and the
/// writer: each returns a word with the high bit of a byte set where that byte matches.
/// `mustEscape` is the same test on one byte.
///
/// Every term is exact at its lowest set bit: a subtraction borrows only out of a byte
/// that is itself flagged, so a false flag can only sit above a true one. Callers use the
/// lowest set bit (the first matching byte) or test for zero (any match).
@usableFromInline package enum _ByteMasks {
    @usableFromInline package static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline package static let high: UInt64 = 0x8080_8080_8080_8080

    /// True for `"`, `\` and bytes below 0x20: the bytes a JSON string must escape
    /// (RFC 8259 §7), one at a time.
    @inline(__always)
    @inlinable package static func mustEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }

    /// Bytes equal to `"` or `\`, or below 0x20: the bytes a JSON string must escape.
    @inline(__always)
    @inlinable package static func needsEscape(_ w: UInt64) -> UInt64 {
        let q = w ^ (ones &* 0x22)
        let bs = w ^ (ones &* 0x5C)
        let zeroQuote = (q &- ones) & ~q
        let zeroBackslash = (bs &- ones) & ~bs
        let control = (w &- ones &* 0x20) & ~w
        return (zeroQuote | zeroBackslash | control) & high
    }

    /// The bytes that end a run of plain string bytes for the reader: those of
    /// `needsEscape`, and bytes of 0x80 and above (UTF-8 that must be validated).
    @inline(__always)
    @inlinable package static func stringStop(_ w: UInt64) -> UInt64 {
        needsEscape(w) | (w & high)
    }
}
