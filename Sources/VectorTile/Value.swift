import GeoModel
import PBF

/// A layer value (MVT 2.1 §4.1 `Value`). Strings borrow the tile's bytes.
public enum MVTValue: Equatable {
    case string(UnsafeRawBufferPointer)
    case float(Float)
    case double(Double)
    case int(Int64)
    case uint(UInt64)
    case sint(Int64)
    case bool(Bool)

    /// Same case and same contents: strings byte for byte, floats and doubles bit for bit
    /// (so NaN equals the same NaN, and 0.0 differs from -0.0), integers and booleans by
    /// value. An `int` never equals a `sint` or a `uint`, whatever their values.
    public static func == (a: MVTValue, b: MVTValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.elementsEqual(y)
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.int(let x), .int(let y)), (.sint(let x), .sint(let y)): return x == y
        case (.uint(let x), .uint(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        default: return false
        }
    }

    /// The value as a GeoModel property (strings copied out of the tile).
    public var propertyValue: PropertyValue {
        switch self {
        case .string: return .string(stringValue!)
        case .float(let f): return .double(Double(f))
        case .double(let d): return .double(d)
        case .int(let i), .sint(let i): return .int(i)
        case .uint(let u): return .uint(u)
        case .bool(let b): return .bool(b)
        }
    }

    /// The string value copied out of the tile (invalid UTF-8 is repaired with U+FFFD).
    public var stringValue: String? {
        if case .string(let b) = self { return String(decoding: b, as: UTF8.self) }
        return nil
    }

    /// A `Value` message made of one typed field with a one-byte key, as encoders write it,
    /// read with raw loads (up to `loadable` bytes from its start, at least its length);
    /// nil for anything else, which `parse` then reads (and reports).
    @usableFromInline @_transparent
    static func _parseRaw(_ bytes: UnsafeRawBufferPointer, loadable: Int) -> MVTValue? {
        guard let b = bytes.baseAddress, bytes.count >= 2 else { return nil }
        let n = bytes.count
        // Safe: n >= 2 for the key; each later load is checked against n.
        let key = b.load(as: UInt8.self)
        // Tested in the order of how common each type is (strings, then the integers); the
        // mask takes the four varint types, 0x20, 0x28, 0x30 and 0x38, at once.
        if key == 0x0A {
            var p = 1
            guard let length = _rawVarint(b, &p, n, loadable: loadable), length == UInt64(n &- p) else { return nil }
            return .string(UnsafeRawBufferPointer(start: b + p, count: Int(length)))
        }
        if key & 0xE7 == 0x20 {
            guard let v = _rawVarintFilling(b, 1, n, loadable: loadable) else { return nil }
            if key == 0x20 { return .int(Int64(bitPattern: v)) }
            if key == 0x28 { return .uint(v) }
            if key == 0x30 { return .sint(ZigZag.decode(v)) }
            return .bool(v != 0)
        }
        if key == 0x15 {
            guard n == 5 else { return nil }
            return .float(Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 1, as: UInt32.self))))
        }
        if key == 0x19 {
            guard n == 9 else { return nil }
            return .double(Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(fromByteOffset: 1, as: UInt64.self))))
        }
        return nil
    }

    /// The `Value` message in `bytes` (at tile offset `origin`): by raw loads when it is one
    /// typed field with a one-byte key (up to `loadable` bytes may be loaded from its start),
    /// otherwise by `parse`, which also reports what is wrong with it.
    @_transparent
    static func _read(_ bytes: UnsafeRawBufferPointer, loadable: Int, origin: Int) throws(MVTError) -> MVTValue {
        var multiTyped = false
        return try _read(bytes, loadable: loadable, origin: origin, multiTyped: &multiTyped)
    }

    /// `_read`, setting `multiTyped` when the message sets more than one typed field (only
    /// the checked parse can meet one: the raw path reads messages of exactly one field).
    @_transparent
    static func _read(_ bytes: UnsafeRawBufferPointer, loadable: Int, origin: Int,
                      multiTyped: inout Bool) throws(MVTError) -> MVTValue {
        if let v = _parseRaw(bytes, loadable: loadable) { return v }
        return try parse(PBFReader(bytes: bytes, origin: origin), multiTyped: &multiTyped)
    }

    /// Parses one `Value` message. Exactly one of fields 1–7 must be present (A10); an
    /// unknown field (8 and up are extensions) next to none of them, or any field with a
    /// wrong wire type, is an error. When several typed fields appear, the last wins (P8).
    static func parse(_ reader: PBFReader) throws(MVTError) -> MVTValue {
        var multiTyped = false
        return try parse(reader, multiTyped: &multiTyped)
    }

    /// `parse`, setting `multiTyped` when more than one typed field is set (A10).
    static func parse(_ reader: PBFReader, multiTyped: inout Bool) throws(MVTError) -> MVTValue {
        var r = reader
        var value: MVTValue?
        var sawUnknown = false
        var typed = 0
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            switch field {
            case 1:
                try expectOr(wire, .lengthDelimited, "Value", field, keyOffset)
                value = .string(try pbf { () throws(PBFError) in try r.readLengthDelimited() }.bytes)
            case 2:
                try expectOr(wire, .fixed32, "Value", field, keyOffset)
                value = .float(try pbf { () throws(PBFError) in try r.readFloat() })
            case 3:
                try expectOr(wire, .fixed64, "Value", field, keyOffset)
                value = .double(try pbf { () throws(PBFError) in try r.readDouble() })
            case 4:
                try expectOr(wire, .varint, "Value", field, keyOffset)
                value = .int(Int64(bitPattern: try pbf { () throws(PBFError) in try r.readVarint() }))
            case 5:
                try expectOr(wire, .varint, "Value", field, keyOffset)
                value = .uint(try pbf { () throws(PBFError) in try r.readVarint() })
            case 6:
                try expectOr(wire, .varint, "Value", field, keyOffset)
                value = .sint(try pbf { () throws(PBFError) in try r.readSInt64() })
            case 7:
                try expectOr(wire, .varint, "Value", field, keyOffset)
                value = .bool(try pbf { () throws(PBFError) in try r.readVarint() } != 0)
            default:
                sawUnknown = true
                try pbf { () throws(PBFError) in try r.skip(wire) }
            }
            if field >= 1 && field <= 7 { typed += 1 }
        }
        guard let value, !sawUnknown else { throw .invalidValue(offset: reader.absoluteStart) }
        if typed > 1 { multiTyped = true }
        return value
    }
}

