/// What a tile's bytes are, told from the bytes themselves: an image format and its
/// dimensions (PNG `IHDR`, JPEG start of frame, WebP `VP8 `/`VP8L`/`VP8X`, AVIF `ispe`), a
/// compressed stream (gzip, zstd), or neither. Archives declare a tile type and a
/// compression (PMTiles header bytes 98 and 99, MBTiles `format`); this is how a reader
/// confirms them (PM21).
public enum TileContent {
    /// A format recognised from leading bytes.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case png, jpeg, webp, avif, gzip, zstd
        /// None of the above (vector tiles have no magic number).
        case other
    }

    /// An image's pixel dimensions.
    public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
        public var description: String { "\(width)×\(height)" }
    }

    /// The format of `b` from its first bytes.
    ///
    /// - Complexity: O(1).
    public static func format(of b: UnsafeRawBufferPointer) -> Format {
        // Byte compares on the buffer: this runs once per tile a profile reads.
        func at(_ i: Int, _ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard b.count >= i + n else { return false }
            let p = s.utf8Start
            for k in 0..<n where b[i + k] != p[k] { return false }
            return true
        }
        guard b.count >= 2 else { return .other }
        switch b[0] {
        case 0x89: if at(1, "PNG\r\n\u{1A}\n") { return .png }
        case 0xFF: if b.count >= 3 && b[1] == 0xD8 && b[2] == 0xFF { return .jpeg }
        case 0x52: if at(0, "RIFF") && at(8, "WEBP") { return .webp }
        case 0x1F: if b[1] == 0x8B { return .gzip }
        case 0x28: if b.count >= 4 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD { return .zstd }
        default: break
        }
        if at(4, "ftyp") && (at(8, "avif") || at(8, "avis")) { return .avif }
        return .other
    }

    public static func format(of b: [UInt8]) -> Format { b.withUnsafeBytes { format(of: $0) } }

    /// The image's width and height, read from its header; nil when `b` is not an image of a
    /// known format or its header is cut short or says 0.
    ///
    /// - Complexity: O(header bytes): JPEG and AVIF walk their segments or boxes, never
    ///   past the buffer.
    public static func imageSize(_ b: UnsafeRawBufferPointer) -> Size? {
        let size: Size?
        switch format(of: b) {
        case .png: size = pngSize(b)
        case .jpeg: size = jpegSize(b)
        case .webp: size = webpSize(b)
        case .avif: size = avifSize(b)
        default: size = nil
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }

    public static func imageSize(_ b: [UInt8]) -> Size? { b.withUnsafeBytes { imageSize($0) } }

    static func be32(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    static func be16(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        guard i >= 0, i + 2 <= b.count else { return nil }
        return Int(b[i]) << 8 | Int(b[i + 1])
    }

    static func le(_ b: UnsafeRawBufferPointer, _ i: Int, _ n: Int) -> Int? {
        guard i >= 0, i + n <= b.count else { return nil }
        return (0..<n).reduce(0) { $0 | Int(b[i + $1]) << (8 * $1) }
    }

    static func fourCC(_ b: UnsafeRawBufferPointer, _ i: Int) -> String? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[i..<(i + 4)]), as: UTF8.self)
    }

    /// PNG: the first chunk is `IHDR`, width and height big-endian at bytes 16 and 20.
    static func pngSize(_ b: UnsafeRawBufferPointer) -> Size? {
        guard fourCC(b, 12) == "IHDR", let w = be32(b, 16), let h = be32(b, 20) else { return nil }
        return Size(width: w, height: h)
    }

    /// JPEG: segments after the start of image until a start-of-frame marker (C0–CF but C4,
    /// C8, CC), whose data holds precision, height, width.
    static func jpegSize(_ b: UnsafeRawBufferPointer) -> Size? {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let m = b[i + 1]
            if m == 0xFF { i += 1; continue }                       // fill byte
            if m == 0x01 || (0xD0...0xD7).contains(m) { i += 2; continue }  // no length
            if m == 0xD9 || m == 0xDA { return nil }                // end, or scan before any frame
            guard let len = be16(b, i + 2), len >= 2 else { return nil }
            if (0xC0...0xCF).contains(m) && m != 0xC4 && m != 0xC8 && m != 0xCC {
                guard let h = be16(b, i + 5), let w = be16(b, i + 7) else { return nil }
                return Size(width: w, height: h)
            }
            i += 2 + len
        }
        return nil
    }

    /// WebP: the RIFF's first chunk, `VP8 ` (lossy: 14-bit sizes after the start code),
    /// `VP8L` (lossless: 14-bit sizes − 1 after the signature byte) or `VP8X` (extended:
    /// 24-bit canvas sizes − 1).
    static func webpSize(_ b: UnsafeRawBufferPointer) -> Size? {
        switch fourCC(b, 12) {
        case "VP8 ":
            guard b.count >= 30, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A,
                  let w = le(b, 26, 2), let h = le(b, 28, 2) else { return nil }
            return Size(width: w & 0x3FFF, height: h & 0x3FFF)
        case "VP8L":
            guard b.count >= 25, b[20] == 0x2F, let v = le(b, 21, 4) else { return nil }
            return Size(width: (v & 0x3FFF) + 1, height: ((v >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let w = le(b, 24, 3), let h = le(b, 27, 3) else { return nil }
            return Size(width: w + 1, height: h + 1)
        default:
            return nil
        }
    }

    /// AVIF (ISO BMFF): the `ispe` property in `meta` → `iprp` → `ipco` holds the image's
    /// width and height.
    static func avifSize(_ b: UnsafeRawBufferPointer) -> Size? {
        /// The first box named `name` among the boxes in `range`: its content range.
        func box(_ name: String, in range: Range<Int>) -> Range<Int>? {
            var i = range.lowerBound
            while i + 8 <= range.upperBound {
                guard var size = be32(b, i), let type = fourCC(b, i + 4) else { return nil }
                var header = 8
                if size == 1 {
                    guard let hi = be32(b, i + 8), let lo = be32(b, i + 12), hi == 0 else { return nil }
                    size = lo
                    header = 16
                } else if size == 0 {
                    size = range.upperBound - i
                }
                guard size >= header, i + size <= range.upperBound else { return nil }
                if type == name { return (i + header)..<(i + size) }
                i += size
            }
            return nil
        }
        guard let meta = box("meta", in: 0..<b.count), meta.count >= 4,
              let iprp = box("iprp", in: (meta.lowerBound + 4)..<meta.upperBound),   // meta is a full box
              let ipco = box("ipco", in: iprp), let ispe = box("ispe", in: ipco),
              let w = be32(b, ispe.lowerBound + 4), let h = be32(b, ispe.lowerBound + 8), ispe.count >= 12 else { return nil }
        return Size(width: w, height: h)
    }
}
