import JSON

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
        let source = try FileByteSource(path: path)
        return try source.parts(count) { cut(in: source, from: $0) }
    }

    /// The first `{` after `target` whose previous bytes other than white space are `}`
    /// then `,`; nil when there is none.
    static func cut(in source: FileByteSource, from target: Int) -> Int? {
        var last: UInt8 = 0, beforeLast: UInt8 = 0
        return source.firstOffset(from: target) { b, offset in
            if JSONTokenizer.isWhitespace(b) { return false }
            if b == UInt8(ascii: "{") && last == UInt8(ascii: ",") && beforeLast == UInt8(ascii: "}") && offset > target {
                return true
            }
            (beforeLast, last) = (last, b)
            return false
        }
    }
}
