#if canImport(Glibc)
import JSON
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
        let bom = source.peek(3) == [0xEF, 0xBB, 0xBF] ? 3 : 0
        var first: UInt8 = 0
        _ = source.firstOffset(from: bom) { b, _ in
            first = b
            return !JSONTokenizer.isWhitespace(b)
        }
        return first == GeoJSONSequenceReader.rs ? .rfc8142 : .newlineDelimited
    }

    /// The file at `path` cut into `count` consecutive byte ranges of about equal size,
    /// each starting at a cut (see the type's description); ranges are empty when the
    /// file has fewer cut points than parts. The ranges depend only on the file's bytes.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be read or is not a regular file.
    public static func ranges(path: String, count: Int) throws(GeoJSONSourceError)
        -> (format: GeoJSONSequenceReader.Format, ranges: [Range<Int>]) {
        let source = try FileByteSource(path: path)
        let format = Self.format(of: source)
        return (format, try source.parts(count) { cut(in: source, from: $0, format: format) })
    }

    /// The first cut at or after `target`: the offset of an RS (RFC 8142), or the offset
    /// after a line feed (newline-delimited); `size` when there is none.
    static func cut(in source: FileByteSource, from target: Int, format: GeoJSONSequenceReader.Format) -> Int? {
        if format == .rfc8142 { return source.firstOffset(from: target) { b, _ in b == GeoJSONSequenceReader.rs } }
        return source.firstOffset(from: target) { b, _ in b == 0x0A }.map { $0 + 1 }
    }
}

extension FileByteSource {
    /// The file cut into `count` consecutive byte ranges: range i > 0 starts at
    /// `cut(target)` for the target `size / count · i` (not before the previous start; nil:
    /// no cut, the end of the file). Ranges are empty when cuts run out.
    ///
    /// - Throws: `GeoJSONSourceError` when the file is not a regular file.
    func parts(_ count: Int, cut: (Int) -> Int?) throws(GeoJSONSourceError) -> [Range<Int>] {
        precondition(count >= 1, "at least one part")
        guard let size else { throw GeoJSONSourceError("\(path): only a regular file can be read in parts") }
        var bounds = [0]
        for i in 1..<count {
            let target = Swift.max(size / count * i, bounds[bounds.count - 1])
            bounds.append(Swift.min(target < size ? cut(target) ?? size : size, size))
        }
        bounds.append(size)
        return (0..<count).map { bounds[$0]..<Swift.max(bounds[$0], bounds[$0 + 1]) }
    }

    /// The offset of the first byte at or after `offset` for which `test(byte, offset)`
    /// holds, read again 64 KiB at a time; nil when none does.
    func firstOffset(from offset: Int, where test: (UInt8, Int) -> Bool) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var at = offset
        while let n = buffer.withUnsafeMutableBytes({ reread(at: at, into: $0) }), n > 0 {
            for i in 0..<n where test(buffer[i], at + i) { return at + i }
            at += n
        }
        return nil
    }
}
