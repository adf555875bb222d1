import GeoModel

/// JSON number scanning and decimal-to-binary conversion (RFC 8259 §6), correctly rounded.
///
/// The conversion has three tiers, each exact where it answers:
/// 1. Clinger's fast path: a significand below 2^53 and a power of ten in 10^-22...10^22 are
///    both exact doubles, so one IEEE multiplication or division rounds once, correctly.
/// 2. The Eisel–Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per Second",
///    Software: Practice and Experience 51(8), 2021): a 64×128-bit product with a truncated
///    power of five (`Pow5Table.swift`), which settles all but a vanishing share of inputs and
///    says so when it cannot.
/// 3. Otherwise the text goes to the standard library's `Double(_:)`, which on Linux calls
///    glibc's `strtod_l` in the C locale; glibc rounds correctly with arbitrary precision.
///
/// Policies (documented in the module README section of the project README):
/// - A magnitude that rounds to infinity (`1e400`) is an error (`numberOutOfRange`): JSON
///   cannot carry infinities, and silently writing `inf` into a coordinate is data loss.
/// - A magnitude below the smallest subnormal rounds to ±0 (`1e-400` is 0), as strtod does.
/// - `-0`, `-0.0` and `-0e5` keep their sign (the double is -0.0).
@usableFromInline package struct ScannedNumber {
    /// The correctly rounded value.
    @usableFromInline package var double: Double
    /// True when the text had no fraction and no exponent.
    @usableFromInline package var isInteger: Bool
    /// For integers whose magnitude fits 64 bits: the exact magnitude.
    @usableFromInline package var exactMagnitude: UInt64?
    @usableFromInline package var negative: Bool

    @inlinable
    init(double: Double, isInteger: Bool, exactMagnitude: UInt64?, negative: Bool) {
        self.double = double
        self.isInteger = isInteger
        self.exactMagnitude = exactMagnitude
        self.negative = negative
    }

    /// The value as a property: integers that fit Int64 or UInt64 stay exact integers;
    /// everything else (fractions, exponents, `-0`, larger integers) is a double.
    @inlinable
    package var propertyValue: PropertyValue {
        if isInteger, let m = exactMagnitude, !(negative && m == 0) {
            if negative {
                if m <= UInt64(Int64.max) { return .int(-Int64(m)) }
                if m == UInt64(Int64.max) + 1 { return .int(Int64.min) }
                return .double(double)
            }
            if m <= UInt64(Int64.max) { return .int(Int64(m)) }
            return .uint(m)
        }
        return .double(double)
    }

    /// The value as a feature id (RFC 7946 §3.2), with the same integer rules.
    @usableFromInline package var featureID: FeatureID {
        switch propertyValue {
        case .int(let i): return .int(i)
        case .uint(let u): return .uint(u)
        default: return .double(double)
        }
    }
}

/// Why a number failed to scan; the offset is absolute within the scanned bytes.
@usableFromInline package enum NumberScanResult {
    case number(ScannedNumber, end: Int)
    /// The bytes ran out inside the number (a streaming reader fetches more and rescans).
    case incomplete
    case invalid(offset: Int, reason: String)
    case outOfRange
}

