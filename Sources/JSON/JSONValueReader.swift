import GeoModel

/// Reads any JSON text (RFC 8259) into a `PropertyValue` tree: the JSON layer under the
/// GeoJSON reader, with the same tokenizer, number conversion, policies and errors (see
/// `GeoJSONReadOptions` for the BOM, duplicate-name, number and surrogate policies; here
/// duplicate names in objects are kept in order).
public enum JSONValueReader {
    /// Parses one JSON text: any value (RFC 8259 §2 allows a top-level scalar), then only
    /// whitespace.
    ///
    /// - Complexity: O(n); allocates the resulting tree.
    /// - Throws: `JSONError` with byte offset, line, column and member path.
    public static func read(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws(JSONError) -> PropertyValue {
        var c = JSONTokenizer(borrowing: bytes, maxDepth: maxDepth)
        try c.skipBOM()
        return try readText(&c)
    }

    public static func read(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONError) -> PropertyValue {
        var result: Result<PropertyValue, JSONError>!
        bytes.withUnsafeBytes { raw in
            do throws(JSONError) { result = .success(try read(raw, maxDepth: maxDepth)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON text from a source read in `chunkSize` pieces.
    public static func read(from source: some JSONByteSource, chunkSize: Int = 65_536,
                            maxDepth: Int = 512) throws(JSONError) -> PropertyValue {
        var c = JSONTokenizer(source: source, chunkSize: chunkSize, maxDepth: maxDepth)
        defer { c.deallocate() }
        try c.skipBOM()
        return try readText(&c)
    }

    static func readText(_ c: inout JSONTokenizer) throws(JSONError) -> PropertyValue {
        let v = try c.readValue(depth: 0)
        // RFC 8259 §2: only whitespace may follow. A top-level number must be followed by
        // whitespace or the end, which the number scanner's atEnd logic already ensures.
        if try c.peekNonWhitespace() != nil { throw c.error(.trailingContent, at: c.pos) }
        return v
    }
}
