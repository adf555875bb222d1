import GeoModel

extension JSONTokenizer {
    // MARK: Whitespace and punctuation

    @inline(__always)
    @inlinable package static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Skips whitespace and returns the next byte without consuming it; nil at the end.
    @inline(__always)
    @inlinable package mutating func peekNonWhitespace() throws(JSONError) -> UInt8? {
        while true {
            while pos < end {
                let b = base[pos]
                if b > 0x20 || !JSONTokenizer.isWhitespace(b) { return b }
                pos += 1
            }
            if try !refill() { return nil }
        }
    }

    /// The next non-whitespace byte, consumed; an error at the end of input.
    @inline(__always)
    @inlinable package mutating func nextNonWhitespace(expected: String) throws(JSONError) -> UInt8 {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        pos += 1
        return b
    }

    /// Consumes `byte` after optional whitespace, or throws naming `expected`.
    @inline(__always)
    @inlinable package mutating func expect(_ byte: UInt8, _ expected: String) throws(JSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        guard b == byte else { throw error(.unexpectedByte(b, expected: expected), at: pos) }
        pos += 1
    }

    /// Skips a leading UTF-8 byte order mark (RFC 8259 §8.1 lets parsers ignore it).
    @inlinable package mutating func skipBOM() throws(JSONError) {
        while end - pos < 3 && !atEnd { _ = try refill() }
        if end - pos >= 3, base[pos] == 0xEF, base[pos + 1] == 0xBB, base[pos + 2] == 0xBF { pos += 3 }
    }

    /// After an array element: consumes `,` (true: another element follows) or `]`
    /// (false: the array ended).
    @inline(__always)
    @inlinable package mutating func afterArrayElement() throws(JSONError) -> Bool {
        let d = try nextNonWhitespace(expected: "',' or ']'")
        if d == UInt8(ascii: "]") { return false }
        guard d == UInt8(ascii: ",") else { throw error(.unexpectedByte(d, expected: "',' or ']'"), at: pos - 1) }
        return true
    }

    // MARK: Numbers

    /// Reads a number at `pos` (after whitespace was skipped).
    @inline(__always)
    @inlinable package mutating func readNumber() throws(JSONError) -> ScannedNumber {
        while true {
            switch NumberParser.scan(base, start: pos, end: end, atEnd: atEnd) {
            case .number(let n, let e):
                pos = e
                return n
            case .incomplete:
                _ = try refill()
            case .invalid(let at, let reason):
                throw error(.invalidNumber(reason), at: at)
            case .outOfRange:
                throw error(.numberOutOfRange, at: pos)
            }
        }
    }

    // MARK: Literals