@usableFromInline package enum NumberParser {
    /// Powers of ten that are exact doubles (10^0...10^22).
    @usableFromInline package static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    @inlinable package static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// The eight bytes at `p` as a little-endian word.
    @inline(__always)
    @inlinable package static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// True when all eight bytes of `w` are ASCII digits: adding 6 to each byte carries a
    /// digit's low nibble into the high nibble only above '9', and '0'...'9' share the
    /// high nibble 3.
    @inline(__always)
    @inlinable package static func allDigits(_ w: UInt64) -> Bool {
        (w & 0xF0F0_F0F0_F0F0_F0F0) | (((w &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
            == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits (first digit in the lowest byte), by combining
    /// neighbours pairwise: 8 × 1 digit → 4 × 2 → 2 × 4 → 1 × 8, three multiplications.
    @inline(__always)
    @inlinable package static func eightDigitsValue(_ w: UInt64) -> UInt64 {
        var v = w &- 0x3030_3030_3030_3030
        v = (v &* 10) &+ (v >> 8)                                   // pairs in bytes 0, 2, 4, 6
        let pairs = v & 0x0000_00FF_0000_00FF                       // pairs 0 and 2 (bytes 0, 4)
        let pairs2 = (v >> 16) & 0x0000_00FF_0000_00FF              // pairs 1 and 3
        return ((pairs &* (100 + (1_000_000 << 32))) &+ (pairs2 &* (1 + (10_000 << 32)))) >> 32
    }

    /// How many of the eight bytes of `w` (first byte lowest) are ASCII digits before the
    /// first byte that is not, 0...8. After `^ 0x30` a digit is 0...9; adding 0x76 sets the
    /// high bit of every other byte below 0x80, and `| t` flags the bytes from 0x80 up. Only
    /// such a flagged byte can carry into the byte above it, so the lowest flag is exact.
    @inline(__always)
    @inlinable package static func leadingDigitCount(_ w: UInt64) -> Int {
        let t = w ^ 0x3030_3030_3030_3030
        let flags = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
        return flags == 0 ? 8 : flags.trailingZeroBitCount &>> 3
    }

    /// The value of the first `count` (1...7) bytes of `w`, which are ASCII digits: they are
    /// moved to the top of the word and '0's put below them, eight digits of the same value.
    @inline(__always)
    @inlinable package static func digitsValue(_ w: UInt64, count: Int) -> UInt64 {
        let top = UInt64(truncatingIfNeeded: 8 &* (8 &- count))
        return eightDigitsValue((w &<< top) | (0x3030_3030_3030_3030 &>> UInt64(truncatingIfNeeded: 8 &* count)))
    }

    /// 10^k for k in 0...8 as an integer.
    @inline(__always)
    @inlinable package static func integerPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        default: return 100_000_000
        }
    }

    /// Reads the run of digits at `i` into `w` (w × 10^k + their value) up to eight at a
    /// time, while at least eight bytes remain before `end`; stops after a run shorter than
    /// eight, or before a run that would make `limit` digits in `count`. Returns how many
    /// digits it read (the caller's byte loop reads whatever is left).
    @inline(__always)
    @inlinable package static func digitRuns(_ base: UnsafePointer<UInt8>, _ i: inout Int, end: Int, _ w: inout UInt64,
                                             count: Int, limit: Int) -> Int {
        var read = 0
        while i &+ 8 <= end {
            let word = load8(base + i)
            let k = leadingDigitCount(word)
            guard k > 0, count &+ read &+ k <= limit else { break }
            w = k == 8 ? w &* 100_000_000 &+ eightDigitsValue(word) : w &* integerPowerOfTen(k) &+ digitsValue(word, count: k)
            read &+= k
            i &+= k
            if k < 8 { break }
        }
        return read
    }

    /// The value of a short plain number at `start` (which holds `-` or a digit): at most
    /// 15 digits in all, no exponent, followed before `end` by a byte that cannot continue
    /// it. Nil for anything else, which `scan` decides.
    ///
    /// The digits of such a number form an integer w < 10^15 < 2^53 with f ≤ 15 of them
    /// after the point, so w / 10^f is one correctly rounded division of two exact doubles
    /// (Clinger's fast path): the value `scan` gives, with the same integer rules.
    @inline(__always)
    @inlinable package static func quick(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (value: PropertyValue, end: Int)? {
        var i = start
        // Safe: every read is guarded by `i < end`.
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        guard i < end else { return nil }
        let digitsStart = i
        var w: UInt64 = 0
        if base[i] == UInt8(ascii: "0") {
            i &+= 1
        } else {
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                w = w &* 10 &+ UInt64(d)
                i &+= 1
            }
            guard i > digitsStart else { return nil }
        }
        var fraction = 0
        if i < end && base[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                w = w &* 10 &+ UInt64(d)
                i &+= 1
            }
            fraction = i &- fractionStart
            guard fraction > 0 else { return nil }
        }
        let digits = i &- digitsStart &- (fraction > 0 ? 1 : 0)
        guard i < end, digits <= 15 else { return nil }
        let b = base[i]
        // A digit follows a leading zero; '.', 'e' and 'E' continue the number.
        if isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { return nil }
        if fraction == 0 {
            if negative { return (w == 0 ? .double(-0.0) : .int(-Int64(w)), i) }
            return (.int(Int64(w)), i)
        }
        let magnitude = Double(w) / exactPowersOfTen[fraction]
        return (.double(negative ? -magnitude : magnitude), i)
    }

    /// `quick` for a number read as a double (a coordinate): the same numbers, the same
    /// value (an integer's exact double, `-0` as -0.0), without building a property value.
    ///
    /// Its digit scan is `quick`'s, written again on purpose: the two sharing one inlined
    /// helper that returns the digits, the point's place, the sign and the end cost 0.5 to
    /// 0.9% more instructions in every `geojson.parse` mode on points-2k (about 14 per
    /// number), the helper's tuple not being taken apart as well as this straight code.
    @inline(__always)
    @inlinable package static func quickDouble(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (value: Double, end: Int)? {
        var i = start
        // Safe: every read is guarded by `i < end`.
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        guard i < end else { return nil }
        let digitsStart = i
        var w: UInt64 = 0
        if base[i] == UInt8(ascii: "0") {
            i &+= 1
        } else {
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                w = w &* 10 &+ UInt64(d)
                i &+= 1
            }
            guard i > digitsStart else { return nil }
        }
        var fraction = 0
        if i < end && base[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            _ = digitRuns(base, &i, end: end, &w, count: 0, limit: 24)
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                w = w &* 10 &+ UInt64(d)
                i &+= 1
            }
            fraction = i &- fractionStart
            guard fraction > 0 else { return nil }
        }
        let digits = i &- digitsStart &- (fraction > 0 ? 1 : 0)
        guard i < end, digits <= 15 else { return nil }
        let b = base[i]
        if isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { return nil }
        let magnitude = fraction == 0 ? Double(w) : Double(w) / exactPowerOfTen(fraction)
        return (negative ? -magnitude : magnitude, i)
    }

    /// 10^k for k in 0...15, exact doubles, from a switch (no table to initialise).
    @inline(__always)
    @inlinable package static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        default: return 1e15
        }
    }

    /// Checks the grammar of the number at `start` (which holds `-` or a digit) without
    /// converting it, for numbers that are skipped. Returns the offset after it, or nil
    /// when `scan` must decide: bad grammar (so the error and its offset are `scan`'s), an
    /// exponent or an integer part of over 300 digits (either may be out of range), or a
    /// number that touches `end`.
    ///
    /// Without an exponent, a number with at most 300 integer digits is below 10^300, so
    /// it is finite whatever its fraction: nothing `scan` would reject is accepted here.
    @inline(__always)
    @inlinable package static func skim(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Int? {
        var i = start
        // Safe: every read is guarded by `i < end` or `i + 8 <= end`.
        if base[i] == UInt8(ascii: "-") {
            i &+= 1
            guard i < end else { return nil }
        }
        let first = base[i]
        if first == UInt8(ascii: "0") {
            i &+= 1
        } else if isDigit(first) {
            let integerStart = i
            while i &+ 8 <= end && allDigits(load8(base + i)) { i &+= 8 }
            while i < end && isDigit(base[i]) { i &+= 1 }
            guard i &- integerStart <= 300 else { return nil }
        } else {
            return nil
        }
        if i < end && base[i] == UInt8(ascii: ".") {
            i &+= 1
            guard i < end && isDigit(base[i]) else { return nil }
            while i &+ 8 <= end && allDigits(load8(base + i)) { i &+= 8 }
            while i < end && isDigit(base[i]) { i &+= 1 }
        }
        guard i < end else { return nil }
        let b = base[i]
        // A digit here follows a leading zero; an exponent needs the range check.
        if isDigit(b) || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { return nil }
        return i
    }

    /// Scans one JSON number starting at `start` (which holds `-` or a digit) in
    /// `base[start..<end]`. `atEnd` says whether the input really ends at `end` (otherwise a
    /// number touching `end` is `incomplete`).
    ///
    /// - Complexity: O(length of the number); allocates nothing except in the rare exact
    ///   fallback.
    @inline(__always)
    @inlinable package static func scan(_ base: UnsafePointer<UInt8>, start: Int, end: Int, atEnd: Bool) -> NumberScanResult {
        var i = start
        var negative = false
        // Safe: every read below is guarded by `i < end`.
        if base[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
            guard i < end else { return atEnd ? .invalid(offset: i, reason: "a minus sign must be followed by a digit") : .incomplete }
        }
        var w: UInt64 = 0          // up to 19 significant digits
        var significant = 0        // significant digits seen (leading zeros excluded)
        var dropped = false        // digits beyond the 19th were seen
        var exponent10 = 0         // adjustment of the decimal point for w
        var isInteger = true

        let first = base[i]
        if first == UInt8(ascii: "0") {
            i += 1
            if i < end, isDigit(base[i]) {
                return .invalid(offset: i, reason: "a number must not have leading zeros")
            }
        } else if isDigit(first) {
            // Integer part: the first 19 digits fit UInt64 exactly. One by one: integer
            // parts are mostly short (coordinates, counts), where a run costs more.
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                if significant < 19 {
                    w = w &* 10 &+ UInt64(d)
                    significant += 1
                } else {
                    dropped = true
                    exponent10 += 1
                }
                i += 1
            }
        } else {
            return .invalid(offset: i, reason: "expected a digit")
        }
        if i < end, base[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < end else { return atEnd ? .invalid(offset: i, reason: "a decimal point must be followed by a digit") : .incomplete }
            guard isDigit(base[i]) else { return .invalid(offset: i, reason: "a decimal point must be followed by a digit") }
            // Leading zeros of the fraction (0.000123) are not significant digits.
            if significant == 0 {
                while i < end && base[i] == UInt8(ascii: "0") {
                    exponent10 -= 1
                    i += 1
                }
            }
            // Then runs of up to eight digits while they fit the 19-digit significand (with
            // no significant digit yet, the run starts at a nonzero digit or ends at once).
            let run = digitRuns(base, &i, end: end, &w, count: significant, limit: 19)
            significant += run
            exponent10 -= run
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                if significant == 0 && d == 0 {
                    exponent10 -= 1     // a leading zero of the fraction: not significant
                } else if significant < 19 {
                    w = w &* 10 &+ UInt64(d)
                    significant += 1
                    exponent10 -= 1
                } else {
                    dropped = true
                }
                i += 1
            }
        }
        if i < end, base[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            guard i < end else { return atEnd ? .invalid(offset: i, reason: "an exponent must have digits") : .incomplete }
            var expNegative = false
            if base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") {
                expNegative = base[i] == UInt8(ascii: "-")
                i += 1
                guard i < end else { return atEnd ? .invalid(offset: i, reason: "an exponent must have digits") : .incomplete }
            }
            guard isDigit(base[i]) else { return .invalid(offset: i, reason: "an exponent must have digits") }
            var e = 0
            while i < end {
                let d = base[i] &- 0x30
                if d >= 10 { break }
                if e < 1_000_000 { e = e * 10 + Int(d) }   // saturate: far beyond any double
                i += 1
            }
            exponent10 += expNegative ? -e : e
        }
        if i == end && !atEnd { return .incomplete }

        var result = ScannedNumber(double: 0, isInteger: isInteger, exactMagnitude: nil, negative: negative)
        if isInteger && !dropped { result.exactMagnitude = w }

        if w == 0 {
            result.double = negative ? -0.0 : 0.0
            if isInteger { result.exactMagnitude = 0 }
            return .number(result, end: i)
        }
        if isInteger && dropped {
            // A 20-digit integer may still fit UInt64 exactly (up to 18446744073709551615).
            result.exactMagnitude = exactIntegerMagnitude(base, from: negative ? start + 1 : start, to: i)
        }

        var value: Double?
        if !dropped {
            if w <= 1 << 53 && exponent10 >= -22 && exponent10 <= 22 {
                let d = Double(w)
                value = exponent10 < 0 ? d / exactPowersOfTen[-exponent10] : d * exactPowersOfTen[exponent10]
            } else {
                value = eiselLemire(w, exponent10)
            }
        } else {
            // The true significand lies in [w, w+1) × 10^q: if both ends round the same way,
            // so does everything between.
            if let a = eiselLemire(w, exponent10), let b = eiselLemire(w + 1, exponent10), a == b {
                value = a
            }
        }
        let magnitude: Double
        if let value {
            magnitude = value
        } else {
            magnitude = exactFallback(base, from: negative ? start + 1 : start, to: i)
        }
        if magnitude.isInfinite { return .outOfRange }
        result.double = negative ? -magnitude : magnitude
        return .number(result, end: i)
    }

    /// The magnitude of a decimal integer's digits, nil when it exceeds UInt64.
    @inlinable package static func exactIntegerMagnitude(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> UInt64? {
        var m: UInt64 = 0
        for j in from..<to {
            let (a, o1) = m.multipliedReportingOverflow(by: 10)
            let (b, o2) = a.addingReportingOverflow(UInt64(base[j] &- 0x30))
            if o1 || o2 { return nil }
            m = b
        }
        return m
    }

    /// Correct rounding by the standard library (glibc `strtod_l`, C locale) for the few
    /// inputs the fast tiers cannot settle. The digits are plain ASCII JSON number text,
    /// a grammar `Double(_:)` accepts.
    @inline(never)
    @inlinable package static func exactFallback(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Double {
        let text = String(decoding: UnsafeBufferPointer(start: base + from, count: to - from), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// Eisel–Lemire: the double nearest to w × 10^q for a nonzero w, or nil when the
    /// truncated product cannot decide the rounding. Returns +infinity on overflow.
    @inline(__always)
    @inlinable package static func eiselLemire(_ w: UInt64, _ q: Int) -> Double? {
        if q < pow5MinExponent { return 0 }
        if q > pow5MaxExponent { return .infinity }
        let lz = w.leadingZeroBitCount
        let ws = w << UInt64(lz)
        let index = 2 * (q - pow5MinExponent)
        // Safe: index is within the table because q is within its exponent range.
        let (hiWord, loWord) = pow5Table.withUnsafeBufferPointer { ($0[index], $0[index + 1]) }
        var (high, low) = ws.multipliedFullWidth(by: hiWord)
        // 55 bits are needed (52 + the implicit bit + the rounding bits); if the bits below
        // them are all ones, the lower word of the power can still carry into them.
        let precisionMask: UInt64 = 0xFFFF_FFFF_FFFF_FFFF >> 55
        if high & precisionMask == precisionMask {
            let (high2, _) = ws.multipliedFullWidth(by: loWord)
            let (sum, carry) = low.addingReportingOverflow(high2)
            low = sum
            if carry { high &+= 1 }
            if high & precisionMask == precisionMask && low == UInt64.max && (q < -27 || q > 55) {
                return nil
            }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 64 - 52 - 3)
        var mantissa = high >> shift
        // floor(log2(10^q)) + 63, by Lemire's integer approximation; minus the normalisation.
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - lz + 1023

        if power2 <= 0 {
            // Subnormal result.
            if -power2 + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            power2 = mantissa < (1 << 52) ? 0 : 1
            return Double(bitPattern: UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1)))
        }
        // A product that is exactly halfway between two doubles rounds to even; this can
        // only happen for small |q|, where the product is exact.
        if low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && (mantissa << shift) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return .infinity }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
