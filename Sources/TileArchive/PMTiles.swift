import PBF
import TileCover

/// PMTiles version 3 archives (protomaps/PMTiles `spec/v3/spec.md`): a 127-byte header, a
/// root directory in the first 16 KiB, JSON metadata, leaf directories and tile data.
/// Directory entries are addressed by the Hilbert tile id, delta-coded and stored as
/// columns of varints.
public enum PMTiles {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notPMTiles
        /// A file of no bytes.
        case empty
        case unsupportedVersion(UInt8)
        case unsupportedCompression(UInt8)
        case truncated(section: String, offset: UInt64)
        /// A directory that does not decode or breaks a directory rule: what is wrong, the
        /// directory's byte offset, and the rule's id (PM13, the encoding, unless another).
        case malformedDirectory(String, offset: Int, rule: String = "PM13")
        case io(String)
        /// The id of the rule in `../shared/specs/pmtiles.md` the error breaks.
        public var rule: String {
            switch self {
            case .notPMTiles, .unsupportedVersion: return "PM4"
            case .empty, .truncated("header", _): return "PM1"
            case .truncated: return "PM3"
            case .unsupportedCompression: return "PM8"
            case .malformedDirectory(_, _, let rule): return rule
            case .io: return "io"
            }
        }

        /// The message without its location.
        public var reason: String {
            switch self {
            case .malformedDirectory(let m, _, _): return m
            default: return description
            }
        }

        public var description: String {
            switch self {
            case .notPMTiles: return "not a PMTiles archive (no PMTiles magic)"
            case .empty: return "not a PMTiles archive (the file is empty)"
            case .unsupportedVersion(let v): return "PMTiles version \(v) is not supported (only 3)"
            case .unsupportedCompression(let c): return "PMTiles compression \(c) is not supported (none, gzip, brotli and zstd are)"
            case .truncated("header", let o): return "PMTiles header cut short: \(o) of its 127 bytes (PM1)"
            case .truncated(let s, let o): return "PMTiles \(s) runs past the end of the file (at byte \(o))"
            case .malformedDirectory(let m, let o, let rule): return "PMTiles directory at byte \(o): [\(rule)] \(m)"
            case .io(let m): return "PMTiles: \(m)"
            }
        }
    }

    /// Compression values of the header.
    public enum Compression: UInt8, Sendable { case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4 }

    /// Tile type values of the header (PMTiles v3 §3.1).
    public enum TileType: UInt8, Sendable {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5
        /// MapLibre Vector Tiles: counted and sized, not decoded.
        case mlt = 6

        /// The image format of this tile type, nil for vector and unknown types.
        public var imageFormat: TileContent.Format? {
            switch self {
            case .png: return .png
            case .jpeg: return .jpeg
            case .webp: return .webp
            case .avif: return .avif
            default: return nil
            }
        }
    }

    /// A header compression byte by its name (`gzip`), or `unknown (9)` for a value the
    /// specification does not define.
    public static func compressionName(_ value: UInt8) -> String {
        Compression(rawValue: value).map { "\($0)" + ($0 == .unknown ? " (0)" : "") } ?? "undefined (\(value))"
    }

    /// A header tile type byte by its name (`mvt`, `png`), or `undefined (9)`.
    public static func tileTypeName(_ value: UInt8) -> String {
        TileType(rawValue: value).map { "\($0)" + ($0 == .unknown ? " (0)" : "") } ?? "undefined (\(value))"
    }

    public struct Header: Equatable, Sendable {
        public var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
        public var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        public var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        public var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        public var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
        /// Header byte 96 as stored: 0 not clustered, 1 clustered, anything else undefined (PM7).
        public var clusteredValue: UInt8 = 0
        public var clustered: Bool {
            get { clusteredValue == 1 }
            set { clusteredValue = newValue ? 1 : 0 }
        }
        public var internalCompression: UInt8 = 1, tileCompression: UInt8 = 1, tileType: UInt8 = 1
        public var minZoom: UInt8 = 0, maxZoom: UInt8 = 0
        public var minLonE7: Int32 = -1_800_000_000, minLatE7: Int32 = -850_511_287
        public var maxLonE7: Int32 = 1_800_000_000, maxLatE7: Int32 = 850_511_287
        public var centerZoom: UInt8 = 0, centerLonE7: Int32 = 0, centerLatE7: Int32 = 0
        public init() {}

        public static let size = 127

        public func encoded() -> [UInt8] {
            var b = Array("PMTiles".utf8) + [3]
            func u64(_ v: UInt64) { for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
            func i32(_ v: Int32) { let u = UInt32(bitPattern: v); for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: u >> (8 * i))) } }
            for v in [rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, dataOffset, dataLength,
                      addressedTiles, tileEntries, tileContents] { u64(v) }
            b += [clusteredValue, internalCompression, tileCompression, tileType, minZoom, maxZoom]
            i32(minLonE7); i32(minLatE7); i32(maxLonE7); i32(maxLatE7)
            b.append(centerZoom); i32(centerLonE7); i32(centerLatE7)
            return b
        }

        /// Reads the 127-byte header (PM1, PM4).
        ///
        /// - Throws: `.unsupportedVersion` for another version of the format, the
        ///   versions 1 and 2 layout (`PM` and a 16-bit version) included;
        ///   `.truncated(section: "header")` for a PMTiles magic without a whole header;
        ///   `.notPMTiles` otherwise.
        public init(decoding b: [UInt8]) throws(Error) {
            let magic = Array("PMTiles".utf8)
            if b.count >= 4, b[0] == magic[0], b[1] == magic[1], b[2] == 1 || b[2] == 2, b[3] == 0 {
                throw .unsupportedVersion(b[2])
            }
            guard b.count >= 7, Array(b[0..<7]) == magic else { throw .notPMTiles }
            guard b.count >= 8 else { throw .truncated(section: "header", offset: UInt64(b.count)) }
            guard b[7] == 3 else { throw .unsupportedVersion(b[7]) }
            guard b.count >= Self.size else { throw .truncated(section: "header", offset: UInt64(b.count)) }
            func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
            func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }) }
            rootOffset = u64(8); rootLength = u64(16); metadataOffset = u64(24); metadataLength = u64(32)
            leafOffset = u64(40); leafLength = u64(48); dataOffset = u64(56); dataLength = u64(64)
            addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
            clusteredValue = b[96]; internalCompression = b[97]; tileCompression = b[98]; tileType = b[99]
            minZoom = b[100]; maxZoom = b[101]
            minLonE7 = i32(102); minLatE7 = i32(106); maxLonE7 = i32(110); maxLatE7 = i32(114)
            centerZoom = b[118]; centerLonE7 = i32(119); centerLatE7 = i32(123)
        }
    }

    /// A directory entry: `runLength` 0 points at a leaf directory.
    public struct Entry: Equatable, Sendable {
        public var tileID: UInt64
        public var offset: UInt64
        /// Bytes of the blob (read at full width: a value that cannot be true, beyond the
        /// file, is for the reader to refuse, never truncated).
        public var length: UInt64
        /// Tiles sharing the blob (0: a leaf directory), read at full width.
        public var runLength: UInt64
        public init(tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }
}
