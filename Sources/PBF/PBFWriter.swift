/// Writes protobuf wire format into a growable byte array.
///
/// - Complexity: amortised O(1) per byte written.
public struct PBFWriter: Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room reserved for `capacity` bytes.
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Minimal varint (1–10 bytes).
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// `sint32`: the zigzag-encoded value as a varint (1–5 bytes).
    public mutating func writeSInt32(_ value: Int32) { writeVarint(UInt64(ZigZag.encode(value))) }
    /// `sint64`: the zigzag-encoded value as a varint (1–10 bytes).
    public mutating func writeSInt64(_ value: Int64) { writeVarint(ZigZag.encode(value)) }

    /// `int32`/`int64` (negative values sign-extended to 10 bytes, P10).
    public mutating func writeInt64(_ value: Int64) { writeVarint(UInt64(bitPattern: value)) }

    /// `fixed32`: four bytes, little-endian.
    public mutating func writeFixed32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    /// `fixed64`: eight bytes, little-endian.
    public mutating func writeFixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    /// `float`: its IEEE 754 bits as `fixed32`.
    public mutating func writeFloat(_ value: Float) { writeFixed32(value.bitPattern) }
    /// `double`: its IEEE 754 bits as `fixed64`.
    public mutating func writeDouble(_ value: Double) { writeFixed64(value.bitPattern) }

    /// A field key; field numbers run from 1 to 2^29 − 1.
    public mutating func writeKey(field: UInt32, wireType: WireType) {
        precondition(field >= 1 && field < 1 << 29, "field number out of range")
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// A length-delimited field's length and bytes (no key).
    public mutating func writeLengthDelimited(_ payload: [UInt8]) {
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Empties the writer, keeping its storage for reuse.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Raw bytes, unchanged.
    public mutating func writeRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
}
