/// Where a FeatureCollection file can be cut so that the elements of its `features` array
/// are read at the same time: before a `{` that follows `}` and `,` (white space aside), the
/// way one feature follows another. That is a guess, not a parse: a nested object can look
/// the same. A reader that starts at a cut (`GeoJSONFeatureReader(file:featuresFrom:)`)
/// tells whether the cut was the start of a feature: the reader of the part before it
/// stops at the first feature at or after the cut (`stoppedAt`), and only when that is the
/// cut itself (`firstStart`) did the part begin where one pass would have been. Otherwise
/// the caller reads that part again from `stoppedAt`.
public enum GeoJSONCollectionParts {
    /// `count` consecutive byte ranges of the file at `path` of about equal size, each
    /// after the first starting at a cut; ranges are empty when cuts run out.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be read or is not a regular file.
    public static func ranges(path: String, count: Int) throws(GeoJSONSourceError) -> [Range<Int>] {
        precondition(count >= 1, "at least one part")
        let source = try FileByteSource(path: path)
        guard let size = source.size else { throw GeoJSONSourceError("\(path): only a regular file can be read in parts") }
        var bounds = [0]
        for i in 1..<max(count, 1) {
            bounds.append(cut(in: source, from: Swift.max(size / count * i, bounds[bounds.count - 1]), size: size))
        }
        bounds.append(size)
        return (0..<count).map { bounds[$0]..<Swift.max(bounds[$0], bounds[$0 + 1]) }
    }

    /// The first `{` at or after `target` whose previous bytes other than white space are
    /// `}` then `,`; `size` when there is none.
    static func cut(in source: FileByteSource, from target: Int, size: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var at = target
        var last: UInt8 = 0, beforeLast: UInt8 = 0
        while at < size {
            let n = buffer.withUnsafeMutableBytes { source.reread(at: at, into: $0) } ?? 0
            guard n > 0 else { break }
            for i in 0..<n {
                let b = buffer[i]
                if _Tokenizer.isWhitespace(b) { continue }
                if b == UInt8(ascii: "{") && last == UInt8(ascii: ",") && beforeLast == UInt8(ascii: "}") && at + i > target {
                    return at + i
                }
                (beforeLast, last) = (last, b)
            }
            at += n
        }
        return size
    }
}
