import CZlib

/// gzip (RFC 1952) and zlib (RFC 1950) streams through the system zlib: tiles in MBTiles
/// and PMTiles archives are usually gzip-compressed.
public enum Gzip {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// zlib's message and the input offset where inflating stopped.
        case corrupt(String, offset: Int)
        /// The output would exceed the caller's limit (a defence against compression bombs).
        case tooLarge(limit: Int)
        public var description: String {
            switch self {
            case .corrupt(let m, let o): return "gzip: \(m) at byte \(o)"
            case .tooLarge(let l): return "gzip: output exceeds \(l) bytes"
            }
        }
    }

    /// True when the bytes start with the gzip magic number.
    public static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Inflates a gzip or zlib stream (detected from its header). A gzip stream may be
    /// several members back to back (RFC 1952 §2.2): every member is inflated and their
    /// outputs joined, as `gzip -d` does. Bytes after the last member that do not start
    /// another one, and bytes after a zlib stream, are an error at their offset, never
    /// ignored. `limit` bounds the whole output.
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int = 1 << 30) throws(Error) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("cannot initialise", offset: 0)
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: max(256, min(limit, input.count * 4)))
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        var produced = 0
        while true {
            if produced == out.count {
                guard out.count < limit else { throw .tooLarge(limit: limit) }
                out.append(contentsOf: repeatElement(0, count: min(out.count, limit - out.count)))
            }
            let status: Int32 = out.withUnsafeMutableBufferPointer { o in
                stream.next_out = o.baseAddress! + produced
                stream.avail_out = uInt(o.count - produced)
                let s = inflate(&stream, Z_NO_FLUSH)
                produced = o.count - Int(stream.avail_out)
                return s
            }
            if status == Z_STREAM_END {
                let rest = Int(stream.avail_in)
                if rest == 0 { break }
                let at = input.count - rest
                guard isGzip(input), rest >= 2, input[at] == 0x1F, input[at + 1] == 0x8B else {
                    throw .corrupt("\(rest) byte\(rest == 1 ? "" : "s") after the end of the compressed data (not a gzip member)",
                                   offset: at)
                }
                // Another member: the same stream state, reset for a new header.
                guard inflateReset(&stream) == Z_OK else { throw .corrupt("cannot start the next member", offset: at) }
                continue
            }
            if status == Z_BUF_ERROR && stream.avail_in == 0 {
                throw .corrupt("truncated stream", offset: input.count)
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                let msg = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .corrupt(msg, offset: input.count - Int(stream.avail_in))
            }
        }
        out.removeSubrange(produced...)
        return out
    }

    public static func decompress(_ input: [UInt8], limit: Int = 1 << 30) throws(Error) -> [UInt8] {
        do {
            return try input.withUnsafeBytes { raw in try decompress(raw, limit: limit) }
        } catch let e as Error { throw e } catch { throw .corrupt("\(error)", offset: 0) }
    }

    /// Deflates into a gzip stream.
    public static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                   Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let written: Int = input.withUnsafeBytes { i in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = UnsafeMutablePointer(mutating: i.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                let s = deflate(&stream, Z_FINISH)
                precondition(s == Z_STREAM_END, "deflateBound was too small")
                return o.count - Int(stream.avail_out)
            }
        }
        out.removeSubrange(written...)
        return out
    }
}
