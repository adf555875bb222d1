/// A Web Mercator tile in the XYZ scheme (OGC WebMercatorQuad: (0, 0) is the north-west
/// tile), valid for zooms 0 through 30.
public struct TileID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The deepest zoom supported: x and y still fit in 30 bits, a quadkey in 30 digits.
    public static let maxZoom: UInt8 = 30

    public let z: UInt8
    public let x: UInt32
    public let y: UInt32

    /// The tile as one word: a marker bit at 2z, then x and y in z bits each. Distinct
    /// tiles give distinct words (the marker fixes z), and no tile gives 0.
    @inlinable
    public var packedValue: UInt64 {
        let z = UInt64(z)
        return UInt64(1) << (2 &* z) | UInt64(x) << z | UInt64(y)
    }

    /// The tile of a `packedValue`; nil for a word that is not one.
    public init?(packedValue v: UInt64) {
        guard v != 0 else { return nil }
        let top = 63 - v.leadingZeroBitCount
        guard top % 2 == 0, top / 2 <= Int(Self.maxZoom) else { return nil }
        let z = top / 2
        let mask = (UInt64(1) << UInt64(z)) &- 1
        self.init(unchecked: z, x: UInt32(truncatingIfNeeded: (v >> UInt64(z)) & mask), y: UInt32(truncatingIfNeeded: v & mask))
    }

    /// Hashes the packed word: one word costs a third of hashing the three fields, which
    /// sets and dictionaries of tiles feel.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(packedValue)
    }

    /// Nil when z > 30 or x/y fall outside the 2^z × 2^z grid.
    public init?(z: Int, x: Int, y: Int) {
        guard z >= 0, z <= Int(Self.maxZoom), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        self.z = UInt8(z)
        self.x = UInt32(x)
        self.y = UInt32(y)
    }

    /// A tile from coordinates the caller has already checked (x, y < 2^z, z <= 30).
    @inline(__always)
    init(unchecked z: Int, x: UInt32, y: UInt32) {
        self.z = UInt8(truncatingIfNeeded: z)
        self.x = x
        self.y = y
    }

    /// Parses a quadkey (digits 0–3, one per zoom level; the empty key is tile 0/0/0).
    public init?(quadkey: String) {
        guard quadkey.utf8.count <= Int(Self.maxZoom) else { return nil }
        var x: UInt32 = 0, y: UInt32 = 0
        for c in quadkey.utf8 {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "3") else { return nil }
            let d = UInt32(c - UInt8(ascii: "0"))
            x = x << 1 | (d & 1)
            y = y << 1 | (d >> 1)
        }
        self.z = UInt8(quadkey.utf8.count)
        self.x = x
        self.y = y
    }

    /// The quadkey: one digit per zoom, `2·ybit + xbit` from the top level down.
    public var quadkey: String {
        var out = [UInt8]()
        out.reserveCapacity(Int(z))
        var level = Int(z)
        while level > 0 {
            let mask = UInt32(1) << (level - 1)
            var digit: UInt8 = UInt8(ascii: "0")
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            out.append(digit)
            level -= 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The tile one zoom up; nil at zoom 0.
    public var parent: TileID? {
        z == 0 ? nil : TileID(z: Int(z) - 1, x: Int(x >> 1), y: Int(y >> 1))
    }

    /// The four tiles one zoom down (NW, NE, SW, SE); empty at zoom 30.
    public var children: [TileID] {
        guard z < Self.maxZoom else { return [] }
        let z1 = Int(z) + 1, x2 = Int(x) * 2, y2 = Int(y) * 2
        return [TileID(z: z1, x: x2, y: y2)!, TileID(z: z1, x: x2 + 1, y: y2)!,
                TileID(z: z1, x: x2, y: y2 + 1)!, TileID(z: z1, x: x2 + 1, y: y2 + 1)!]
    }

    /// The same tile in the TMS scheme, whose y counts from the south.
    public var tmsY: UInt32 { (UInt32(1) << z) - 1 - y }

    public var description: String { "\(z)/\(x)/\(y)" }

    public static func < (a: TileID, b: TileID) -> Bool { (a.z, a.x, a.y) < (b.z, b.x, b.y) }
}
