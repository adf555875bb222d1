/// The compressions a PMTiles archive names for its tiles and for its directories and
/// metadata (header bytes 97 and 98): none, gzip, brotli and zstd, each through the
/// system library.
public enum ArchiveCompression {
    /// Why bytes could not be decompressed.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The codec's message and the input offset where it stopped.
        case corrupt(String, String, offset: Int)
        /// The output would exceed the caller's limit (a defence against compression bombs).
        case tooLarge(String, limit: Int)

        public var description: String {
            switch self {
            case .corrupt(let codec, let m, let o): return "\(codec): \(m) at byte \(o)"
            case .tooLarge(let codec, let l): return "\(codec): output exceeds \(l) bytes"
            }
        }
    }

    /// `bytes` decompressed as `compression` says (`PMTiles.Compression` raw values: 1 none,
    /// 2 gzip, 3 brotli, 4 zstd).
    ///
    /// - Throws: `ArchiveCompression.Error` for corrupt input, unknown (0) or unsupported
    ///   codes, or output past `limit`.
    public static func decompress(_ bytes: [UInt8], compression: UInt8, limit: Int) throws(Error) -> [UInt8] {
        switch compression {
        case 1: return bytes
        case 2:
            do { return try Gzip.decompress(bytes, limit: limit) } catch {
                switch error {
                case .corrupt(let m, let o): throw .corrupt("gzip", m, offset: o)
                case .tooLarge(let l): throw .tooLarge("gzip", limit: l)
                }
            }
        case 3: return try Brotli.decompress(bytes, limit: limit)
        case 4: return try Zstd.decompress(bytes, limit: limit)
        default: throw .corrupt("compression \(compression)", "not a known compression", offset: 0)
        }
    }

    /// `bytes` compressed as `compression` says (1 none, 2 gzip, 3 brotli, 4 zstd).
    public static func compress(_ bytes: [UInt8], compression: UInt8) -> [UInt8] {
        switch compression {
        case 2: return Gzip.compress(bytes)
        case 3: return Brotli.compress(bytes)
        case 4: return Zstd.compress(bytes)
        default: return bytes
        }
    }
}