    /// Reads `true`, `false` or `null` starting at `pos`.
    @inlinable package mutating func readLiteral() throws(JSONError) -> PropertyValue {
        if pos &+ 4 <= end {
            // Safe: four bytes from `pos` lie in the window.
            let w = UInt32(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt32.self))
            switch w {
            case 0x6C6C_756E: pos &+= 4; return .null                    // "null"
            case 0x6575_7274: pos &+= 4; return .bool(true)              // "true"
            case 0x736C_6166 where pos &+ 5 <= end && base[pos &+ 4] == UInt8(ascii: "e"):
                pos &+= 5; return .bool(false)                           // "false"
            default: break
            }
        }
        let b = base[pos]
        let word: StaticString = b == UInt8(ascii: "t") ? "true" : b == UInt8(ascii: "f") ? "false" : "null"
        let n = word.utf8CodeUnitCount
        while end - pos < n && !atEnd { _ = try refill() }
        let w = word.utf8Start
        for k in 0..<n {
            guard pos + k < end else { throw error(.unexpectedEnd, at: end) }
            guard base[pos + k] == w[k] else {
                throw error(.unexpectedByte(base[pos + k], expected: "a JSON value"), at: pos + k)
            }
        }
        pos += n
        switch b {
        case UInt8(ascii: "t"): return .bool(true)
        case UInt8(ascii: "f"): return .bool(false)
        default: return .null
        }
    }

    // MARK: Strings

    /// Scans the string whose opening quote is at `pos`: validates it, leaves `pos` after
    /// the closing quote and returns the window range of its contents (valid until the
    /// next refill) and whether it holds escapes.
    @inline(__always)
    @inlinable package mutating func scanString() throws(JSONError) -> (start: Int, end: Int, escaped: Bool) {
        while true {
            var i = pos + 1
            var escaped = false
            // Safe: every read is guarded by `i < end`, `i + 8 <= end` or by the explicit
            // length checks.
            scan: while true {
                // Plain ASCII eight bytes at a time; stop at the first byte that needs a look.
                while i &+ 8 <= end {
                    let m = _ByteMasks.stringStop(NumberParser.load8(base + i))
                    if m != 0 {
                        i &+= m.trailingZeroBitCount >> 3
                        break
                    }
                    i &+= 8
                }
                guard i < end else { break scan }
                let b = base[i]
                if b == UInt8(ascii: "\"") {
                    let start = pos + 1
                    pos = i + 1
                    return (start, i, escaped)
                }
                if b >= 0x20 && b < 0x80 && b != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if b == UInt8(ascii: "\\") {
                    escaped = true
                    guard i + 1 < end else { break scan }
                    switch base[i + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 2
                    case UInt8(ascii: "u"):
                        guard i + 6 <= end else { break scan }
                        guard let u = JSONTokenizer.hex4(base, i + 2) else { throw error(.invalidEscape, at: i) }
                        if u >= 0xD800 && u <= 0xDBFF {
                            // A high surrogate must be followed by an escaped low one. What
                            // is there already decides: a lone surrogate before `"}}` is an
                            // invalid escape at its byte, not the end of the input.
                            guard i + 12 <= end else {
                                for k in 6..<min(12, end - i) {
                                    let c = base[i + k]
                                    let fits = k == 6 ? c == UInt8(ascii: "\\") : k == 7 ? c == UInt8(ascii: "u")
                                        : JSONTokenizer.isHexDigit(c)
                                    if !fits { throw error(.invalidEscape, at: i) }
                                }
                                break scan
                            }
                            guard base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u"),
                                  let l = JSONTokenizer.hex4(base, i + 8), l >= 0xDC00 && l <= 0xDFFF
                            else { throw error(.invalidEscape, at: i) }
                            i += 12
                        } else if u >= 0xDC00 && u <= 0xDFFF {
                            throw error(.invalidEscape, at: i)
                        } else {
                            i += 6
                        }
                    default:
                        throw error(.invalidEscape, at: i)
                    }
                    continue
                }
                if b < 0x20 { throw error(.controlCharacterInString, at: i) }
                // Multi-byte UTF-8 (RFC 3629 §4).
                guard let lead = UTF8Lead(b) else { throw error(.invalidUTF8, at: i) }
                guard i + lead.continuations < end else { break scan }
                let at = i
                guard lead.accepts({ base[at + $0] }) else { throw error(.invalidUTF8, at: i) }
                i += lead.continuations + 1
            }
            // Ran out of bytes inside the string.
            if try !refill() { throw error(.unexpectedEnd, at: end) }
        }
    }

    @inline(__always)
    @inlinable package static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }

    @inlinable package static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = p[i + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - 0x41 + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Reads a string at `pos` into a Swift String.
    @inlinable package mutating func readString() throws(JSONError) -> String {
        let (s, e, escaped) = try scanString()
        if !escaped {
            return String(decoding: UnsafeBufferPointer(start: base + s, count: e - s), as: UTF8.self)
        }
        decodeEscapes(s, e)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a member name, reusing the String of an identical earlier name: the features
    /// of a collection repeat the same property names, so most names cost a hash and a
    /// byte comparison instead of building and validating a new String.
    @inline(__always)
    @inlinable package mutating func readKey() throws(JSONError) -> String {
        let (s, e, escaped) = try scanString()
        let n = e - s
        guard !escaped, n <= 64 else {
            if !escaped { return String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self) }
            decodeEscapes(s, e)
            return String(decoding: scratch, as: UTF8.self)
        }
        let slot = JSONTokenizer.keySlot(base, s, e)
        if keyCache.isEmpty { keyCache = Array(repeating: nil, count: JSONTokenizer.keyCacheSize) }
        if let cached = keyCache[slot], cached.utf8.count == n,
           cached.utf8.withContiguousStorageIfAvailable({ c in
               c.baseAddress.map { JSONTokenizer.sameBytes($0, base + s, n) } ?? (n == 0)
           }) == true {
            return cached
        }
        let key = String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self)
        keyCache[slot] = key
        return key
    }

    @usableFromInline package static let keyCacheSize = 512

    /// The cache slot of the name in `base[s..<e]`: a multiplicative hash of its bytes
    /// taken eight at a time, the last partial word read as the word that ends at `e`.
    @inline(__always)
    @inlinable package static func keySlot(_ base: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Int {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: e - s) &* k
        var i = s
        while i &+ 8 <= e {
            h = (h ^ NumberParser.load8(base + i)) &* k
            h ^= h >> 32
            i &+= 8
        }
        if i < e {
            var tail: UInt64 = 0
            if e >= 8 {
                // Safe: base[e-8..<e] lies in the window; the bytes before `i` are dropped.
                tail = NumberParser.load8(base + e - 8) >> UInt64((8 - (e - i)) * 8)
            } else {
                for j in i..<e { tail |= UInt64(base[j]) << UInt64((j - i) * 8) }
            }
            h = (h ^ tail) &* k
        }
        return Int(truncatingIfNeeded: h >> UInt64(64 - keyCacheSize.trailingZeroBitCount))
    }

    /// True when the `n` bytes at `a` and `b` are equal, compared eight at a time.
    @inline(__always)
    @inlinable package static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i &+ 8 <= n {
            if NumberParser.load8(a + i) != NumberParser.load8(b + i) { return false }
            i &+= 8
        }
        while i < n {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }

    /// Decodes an already validated string body with escapes into `scratch`.
    @inlinable package mutating func decodeEscapes(_ s: Int, _ e: Int) {
        scratch.removeAll(keepingCapacity: true)
        var i = s
        while i < e {
            let b = base[i]
            guard b == UInt8(ascii: "\\") else {
                scratch.append(b)
                i += 1
                continue
            }
            let c = base[i + 1]
            switch c {
            case UInt8(ascii: "b"): scratch.append(0x08); i += 2
            case UInt8(ascii: "f"): scratch.append(0x0C); i += 2
            case UInt8(ascii: "n"): scratch.append(0x0A); i += 2
            case UInt8(ascii: "r"): scratch.append(0x0D); i += 2
            case UInt8(ascii: "t"): scratch.append(0x09); i += 2
            case UInt8(ascii: "u"):
                var u = JSONTokenizer.hex4(base, i + 2)!
                i += 6
                if u >= 0xD800 && u <= 0xDBFF {
                    let l = JSONTokenizer.hex4(base, i + 2)!
                    u = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00)
                    i += 6
                }
                appendUTF8(u)
            default: scratch.append(c); i += 2      // \" \\ \/
            }
        }
    }

    @inlinable package mutating func appendUTF8(_ u: UInt32) {
        switch u {
        case 0..<0x80: scratch.append(UInt8(u))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | u >> 6)); scratch.append(UInt8(0x80 | u & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | u >> 12)); scratch.append(UInt8(0x80 | (u >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | u & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | u >> 18)); scratch.append(UInt8(0x80 | (u >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (u >> 6) & 0x3F)); scratch.append(UInt8(0x80 | u & 0x3F))
        }
    }

}
