import JSON
import GeoModel

/// Reads a sequence of GeoJSON texts: RFC 8142 GeoJSON text sequences (each text after an
/// ASCII RS, 0x1E, media type `application/geo+json-seq`) or newline-delimited GeoJSON as
/// GDAL's GeoJSONSeq driver and other tools write it (`.geojsonl`, `.geojsons`).
///
/// The format is detected from the first non-whitespace byte: RS means RFC 8142, anything
/// else newline-delimited. Elements may be any GeoJSON object (RFC 8142 §2 allows
/// heterogeneous sequences).
///
/// A broken element (truncated by a crashed writer, or not GeoJSON) is recorded in
/// `broken` and reading resumes at the next RS (RFC 7464 §2.1) or, newline-delimited, at
/// the next line. Consecutive RS bytes are not empty elements and are skipped (RFC 7464
/// §2.1). Memory is bounded by the largest element plus the read window.
public final class GeoJSONSequenceReader {
    public enum Format: Sendable, Equatable { case rfc8142, newlineDelimited }

    /// An element that could not be read.
    public struct BrokenElement: Equatable, Sendable {
        /// Position of the element in the sequence (counting broken ones).
        public var index: Int
        public var error: GeoJSONError
    }

    var parser: _GeoJSONParser
    public private(set) var format: Format?
    public private(set) var broken: [BrokenElement] = []
    public private(set) var nextIndex = 0
    var started = false
    /// Elements that start at or after this absolute byte offset are left unread: `next()`
    /// returns nil before the first of them. Set it to read one part of a file
    /// (`GeoJSONFeatureStream.forEach(part:...)`).
    public var limit = Int.max
    /// The absolute offset where the first element started, once `next()` has found one
    /// (or the input's end, when it holds none).
    public private(set) var firstStart: Int?
    /// Where `next()` stopped once it returned nil: the start of the first element at or
    /// after `limit`, or the end of the input.
    public private(set) var stoppedAt: Int?

    public init(source: some GeoJSONByteSource, chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions()) {
        parser = _GeoJSONParser(cursor: JSONTokenizer(source: source, chunkSize: chunkSize, maxDepth: options.maxDepth),
                                options: options)
    }

    /// A reader of the elements of `source` from the absolute byte offset `offset` on, read
    /// as `format`: a part of a file whose earlier bytes another reader reads. Offsets,
    /// lines and columns in errors stay those of the whole file (`source` re-reads its
    /// bytes from the start to count lines); element indices count from 0 at `offset`.
    /// `offset` 0 reads the whole file, the byte-order mark included.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be positioned at `offset`.
    public init(file source: FileByteSource, startingAt offset: Int, format: Format,
                chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions()) throws(GeoJSONSourceError) {
        try source.seek(to: offset)
        parser = _GeoJSONParser(cursor: JSONTokenizer(source: source, chunkSize: chunkSize, maxDepth: options.maxDepth),
                                options: options)
        parser.tokens.baseOffset = offset
        parser.tokens.countedTo = offset
        self.format = format
        started = offset > 0
    }

    public convenience init(path: String, chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions()) throws(GeoJSONSourceError) {
        self.init(source: try FileByteSource(path: path), chunkSize: chunkSize, options: options)
    }

    deinit { parser.tokens.deallocate() }

    public var bytesConsumed: Int { parser.tokens.baseOffset + parser.tokens.pos }

    /// Warnings (and tolerated errors) collected when `options.collectFindings` is set.
    public var findings: [GeoJSONFinding] { parser.findings ?? [] }

    /// How many MUSTs of RFC 7946 were read past so far because `options.strict` is off
    /// (see `GeoJSONReadOptions.strict`); 0 in strict reading, where each is an error.
    public var toleratedViolations: Int { parser.toleratedViolations }

    static let rs: UInt8 = 0x1E

    /// The next readable element, or nil at the end of the input.
    ///
    /// - Throws: only `GeoJSONError`s of the source itself (a failed read); bad elements
    ///   are recorded in `broken`.
    public func next() throws(GeoJSONError) -> GeoObject? {
        if !started {
            started = true
            try parser.tokens.skipBOM()
        }
        while true {
            // Skip whitespace and RS bytes between elements.
            var sawRS = false
            while true {
                guard let b = try parser.tokens.peekNonWhitespace() else {
                    stoppedAt = parser.tokens.offset(parser.tokens.pos)
                    if firstStart == nil { firstStart = stoppedAt }
                    return nil
                }
                if b == Self.rs {
                    sawRS = true
                    parser.tokens.pos += 1
                    continue
                }
                break
            }
            if format == nil { format = sawRS ? .rfc8142 : .newlineDelimited }
            let start = parser.tokens.offset(parser.tokens.pos)
            if firstStart == nil { firstStart = start }
            if start >= limit {
                stoppedAt = start
                return nil
            }
            let index = nextIndex
            nextIndex += 1
            parser.tokens.mark = start
            parser.tokens.forgetRemembered()
            defer { parser.tokens.mark = nil }
            do throws(GeoJSONError) {
                guard let b = try parser.tokens.peekNonWhitespace() else { return nil }
                guard b == UInt8(ascii: "{") else {
                    throw parser.tokens.error(.unexpectedByte(b, expected: "a GeoJSON object (RFC 8142 §2)"), at: parser.tokens.pos)
                }
                var parts = try parser.parseObject(depth: 1, role: .root)
                let built = try parser.finish(&parts, role: .root)
                try checkElementEnd()
                switch built {
                case .geometry(let g): return .geometry(g)
                case .feature(let f): return .feature(f)
                case .featureCollection(let fs): return .featureCollection(fs)
                }
            } catch {
                if case .readFailed = error.kind { throw error }
                broken.append(BrokenElement(index: index, error: error))
                // Go back to the element's start (kept by the mark), so a newline-delimited
                // element that broke off is not allowed to swallow the next line.
                parser.tokens.pos = start - parser.tokens.baseOffset + 1
                try resynchronise()
            }
        }
    }

    /// After an element: RFC 8142 wants LF then RS (or the end); newline-delimited wants
    /// the end of the line. Other content on the same element is an error.
    private func checkElementEnd() throws(GeoJSONError) {
        while true {
            if parser.tokens.pos == parser.tokens.end {
                if try !parser.tokens.refill() { return }
                continue
            }
            let b = parser.tokens.base[parser.tokens.pos]
            if b == 0x0A || b == Self.rs { return }
            guard JSONTokenizer.isWhitespace(b) else { throw parser.tokens.error(.trailingContent, at: parser.tokens.pos) }
            parser.tokens.pos += 1
        }
    }

    /// Steps to the next RS (RFC 8142) or past the next LF (newline-delimited).
    private func resynchronise() throws(GeoJSONError) {
        let stop: UInt8 = format == .rfc8142 ? Self.rs : 0x0A
        while true {
            while parser.tokens.pos < parser.tokens.end {
                if parser.tokens.base[parser.tokens.pos] == stop {
                    if stop == 0x0A { parser.tokens.pos += 1 }
                    return
                }
                parser.tokens.pos += 1
            }
            if try !parser.tokens.refill() { return }
        }
    }
}
