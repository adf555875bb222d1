/// Shortest round-trip decimal form of a double, for the writer's common range
/// (1e-8 ≤ |v| < 1e15), without building a String.
///
/// The shortest decimal that reads back to v has at most 17 significant digits. Candidates
/// with 15, 16 and 17 digits are computed and each is *verified* by reading it back with
/// the exact conversion (Clinger's fast path for 15 digits, Eisel–Lemire for 16 and 17), so
/// every result is correct by construction; a candidate that cannot be verified falls back
/// to the standard library's formatting. Shortest: a decimal with fewer than 15 digits that
/// reads back to v lies within 2^−53·|v| of v, so the 15-digit rounding of v equals it
/// followed by zeros, which are stripped.
@usableFromInline package enum _ShortestDecimal {
    @usableFromInline package static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    @usableFromInline package static let powersOfFive: [UInt64] = {
        var p: [UInt64] = [1]
        for _ in 1...27 { p.append(p.last! &* 5) }
        return p
    }()

    /// (m, k) with v = m × 10^−k read back exactly and m without trailing zeros (unless
    /// k is 0), or nil outside the range or when a candidate cannot be verified.
    @inline(__always)
    @inlinable package static func decompose(_ v: Double) -> (m: UInt64, k: Int)? {
        guard v >= 1e-8, v < 1e15 else { return nil }
        // floor(log10 v) from the binary exponent, corrected against exact powers of ten.
        // floor(e2 · log10 2) = (e2 · 78913) >> 18 for |e2| < 2^11 (no libm call).
        var e10 = (Int(v.exponent) &* 78_913) >> 18
        let p10 = NumberParser.exactPowersOfTen
        if e10 + 1 >= 0, e10 + 1 <= 22, v >= p10[e10 + 1] { e10 += 1 }
        if e10 >= 0, e10 <= 22, v < p10[e10] { e10 -= 1 }
        if e10 < 0, -e10 <= 22, v >= 1 / p10[-e10] * 10 { e10 += 1 }

        // 15 significant digits: m = round(v × 10^k), verified by one exact division.
        let k15 = 14 - e10
        if k15 >= 0 && k15 <= 22 {
            let scale = p10[k15]
            // + 0.5 and truncation (rounding ties up, which the verification below makes
            // harmless) instead of a libm round call.
            let approx = v * scale + 0.5
            if approx >= 1 && approx < 9_007_199_254_740_992 {
                // If some m with at most 15 digits reads back to v, then |v·10^k − m| ≤ 0.11
                // and the computed product is within 0.06 of v·10^k, so it rounds to m:
                // one candidate suffices.
                let m = UInt64(approx)
                if Double(m) / scale == v {
                    return stripZeros(m, k15)
                }
            }
        }
        // 16, then 17 digits, computed exactly from the binary significand.
        let significand = v.significandBitPattern | (1 << 52)
        let e2 = Int(v.exponent) - 52
        for digits in 16...17 {
            let k = digits - 1 - e10
            guard k >= 0 && k <= 27, let m = roundedProduct(significand, e2, k) else { return nil }
            if NumberParser.eiselLemire(m, -k) == v {
                return stripZeros(m, k)
            }
        }
        return nil
    }

    /// m × 10^−k with trailing zeros of m removed while k > 0: eight, four, two, then one
    /// at a time (a 15-digit candidate of a short number has up to 14; one by one they
    /// were 8% of the instructions of writing a property-heavy file).
    @inline(__always)
    @inlinable package static func stripZeros(_ m: UInt64, _ k: Int) -> (m: UInt64, k: Int) {
        var mm = m, kk = k
        if kk >= 8 && mm % 100_000_000 == 0 { mm /= 100_000_000; kk -= 8 }
        if kk >= 4 && mm % 10_000 == 0 { mm /= 10_000; kk -= 4 }
        if kk >= 2 && mm % 100 == 0 { mm /= 100; kk -= 2 }
        while kk > 0 && mm % 10 == 0 {
            mm /= 10
            kk -= 1
        }
        return (mm, kk)
    }

    /// round(M × 2^e2 × 10^k) with ties to even, exactly, for k ≤ 27; nil if it does not
    /// fit 64 bits.
    @inline(__always)
    @inlinable package static func roundedProduct(_ significand: UInt64, _ e2: Int, _ k: Int) -> UInt64? {
        let five = powersOfFive[k]                                   // 5^27 < 2^63
        let (hi, lo) = significand.multipliedFullWidth(by: five)     // exact, < 2^116
        let shift = e2 + k
        if shift >= 0 {
            guard hi == 0, shift < 64, lo.leadingZeroBitCount > shift else { return nil }
            return lo << UInt64(shift)
        }
        let s = -shift
        guard s < 128 else { return 0 }
        // (hi:lo) >> s, with the bits shifted out deciding the rounding.
        let q: UInt64, restHigh: Bool, restExactHalf: Bool
        if s >= 64 {
            let s2 = s - 64
            guard s2 < 64 else { return 0 }
            q = hi >> UInt64(s2)
            let remHi = s2 == 0 ? 0 : hi & ((1 << UInt64(s2)) - 1)
            let half: UInt64 = s2 == 0 ? 0 : 1 << UInt64(s2 - 1)
            if s2 == 0 {
                restHigh = lo > 1 << 63
                restExactHalf = lo == 1 << 63
            } else {
                restHigh = remHi > half || (remHi == half && lo > 0)
                restExactHalf = remHi == half && lo == 0
            }
        } else {
            guard hi >> UInt64(s) == 0 else { return nil }                  // result ≥ 2^64
            q = (hi << UInt64(64 - s)) | (lo >> UInt64(s))
            let rem = lo & ((1 << UInt64(s)) - 1)
            let half: UInt64 = 1 << UInt64(s - 1)
            restHigh = rem > half
            restExactHalf = rem == half
        }
        if restHigh || (restExactHalf && q & 1 == 1) { return q + 1 }
        return q
    }

    /// Renders m × 10^−k in fixed notation (at least one digit before the point; `.0`
    /// when k is 0) ending just before `end`, right to left; returns the start.
    ///
    /// The k fraction digits come first, two per division (zeros once m runs out, which
    /// pads 0.00…), then the point, then the integer part the same way: no test of
    /// where the point falls inside the loops.
    /// - Precondition: 48 bytes are writable before `end`.
    @inline(__always)
    @inlinable package static func render(negative: Bool, m: UInt64, k: Int, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = end
        var x = m
        if k == 0 {
            p -= 2
            p[0] = UInt8(ascii: "."); p[1] = UInt8(ascii: "0")
        } else {
            var left = k
            while left >= 2 {
                putPair(&p, Int(x % 100))
                x /= 100
                left -= 2
            }
            if left == 1 {
                p -= 1
                p.pointee = UInt8(truncatingIfNeeded: x % 10) &+ 0x30
                x /= 10
            }
            p -= 1
            p.pointee = UInt8(ascii: ".")
        }
        while x >= 100 {
            putPair(&p, Int(x % 100))
            x /= 100
        }
        if x >= 10 {
            putPair(&p, Int(x))
        } else {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: x) &+ 0x30
        }
        if negative {
            p -= 1
            p.pointee = UInt8(ascii: "-")
        }
        return p
    }

    /// Writes the two digits of `r` (0...99) just before `p` and moves `p` back to them.
    @inline(__always)
    @inlinable package static func putPair(_ p: inout UnsafeMutablePointer<UInt8>, _ r: Int) {
        let pairs = digitPairs.utf8Start
        p -= 2
        p[0] = pairs[2 * r]
        p[1] = pairs[2 * r + 1]
    }

    /// Renders a decimal integer ending just before `end` (at most 20 bytes), right to
    /// left; returns the start.
    @inline(__always)
    @inlinable package static func renderInteger(_ v: Int64, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = end
        var x = v.magnitude
        repeat {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: x % 10) &+ 0x30
            x /= 10
        } while x > 0
        if v < 0 {
            p -= 1
            p.pointee = UInt8(ascii: "-")
        }
        return p
    }

    /// Any finite or non-finite double as JSON text into `out` (at least 48 bytes), returning
    /// the length: `null` for NaN and infinities; integers below 2^53 without a fraction
    /// when `compactIntegers`; the verified shortest digits; else the standard library's.
    @inline(__always)
    @inlinable package static func renderNumber(_ d: Double, compactIntegers: Bool, into out: UnsafeMutablePointer<UInt8>) -> Int {
        if !d.isFinite {
            out[0] = UInt8(ascii: "n"); out[1] = UInt8(ascii: "u"); out[2] = UInt8(ascii: "l"); out[3] = UInt8(ascii: "l")
            return 4
        }
        if d == 0 && (!compactIntegers || d.sign == .minus) {
            // Zero is outside `decompose`'s range; written as the standard library does.
            let text: StaticString = d.sign == .minus ? "-0.0" : "0.0"
            out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            return text.utf8CodeUnitCount
        }
        let end = out + 48
        if compactIntegers, d == d.rounded(.towardZero), abs(d) < 9_007_199_254_740_992, !(d == 0 && d.sign == .minus) {
            let p = renderInteger(Int64(d), endingAt: end)
            let n = end - p
            out.update(from: p, count: n)
            return n
        }
        if let (m, k) = decompose(abs(d)) {
            let p = render(negative: d < 0, m: m, k: k, endingAt: end)
            let n = end - p
            out.update(from: p, count: n)
            return n
        }
        var text = d.description
        return text.withUTF8 { u in
            out.update(from: u.baseAddress!, count: u.count)
            return u.count
        }
    }
}
