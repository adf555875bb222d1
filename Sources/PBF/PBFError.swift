/// Why protobuf bytes could not be read. Every case carries `offset`: the byte offset,
/// from the start of the buffer given to the reader, where the bad item starts.
public enum PBFError: Error, Equatable, Sendable {
    /// The input ends inside a varint, a fixed-width value or a length-delimited field
    /// (mvt-pbf P3).
    case truncated(offset: Int)
    /// A varint has an 11th byte, or its 10th byte carries bits beyond bit 63 (P1).
    case varintTooLong(offset: Int)
    /// A field key with field number 0, or a key beyond 32 bits (P4).
    case invalidFieldNumber(offset: Int)
    /// Wire type 6 or 7, which do not exist (P5).
    case invalidWireType(Int, offset: Int)
    /// Wire types 3 and 4 (groups) are deprecated and never occur in vector tiles (P5).
    case deprecatedGroup(offset: Int)
    /// A length prefix of 2^31 or more, or one longer than the bytes remaining (P3, P14).
    case lengthOutOfBounds(length: UInt64, remaining: Int, offset: Int)

    /// Where the problem starts.
    public var offset: Int {
        switch self {
        case .truncated(let o), .varintTooLong(let o), .invalidFieldNumber(let o),
             .invalidWireType(_, let o), .deprecatedGroup(let o), .lengthOutOfBounds(_, _, let o):
            return o
        }
    }
}

/// Protobuf wire types (mvt-pbf P5).
public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5

    /// The wire type of a raw value already known to be 0, 1, 2 or 5.
    @inlinable @inline(__always)
    init(_valueCarrying raw: UInt8) {
        switch raw {
        case 0: self = .varint
        case 1: self = .fixed64
        case 2: self = .lengthDelimited
        default: self = .fixed32
        }
    }
}

/// ZigZag encoding of signed integers (mvt-pbf P11), with wrapping arithmetic so no
/// input traps.
public enum ZigZag {
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func encode(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n &<< 1) ^ (n >> 31))
    }
    @inlinable @inline(__always)
    public static func decode(_ u: UInt32) -> Int32 {
        Int32(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }
    @inlinable @inline(__always)
    public static func encode(_ n: Int64) -> UInt64 {
        UInt64(bitPattern: (n &<< 1) ^ (n >> 63))
    }
    @inlinable @inline(__always)
    public static func decode(_ u: UInt64) -> Int64 {
        Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }
}
