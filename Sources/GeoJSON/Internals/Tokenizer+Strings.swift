import GeoModel

extension _Tokenizer {
    // MARK: Strings

    /// Scans the string whose opening quote is at `pos`: validates it, leaves `pos` after
    /// the closing quote and returns the window range of its contents (valid until the
    /// next refill) and whether it holds escapes.
    @inline(__always)
    mutating func scanString() throws(GeoJSONError) -> (start: Int, end: Int, escaped: Bool) {
        while true {
            var i = pos + 1
            var escaped = false
            // Safe: every read is guarded by `i < end` or by the explicit length checks.
            scan: while i < end {
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
                        guard let u = _Tokenizer.hex4(base, i + 2) else { throw error(.invalidEscape, at: i) }
                        if u >= 0xD800 && u <= 0xDBFF {
                            // A high surrogate must be followed by an escaped low one.
                            guard i + 12 <= end else { break scan }
                            guard base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u"),
                                  let l = _Tokenizer.hex4(base, i + 8), l >= 0xDC00 && l <= 0xDFFF
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
                let need: Int
                var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: need = 1
                case 0xE0: need = 2; lo = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: need = 2
                case 0xED: need = 2; hi = 0x9F
                case 0xF0: need = 3; lo = 0x90
                case 0xF1...0xF3: need = 3
                case 0xF4: need = 3; hi = 0x8F
                default: throw error(.invalidUTF8, at: i)
                }
                guard i + need < end else { break scan }
                let c1 = base[i + 1]
                guard c1 >= lo && c1 <= hi else { throw error(.invalidUTF8, at: i) }
                if need >= 2 { guard base[i + 2] & 0xC0 == 0x80 else { throw error(.invalidUTF8, at: i) } }
                if need == 3 { guard base[i + 3] & 0xC0 == 0x80 else { throw error(.invalidUTF8, at: i) } }
                i += need + 1
            }
            // Ran out of bytes inside the string.
            if try !refill() { throw error(.unexpectedEnd, at: end) }
        }
    }

    static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32? {
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
    mutating func readString() throws(GeoJSONError) -> String {
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
    mutating func readKey() throws(GeoJSONError) -> String {
        let (s, e, escaped) = try scanString()
        let n = e - s
        guard !escaped, n <= 64 else {
            if !escaped { return String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self) }
            decodeEscapes(s, e)
            return String(decoding: scratch, as: UTF8.self)
        }
        // FNV-1a over the bytes selects one of the cache slots.
        var h: UInt32 = 2_166_136_261
        for i in s..<e { h = (h ^ UInt32(base[i])) &* 16_777_619 }
        let slot = Int(h & UInt32(_Tokenizer.keyCacheSize - 1))
        if keyCache.isEmpty { keyCache = Array(repeating: nil, count: _Tokenizer.keyCacheSize) }
        if let cached = keyCache[slot], cached.utf8.count == n {
            var hit = true
            var k = s
            for b in cached.utf8 {
                if b != base[k] { hit = false; break }
                k += 1
            }
            if hit { return cached }
        }
        let key = String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self)
        keyCache[slot] = key
        return key
    }

    static let keyCacheSize = 512

    /// Decodes an already validated string body with escapes into `scratch`.
    mutating func decodeEscapes(_ s: Int, _ e: Int) {
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
                var u = _Tokenizer.hex4(base, i + 2)!
                i += 6
                if u >= 0xD800 && u <= 0xDBFF {
                    let l = _Tokenizer.hex4(base, i + 2)!
                    u = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00)
                    i += 6
                }
                appendUTF8(u)
            default: scratch.append(c); i += 2      // \" \\ \/
            }
        }
    }

    mutating func appendUTF8(_ u: UInt32) {
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
