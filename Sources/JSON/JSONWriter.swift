import GeoModel

/// Writes JSON text (RFC 8259) into a byte buffer: numbers, strings, property values and
/// objects. The `GeoJSON` module adds the GeoJSON objects (`JSONWriter` is this type).
///
/// - Numbers: the shortest text that reads back to the same double, so `read(write(x)) == x`
///   bit for bit; `compactIntegers` writes integral values below 2^53 without a fraction
///   (`10`), otherwise they keep one (`10.0`) and read back as doubles. NaN and infinities,
///   which JSON cannot hold, are written as `null`.
/// - Strings: RFC 8259 §7 escapes (quote, backslash, control characters); everything else
///   as UTF-8.
///
/// Allocates only when the buffer grows.
public struct JSONWriter {
    /// The output buffer: raw memory with explicit count and capacity, so the hot paths
    /// reserve once and then store bytes through a pointer (Array's per-append uniqueness
    /// and capacity checks cost more than the formatting). Copy-on-write keeps value
    /// semantics. Its fields are reached from the `GeoJSON` module too, where the compiler
    /// cannot prove accesses disjoint; they are exempt from dynamic exclusivity checks (the
    /// writer is a value type whose storage is made unique before every write).
    @usableFromInline package final class _Storage {
        @exclusivity(unchecked) @usableFromInline package var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) @usableFromInline package var count = 0
        @exclusivity(unchecked) @usableFromInline package var capacity: Int
        @exclusivity(unchecked) @usableFromInline package var memberNames = _MemberNameCache()
        @usableFromInline package init(capacity: Int) {
            self.capacity = max(capacity, 256)
            base = .allocate(capacity: self.capacity)
        }
        deinit { base.deallocate() }
    }

    @usableFromInline package var storage: _Storage

    public init(capacity: Int = 0) { storage = _Storage(capacity: capacity) }

    /// The text written so far (a copy).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// Number of bytes written so far.
    public var count: Int { storage.count }

    /// Calls `body` with the text written so far, without copying it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        if !isKnownUniquelyReferenced(&storage) { storage = _Storage(capacity: storage.capacity) }
        storage.count = 0
    }

    // MARK: Building blocks

    /// Copy-on-write, once per public call: the byte-level helpers below (`reserve`,
    /// `put`, the `append` methods) assume the storage is not shared. (Checked per byte
    /// instead, the check was 4% of the instructions of writing a property-heavy file.)
    @inline(__always)
    @inlinable package mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { grow(0) }
    }

    /// Makes room for `n` more bytes and returns where they go (storage made unique by the
    /// caller).
    @inline(__always)
    @inlinable package mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(storage.count + n > storage.capacity) { grow(n) }
        return storage.base + storage.count
    }

    @inline(never)
    @inlinable package mutating func grow(_ n: Int) {
        let s = _Storage(capacity: max(storage.capacity * 2, storage.count + n))
        s.base.update(from: storage.base, count: storage.count)
        s.count = storage.count
        s.memberNames = storage.memberNames
        storage = s
    }

    @inline(__always)
    @inlinable package mutating func put(_ b: UInt8) {
        reserve(1).pointee = b
        storage.count += 1
    }

    @inline(__always)
    @inlinable package mutating func put(_ p: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n).update(from: p, count: n)
        storage.count += n
    }

    @inline(__always)
    @inlinable package mutating func raw(_ s: StaticString) {
        put(s.utf8Start, s.utf8CodeUnitCount)
    }

    /// A JSON number; `compactIntegers` writes integral values below 2^53 without `.0`.
    @inline(__always)
    @inlinable package mutating func appendNumber(_ d: Double, compactIntegers: Bool = true) {
        let p = reserve(64)
        storage.count += _ShortestDecimal.renderNumber(d, compactIntegers: compactIntegers, into: p)
    }

    @inline(__always)
    @inlinable package mutating func appendInteger(_ v: Int64) {
        let p = reserve(24)
        let first = _ShortestDecimal.renderInteger(v, endingAt: p + 24)
        let n = p + 24 - first
        p.update(from: first, count: n)
        storage.count += n
    }

    @inlinable package mutating func appendUnsigned(_ v: UInt64) {
        if v <= UInt64(Int64.max) { return appendInteger(Int64(v)) }
        var text = String(v)
        text.withUTF8 { put($0.baseAddress!, $0.count) }
    }

    /// A JSON string literal with the escapes RFC 8259 §7 requires.
    @inlinable package mutating func appendString(_ s: String) {
        // A native string lends its bytes without a copy of the string (and so without a
        // retain); only a bridged one needs `withUTF8`'s mutable copy.
        if s.utf8.withContiguousStorageIfAvailable({ appendUTF8String($0) }) != nil { return }
        var s = s
        s.withUTF8 { appendUTF8String($0) }
    }

    /// A JSON string literal of `u`'s bytes (valid UTF-8).
    ///
    /// Strings with nothing to escape (nearly all) are checked and copied a word at a
    /// time: one word built from overlapping loads below 8 bytes, two overlapping words up
    /// to 16, `memcpy` above. (Byte loops and a `memcpy` call per short string were a third
    /// of the instructions of writing a property-heavy file.)
    @inlinable package mutating func appendUTF8String(_ u: UnsafeBufferPointer<UInt8>) {
        let n = u.count
        guard let base = u.baseAddress, n > 0 else { return raw("\"\"") }
        let quote = UInt8(ascii: "\"")
        if n < 8 {
            let w = Self.shortWord(base, n)
            // Bytes past the string read as spaces, which need no escape.
            if _ByteMasks.needsEscape(w | (0x2020_2020_2020_2020 &<< (8 &* UInt64(n)))) == 0 {
                let p = reserve(10)
                p[0] = quote
                UnsafeMutableRawPointer(p + 1).storeBytes(of: w.littleEndian, as: UInt64.self)
                p[n &+ 1] = quote
                storage.count &+= n &+ 2
                return
            }
        } else {
            var clean = true
            var i = 0
            while i &+ 8 <= n {
                if _ByteMasks.needsEscape(NumberParser.load8(base + i)) != 0 { clean = false; break }
                i &+= 8
            }
            // The last eight bytes, overlapping the words already checked.
            if clean && i < n && _ByteMasks.needsEscape(NumberParser.load8(base + n - 8)) != 0 { clean = false }
            if clean {
                let p = reserve(n &+ 2)
                p[0] = quote
                if n <= 16 {
                    UnsafeMutableRawPointer(p + 1).storeBytes(of: NumberParser.load8(base).littleEndian, as: UInt64.self)
                    UnsafeMutableRawPointer(p + 1 + n - 8).storeBytes(of: NumberParser.load8(base + n - 8).littleEndian, as: UInt64.self)
                } else {
                    (p + 1).update(from: base, count: n)
                }
                p[n &+ 1] = quote
                storage.count &+= n &+ 2
                return
            }
        }
        escapeUTF8String(u)
    }

    /// Bytes 0..<n of a string of 1 to 7 bytes as a little-endian word (zero above),
    /// from at most two overlapping loads.
    @inline(__always)
    @inlinable package static func shortWord(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        let raw = UnsafeRawPointer(p)
        if n >= 4 {
            let lo = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let hi = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
            return lo | hi &<< (8 &* UInt64(n - 4))
        }
        if n >= 2 {
            let lo = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let hi = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)))
            return lo | hi &<< (8 &* UInt64(n - 2))
        }
        return UInt64(p[0])
    }

    /// The slow path of `appendUTF8String`: a string with bytes to escape.
    @inline(never)
    @inlinable package mutating func escapeUTF8String(_ u: UnsafeBufferPointer<UInt8>) {
        put(UInt8(ascii: "\""))
        var start = 0
        for i in 0..<u.count {
            let b = u[i]
            guard _ByteMasks.mustEscape(b) else { continue }
            if i > start { put(u.baseAddress! + start, i - start) }
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            default:
                let hex: StaticString = "0123456789abcdef"
                raw("\\u00")
                put(hex.utf8Start[Int(b >> 4)])
                put(hex.utf8Start[Int(b & 15)])
            }
            start = i + 1
        }
        if u.count > start { put(u.baseAddress! + start, u.count - start) }
        put(UInt8(ascii: "\""))
    }

    @inlinable package mutating func appendValue(_ v: borrowing PropertyValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .int(let i): appendInteger(i)
        case .uint(let u): appendUnsigned(u)
        case .double(let d): appendNumber(d, compactIntegers: false)
        case .string(let s): appendString(s)
        case .array(let a):
            put(UInt8(ascii: "["))
            for (i, x) in a.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                appendValue(x)
            }
            put(UInt8(ascii: "]"))
        case .object(let o): appendObject(o)
        }
    }

    @inlinable package mutating func appendObject(_ o: PropertyList) {
        // Both loops below read values through an unchecked buffer, so the rule that an
        // Array index would have enforced (a value for every key) is checked here.
        precondition(o.values.count >= o.keys.count, "a PropertyList needs a value for each key")
        put(UInt8(ascii: "{"))
        if o.keys.count > 1 && storage.memberNames.rendered(for: o.keys) {
            appendMembers(o.values, names: storage.memberNames)
            put(UInt8(ascii: "}"))
            return
        }
        // Through the buffers, so that no key or value is retained to be written.
        o.keys.withUnsafeBufferPointer { keys in
            o.values.withUnsafeBufferPointer { values in
                for i in 0..<keys.count {
                    if i > 0 { put(UInt8(ascii: ",")) }
                    appendString(keys[i])
                    put(UInt8(ascii: ":"))
                    appendValue(values[i])
                }
            }
        }
        put(UInt8(ascii: "}"))
    }

    /// The members of an object whose names `names` has rendered: each name's bytes are
    /// copied (two words when short), then its value written. `names` is a copy, so a
    /// nested object that changes the cache does not change the arrays being read.
    /// - Precondition: `values` has at least one value per name.
    @inlinable package mutating func appendMembers(_ values: [PropertyValue], names: _MemberNameCache) {
        names.text.withUnsafeBufferPointer { text in
            names.ends.withUnsafeBufferPointer { ends in
                values.withUnsafeBufferPointer { values in
                    var start = 0
                    for i in 0..<ends.count {
                        let end = ends[i]
                        let n = end - start
                        let p = reserve(n + 17)
                        var at = 0
                        if i > 0 { p[0] = UInt8(ascii: ","); at = 1 }
                        let from = text.baseAddress! + start
                        if n <= 16 {
                            // `text` has 16 bytes of padding after its last name.
                            UnsafeMutableRawPointer(p + at).storeBytes(of: NumberParser.load8(from).littleEndian, as: UInt64.self)
                            UnsafeMutableRawPointer(p + at + 8).storeBytes(of: NumberParser.load8(from + 8).littleEndian, as: UInt64.self)
                        } else {
                            (p + at).update(from: from, count: n)
                        }
                        storage.count += at + n
                        start = end
                        appendValue(values[i])
                    }
                }
            }
        }
    }

    // MARK: Public values

    /// A JSON number; `compactIntegers` writes integral values below 2^53 without `.0`.
    public mutating func writeNumber(_ d: Double, compactIntegers: Bool = true) {
        makeUnique()
        appendNumber(d, compactIntegers: compactIntegers)
    }

    /// A JSON integer.
    public mutating func writeInteger(_ v: Int64) { makeUnique(); appendInteger(v) }

    /// A JSON integer from 0 to 2^64 − 1.
    public mutating func writeUnsigned(_ v: UInt64) { makeUnique(); appendUnsigned(v) }

    /// A JSON string literal with the escapes RFC 8259 §7 requires.
    public mutating func writeString(_ s: String) { makeUnique(); appendString(s) }

    /// A property value as JSON.
    public mutating func writeValue(_ v: PropertyValue) { makeUnique(); appendValue(v) }

    /// A JSON object of `o`'s members, in order.
    public mutating func writeObject(_ o: PropertyList) { makeUnique(); appendObject(o) }

    // MARK: String conveniences

    /// A JSON string literal (RFC 8259 §7).
    public static func string(_ s: String) -> String {
        var w = JSONWriter()
        w.writeString(s)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A JSON number (shortest round-trip; integral values without a fraction), `null` for
    /// NaN and infinities.
    public static func number(_ d: Double) -> String {
        var w = JSONWriter()
        w.writeNumber(d)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A property value as JSON text.
    public static func value(_ v: PropertyValue) -> String {
        var w = JSONWriter()
        w.writeValue(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
