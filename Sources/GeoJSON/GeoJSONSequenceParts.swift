#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a GeoJSON sequence file (RFC 8142 or newline-delimited) can be cut so that its
/// parts are read at the same time, by `GeoJSONFeatureStream(path:part:format:)` each.
///
/// A cut lies where a reading of the whole file is between two elements: at an RS byte
/// (RFC 8142: an RS cannot occur inside a valid element, and a broken element is skipped
/// up to the next RS, RFC 7464 §2.1), or after a line feed (newline-delimited: an element
/// ends with its line, and a broken one is skipped up to the end of its line). The one
/// exception is a valid newline-delimited element that spans lines: the reader of the
/// part before the cut reads it whole and stops at a later offset than the next part
/// started from. `PartEnd.stoppedAt` and `PartEnd.firstStart` tell this apart, and the
/// caller reads that part again from the offset the earlier part stopped at.
public enum GeoJSONSequenceParts {
    /// The format a reading of the whole file finds: RFC 8142 when the first byte that is
    /// not white space (after a byte-order mark) is RS, newline-delimited otherwise.
    public static func format(of source: FileByteSource) -> GeoJSONSequenceReader.Format {
        var head = source.peek(65_536)[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        // A file that starts with more than 64 KiB of white space is read until its first
        // other byte.
        var offset = 65_536
        while true {
            if let b = head.first(where: { !_Tokenizer.isWhitespace($0) }) {
                return b == GeoJSONSequenceReader.rs ? .rfc8142 : .newlineDelimited
            }
            var more = [UInt8](repeating: 0, count: 65_536)
            guard let n = more.withUnsafeMutableBytes({ source.reread(at: offset, into: $0) }), n > 0 else {
                return .newlineDelimited
            }
            head = more[..<n]
            offset += n
        }
    }

    /// The file at `path` cut into `count` consecutive byte ranges of about equal size,
    /// each starting at a cut (see the type's description); ranges are empty when the
    /// file has fewer cut points than parts. The ranges depend only on the file's bytes.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be read or is not a regular file.
    public static func ranges(path: String, count: Int) throws(GeoJSONSourceError)
        -> (format: GeoJSONSequenceReader.Format, ranges: [Range<Int>]) {
        precondition(count >= 1, "at least one part")
        let source = try FileByteSource(path: path)
        guard let size = source.size else { throw GeoJSONSourceError("\(path): only a regular file can be read in parts") }
        let format = Self.format(of: source)
        var bounds = [0]
        for i in 1..<max(count, 1) {
            let target = Swift.max(size / count * i, bounds[bounds.count - 1])
            bounds.append(cut(in: source, from: target, size: size, format: format))
        }
        bounds.append(size)
        return (format, (0..<count).map { bounds[$0]..<Swift.max(bounds[$0], bounds[$0 + 1]) })
    }

    /// The first cut at or after `target`: the offset of an RS (RFC 8142), or the offset
    /// after a line feed (newline-delimited); `size` when there is none.
    static func cut(in source: FileByteSource, from target: Int, size: Int, format: GeoJSONSequenceReader.Format) -> Int {
        let stop: UInt8 = format == .rfc8142 ? GeoJSONSequenceReader.rs : 0x0A
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var at = target
        while at < size {
            let n = buffer.withUnsafeMutableBytes { source.reread(at: at, into: $0) } ?? 0
            guard n > 0 else { break }
            if let i = buffer[..<n].firstIndex(of: stop) {
                return at + i + (stop == 0x0A ? 1 : 0)
            }
            at += n
        }
        return size
    }
}
