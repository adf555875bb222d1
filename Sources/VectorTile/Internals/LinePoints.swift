import PBF

/// Whether a LINESTRING's points are decoded (`_DecodedLinePoints`, what `decodeGeometry`
/// does) or, for a handler whose `linePoint` does nothing, only checked where that can be
/// done without decoding them (`_SkippedLinePoints`, the validator's choice): chosen by
/// type, so each choice compiles to its own loop.
///
/// `_CheckedOnly` goes further, for a handler that ignores every call (the validator
/// without warnings): the LineTo pairs of a polygon's rings after the geometry's first are
/// checked as a line's are, and neither their points nor their kinds are computed. No MUST
/// rule needs them: only the first ring's kind is judged (D4; an exterior ring starts each
/// further polygon, §4.3.4.4), and a zero-area ring is a warning (D7). The handler hears
/// nothing of those rings but some of their points.
@usableFromInline protocol _LinePoints {
    static var skipped: Bool { get }
    static var laterRingsChecked: Bool { get }
}
@usableFromInline enum _DecodedLinePoints: _LinePoints {
    @inlinable static var skipped: Bool { false }
    @inlinable static var laterRingsChecked: Bool { false }
}
@usableFromInline enum _SkippedLinePoints: _LinePoints {
    @inlinable static var skipped: Bool { true }
    @inlinable static var laterRingsChecked: Bool { false }
}
@usableFromInline enum _CheckedOnly: _LinePoints {
    @inlinable static var skipped: Bool { true }
    @inlinable static var laterRingsChecked: Bool { true }
}

/// How far the `pairs` LineTo pairs from byte `start` of a packed record `end` bytes long
/// can be passed over without decoding them, for a handler that ignores line points: the
/// offset after the pairs taken, and how many pairs are left for the decoding loop, which
/// also reports any error among them.
///
/// The bytes are read eight at a time while they can be loaded (`loadable`, at least
/// `end`), each word at a fixed stride from `start`, so no load waits for the one before:
/// the varints ending in a word (a byte below 0x80, inside the record) are counted until
/// the pairs' values are all seen. A word ends the walk, and the whole pairs before it are
/// taken, when no varint ends in it, when five of its bytes in a row continue a varint
/// (which a varint too long to read needs, P1), when a byte 0x00 or 0x80 follows a byte
/// 0x80 (which a value of more than one byte read as zero needs), or when a pair's second
/// value is a zero byte after a zero byte (which a zero-length pair in its usual form
/// needs, C8), also across words. A zero byte is always a varint's end, so a value taken
/// here that reads as zero is the one-byte form, and a pair taken is not a zero-length
/// step; every value taken is a well-formed varint of at most nine bytes, which the
/// decoding loop takes as well (P10: its low 32 bits).
@inlinable @inline(__always)
func _checkLinePairs(_ b: UnsafeRawPointer, _ start: Int, _ end: Int, _ loadable: Int, _ pairs: Int) -> (Int, Int) {
    let need = pairs &* 2
    var q = start, before = 0
    var zeroBefore: UInt64 = 0, b80Before: UInt64 = 0
    while q &+ 8 <= loadable {
        // Safe: q + 8 <= loadable.
        let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: q, as: UInt64.self))
        let inRecord = _recordBytes(end &- q)
        let zero = _zeroBytes(w) & inRecord
        let b80 = _zeroBytes(w ^ 0x8080_8080_8080_8080) & inRecord
        let ends = ~w & 0x8080_8080_8080_8080 & inRecord
        // Byte i of `seen` counts the varints ending in bytes 0...i; its top byte counts
        // them all (a multiplication: baseline x86-64 has no population count).
        let seen = (ends &>> 7) &* 0x0101_0101_0101_0101
        // Bit 7 of each byte where the values seen so far, the one ending there included,
        // are even in number: a value ending there is a pair's second.
        let second = (~(seen ^ UInt64(truncatingIfNeeded: before & 1) &* 0x0101_0101_0101_0101)
            & 0x0101_0101_0101_0101) &<< 7
        // Five bytes in a row that continue a varint, within the word, are left to the
        // decoding loop: a varint of ten bytes or more has nine such bytes, five of them in
        // one word, so every value taken has at most nine bytes and is well formed.
        let more = w & 0x8080_8080_8080_8080 & inRecord
        // A value read as zero (its low 32 bits, P10) of two to four bytes ends in bytes
        // 0x80 0x00, and one of five bytes or more starts with four bytes 0x80; a zero byte
        // after a zero byte, as a pair's second value, ends a pair of zero values, a
        // zero-length step in its usual form (C8). A byte 0x00 or 0x80 after a byte 0x80,
        // and that pair of zero bytes, are left to the decoding loop, so a value taken that
        // reads as zero is one byte 0x00, and never both of a pair.
        let bad = (zero | b80) & (b80 &<< 8 | b80Before) | zero & (zero &<< 8 | zeroBefore) & second
            | _fiveInARow(more)
        guard bad == 0, ends != 0 else { break }
        let here = Int(truncatingIfNeeded: seen &>> 56)
        if before &+ here >= need {
            // The first byte where the count reaches what is still needed ends the last value.
            let last = _zeroBytes(seen ^ UInt64(truncatingIfNeeded: need &- before) &* 0x0101_0101_0101_0101)
                .trailingZeroBitCount &>> 3
            return (q &+ last &+ 1, 0)
        }
        before &+= here
        zeroBefore = zero &>> 56
        b80Before = b80 &>> 56
        q &+= 8
    }
    return _linePairsBefore(b, start, q, end, before, pairs)
}

