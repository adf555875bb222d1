import CBrotli

/// Brotli streams (RFC 7932) through the system library: PMTiles archives may compress
/// their tiles and directories with it (compression 3).
public enum Brotli {
    /// Decompresses `input`, refusing to produce more than `limit` bytes (a defence
    /// against compression bombs).
    ///
    /// - Throws: `ArchiveCompression.Error.corrupt` for a stream that is not brotli or ends
    ///   early, `.tooLarge` past the limit.
    public static func decompress(_ input: [UInt8], limit: Int = 1 << 30) throws(ArchiveCompression.Error) -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .corrupt("brotli", "cannot initialise", offset: 0) }
        defer { BrotliDecoderDestroyInstance(state) }
        var out = [UInt8](repeating: 0, count: max(256, min(limit, input.count * 4)))
        var produced = 0
        return try input.withUnsafeBufferPointer { (src) throws(ArchiveCompression.Error) -> [UInt8] in
            var nextIn = src.baseAddress
            var availIn = src.count
            while true {
                if produced == out.count {
                    guard out.count < limit else { throw .tooLarge("brotli", limit: limit) }
                    out.append(contentsOf: repeatElement(0, count: min(out.count, limit - out.count)))
                }
                let result = out.withUnsafeMutableBufferPointer { o -> BrotliDecoderResult in
                    var nextOut: UnsafeMutablePointer<UInt8>? = o.baseAddress! + produced
                    var availOut = o.count - produced
                    let r = BrotliDecoderDecompressStream(state, &availIn, &nextIn, &availOut, &nextOut, nil)
                    produced = o.count - availOut
                    return r
                }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    out.removeSubrange(produced...)
                    return out
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    throw .corrupt("brotli", "truncated stream", offset: src.count)
                default:
                    let code = BrotliDecoderGetErrorCode(state)
                    let message = BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "error"
                    throw .corrupt("brotli", message, offset: src.count - availIn)
                }
            }
        }
    }

    /// Compresses `input` (quality 9 of 11: the setting archive writers commonly use).
    public static func compress(_ input: [UInt8], quality: Int32 = 9) -> [UInt8] {
        var size = BrotliEncoderMaxCompressedSize(input.count)
        if size == 0 { size = input.count + 1024 }
        var out = [UInt8](repeating: 0, count: size)
        let ok = input.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, src.count, src.baseAddress,
                                      &size, dst.baseAddress)
            }
        }
        precondition(ok == BROTLI_TRUE, "brotli cannot fail to compress into its maximum size")
        out.removeSubrange(size...)
        return out
    }
}