extension MVTValue {
    /// How many of the typed fields (1–7) a Value message sets, counting repeats; nil when
    /// the message cannot be walked (its parse reports that).
    static func typedFieldCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var r = PBFReader(bytes: bytes)
        var count = 0
        while !r.isAtEnd {
            guard let (field, wire) = try? r.readKey() else { return nil }
            if (1...7).contains(field) { count += 1 }
            guard (try? r.skip(wire)) != nil else { return nil }
        }
        return count
    }
}

/// Runs a wire-format read, turning its error into `MVTError.malformed`.
@inlinable @inline(__always)
func pbf<T>(_ body: () throws(PBFError) -> T) throws(MVTError) -> T {
    do throws(PBFError) { return try body() } catch { throw .malformed(error) }
}

/// Throws `wrongWireType` unless `wire` is `expected`.
@inlinable @inline(__always)
func expectOr(_ wire: WireType, _ expected: WireType, _ message: String, _ field: UInt32, _ offset: Int)
    throws(MVTError)
{
    if wire != expected {
        throw .wrongWireType(message: message, field: field, wireType: wire.rawValue, offset: offset)
    }
}

/// A value hashed by type and bytes without copying them, for finding duplicates (A9).
struct _ValueKey: Hashable {
    let value: MVTValue

    func hash(into h: inout Hasher) {
        switch value {
        case .string(let b): h.combine(1 as UInt8); h.combine(bytes: b)
        case .float(let f): h.combine(2 as UInt8); h.combine(f.bitPattern)
        case .double(let d): h.combine(3 as UInt8); h.combine(d.bitPattern)
        case .int(let i): h.combine(4 as UInt8); h.combine(i)
        case .uint(let u): h.combine(5 as UInt8); h.combine(u)
        case .sint(let i): h.combine(6 as UInt8); h.combine(i)
        case .bool(let b): h.combine(7 as UInt8); h.combine(b)
        }
    }

    static func == (a: _ValueKey, b: _ValueKey) -> Bool { a.value == b.value }
}

/// Borrowed bytes hashed and compared by content, for finding duplicate keys (A8).
struct _BytesKey: Hashable {
    let bytes: UnsafeRawBufferPointer
    func hash(into h: inout Hasher) { h.combine(bytes: bytes) }
    static func == (a: _BytesKey, b: _BytesKey) -> Bool { a.bytes.elementsEqual(b.bytes) }
}