/// Where `_checkLinePairs` stopped, at the word at `q`: the offset after the whole pairs
/// among the `before` values that end before it, and the pairs left. Every word from
/// `start` to `q` has a value ending in it, so the last of those values ends in the word
/// before `q` and the one before it there or in the word before that.
@usableFromInline @inline(never)
func _linePairsBefore(_ b: UnsafeRawPointer, _ start: Int, _ q: Int, _ end: Int, _ before: Int, _ pairs: Int) -> (Int, Int) {
    let take = before & ~1
    guard take > 0 else { return (start, pairs) }
    // Offset after the last varint ending in the word at `at` among those in `ends`.
    func after(_ ends: UInt64, _ at: Int) -> Int { at &+ (63 &- ends.leadingZeroBitCount) &>> 3 &+ 1 }
    func endsOfWord(_ at: Int) -> UInt64 {
        // Safe: the walk loaded this word.
        ~UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self)) & 0x8080_8080_8080_8080
            & _recordBytes(end &- at)
    }
    let last = endsOfWord(q &- 8)
    var position: Int
    if take == before {
        position = after(last, q &- 8)
    } else {
        let rest = last & ~(1 &<< UInt64(63 &- last.leadingZeroBitCount))
        position = rest != 0 ? after(rest, q &- 8) : after(endsOfWord(q &- 16), q &- 16)
    }
    return (position, pairs &- take &>> 1)
}

/// Nonzero when five consecutive bytes of `flags` (bit 7 of each byte) are set.
@inlinable @inline(__always)
func _fiveInARow(_ flags: UInt64) -> UInt64 {
    flags & flags &>> 8 & flags &>> 16 & flags &>> 24 & flags &>> 32
}

/// Bit 7 of each byte of `v` that is zero (exact: no carry crosses a byte).
@inlinable @inline(__always)
func _zeroBytes(_ v: UInt64) -> UInt64 {
    ~(((v & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | v) & 0x8080_8080_8080_8080
}

/// A mask of the low `n` bytes of a word (all of them when `n` is 8 or more; none when 0
/// or less). (A branch-free form with two shifts was slower: the branch is predicted.)
@inlinable @inline(__always)
func _recordBytes(_ n: Int) -> UInt64 {
    n >= 8 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: max(n, 0) &* 8)) &- 1
}
