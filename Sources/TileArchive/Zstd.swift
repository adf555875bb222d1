import CZstd

/// Zstandard frames (RFC 8878) through the system library: PMTiles archives may compress
/// their tiles and directories with it (compression 4).
public enum Zstd {
    /// Decompresses `input` (one or more frames), refusing to produce more than `limit`
    /// bytes.
    ///
    /// - Throws: `ArchiveCompression.Error.corrupt` for input that is not zstd or ends
    ///   early, `.tooLarge` past the limit.
    public static func decompress(_ input: [UInt8], limit: Int = 1 << 30) throws(ArchiveCompression.Error) -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw .corrupt("zstd", "cannot initialise", offset: 0) }
        defer { ZSTD_freeDStream(stream) }
        ZSTD_initDStream(stream)
        var out = [UInt8](repeating: 0, count: max(256, min(limit, input.count * 4)))
        var produced = 0
        return try input.withUnsafeBufferPointer { (src) throws(ArchiveCompression.Error) -> [UInt8] in
            var inBuffer = ZSTD_inBuffer(src: src.baseAddress, size: src.count, pos: 0)
            var last = 1
            while inBuffer.pos < inBuffer.size || last != 0 {
                if produced == out.count {
                    guard out.count < limit else { throw .tooLarge("zstd", limit: limit) }
                    out.append(contentsOf: repeatElement(0, count: min(out.count, limit - out.count)))
                }
                let before = inBuffer.pos
                let r = out.withUnsafeMutableBufferPointer { o -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: o.baseAddress, size: o.count, pos: produced)
                    let r = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    produced = outBuffer.pos
                    return r
                }
                if ZSTD_isError(r) != 0 {
                    throw .corrupt("zstd", String(cString: ZSTD_getErrorName(r)), offset: inBuffer.pos)
                }
                last = r
                // All input read, output room left, and the frame still wants more: it ends early.
                if inBuffer.pos == inBuffer.size && r != 0 && produced < out.count && before == inBuffer.pos {
                    throw .corrupt("zstd", "truncated frame", offset: src.count)
                }
            }
            out.removeSubrange(produced...)
            return out
        }
    }

    /// Compresses `input` (level 19 of 22).
    public static func compress(_ input: [UInt8], level: Int32 = 19) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let n = input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                ZSTD_compress(dst.baseAddress, dst.count, src.baseAddress, src.count, level)
            }
        }
        precondition(ZSTD_isError(n) == 0, "zstd cannot fail to compress into its bound")
        out.removeSubrange(n...)
        return out
    }
}
