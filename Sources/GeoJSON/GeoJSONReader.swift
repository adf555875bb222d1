import JSON
import GeoModel

/// How a GeoJSON text is read.
///
/// Policies that RFC 8259 and RFC 7946 leave open, decided here:
/// - **BOM**: a leading UTF-8 byte order mark (EF BB BF) is skipped (RFC 8259 §8.1 lets
///   parsers ignore it); a BOM anywhere else is an ordinary character.
/// - **Duplicate member names**: a GeoJSON member (`type`, `coordinates`, `geometry`,
///   `properties`, `features`, `geometries`, `id`, `bbox`, `crs`) twice in one object is an
///   error (`duplicateMember`), since the two could disagree on what the object is. Inside
///   `properties` duplicates are kept in order in the `PropertyList` (nothing is dropped;
///   lookup by key finds the first); the validator reports them.
/// - **Numbers**: correctly rounded doubles; `-0` keeps its sign; a magnitude that rounds
///   to infinity is an error; underflow gives ±0. Integers in `id` and properties are kept
///   exact as `Int64`/`UInt64` when they fit.
/// - **Positions** with more than three values: the extra values are dropped (RFC 7946
///   §3.1.1 lets parsers ignore them) and a warning is reported.
/// - **Lone surrogate escapes** (`"\uD800"`): rejected, as a Swift `String` cannot hold
///   them and replacing them would change the data.
/// - **The `crs` member** (removed by RFC 7946 §4): accepted and surfaced in
///   `GeoJSONDocument.crs`, never used to reproject.
public struct GeoJSONReadOptions: Sendable {
    /// The deepest nesting of arrays and objects accepted (deeper input gets
    /// `depthLimitExceeded`, never a stack overflow).
    public var maxDepth = 512
    /// Skip `properties` members without building them (geometry-only reading). The
    /// skipped JSON is still checked, as `skipContract` says.
    public var skipProperties = false
    /// What is checked in JSON values the reader skips (skipped `properties`, foreign
    /// members it does not keep).
    public enum SkipContract: String, Sendable, CaseIterable {
        /// Everything: each skipped scalar's grammar too, and an error is located at its
        /// byte, as if the value were read. The default.
        case validated
        /// Structure only, as simdjson's On-Demand API skips values: strings closed, no
        /// control byte in a string, no backslash outside one, brackets matched, nesting
        /// within `maxDepth`, UTF-8 well-formed; the grammar of skipped numbers and
        /// literals and the order of their tokens are not checked. A skipped value that
        /// breaks one of the checked rules, or does not lie whole in the read window, is
        /// read as under `validated` (and its error located the same way). The checks run
        /// over 64-byte blocks with vector compares: AVX2 where the CPU has it (found at run
        /// time), SSE2 elsewhere on x86-64, byte by byte on other CPUs.
        case structural
    }
    /// What is checked in skipped values (default `.validated`).
    public var skipContract = SkipContract.validated
    /// Batch readers (`GeoJSONBatchReader`) only: false keeps each `properties` member's
    /// name (its column, and the feature's list of members) with its row marked `.unread`,
    /// and skips the value, checked as `skipContract` says; the object's own grammar (names,
    /// colons, commas) is read as with values. Counting features by property name then
    /// costs about as much as a geometry-only read. Readers of `GeoFeature`s read values
    /// whatever this says (`skipProperties` skips them). Default true.
    public var keepPropertyValues = true
    /// Reject the MUSTs of RFC 7946 that reading can otherwise go past: a Feature without
    /// `geometry` or `properties` (§3.2 requires both) and members §7.1 forbids
    /// (`coordinates` in a Feature, `geometries` in a Point, ...). Off, such a feature is
    /// read (a missing member as null, a forbidden one ignored), counted in the readers'
    /// `toleratedViolations`, and reported as an error finding when findings are collected.
    public var strict = false
    /// Collect warnings (`GeoJSONFinding`) while reading; see `GeoJSONValidator`.
    public var collectFindings = false
    /// Batch readers take a collection's features through the fast path first
    /// (FeatureFastPath.swift); false reads every feature with the validating path. Not
    /// API: the tests compare the two.
    var _fastPath = true

    public init(maxDepth: Int = 512, skipProperties: Bool = false, strict: Bool = false) {
        self.maxDepth = maxDepth
        self.skipProperties = skipProperties
        self.strict = strict
    }

    /// The defaults with `keepPropertyValues` false: each property's name is kept and its
    /// value skipped (checked as `skipContract` says). What a reader that counts features by
    /// property name asks for, as `graticule geojson stats` and `graticule profile` do.
    public static var propertyNamesOnly: GeoJSONReadOptions {
        var options = GeoJSONReadOptions()
        options.keepPropertyValues = false
        return options
    }
}

/// A validation finding: an error (the text breaks a MUST of RFC 7946) or a warning (a
/// SHOULD, or something parsers must accept but producers should not write).
public struct GeoJSONFinding: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var severity: Severity
    /// The section the finding rests on, as `RFC 7946 §3.1.6`.
    public var rule: String
    public var message: String
    public var location: SourceLocation
    public var path: [JSONPathComponent]

    public var pathString: String { GeoJSONError(kind: .trailingContent, location: location, path: path).pathString }

    public var description: String { "\(severity): \(message) (\(rule)) at \(location), in \(pathString)" }
}

/// A whole GeoJSON text: the object plus the top-level members that are not part of the
/// model (`bbox`, the obsolete `crs`).
public struct GeoJSONDocument: Equatable, Sendable {
    public var object: GeoObject
    /// The top-level `bbox` member (RFC 7946 §5), as written.
    public var bbox: [Double]?
    /// The top-level `crs` member if present (RFC 7946 §4 removed it; surfaced, not applied).
    public var crs: PropertyValue?

    public init(object: GeoObject, bbox: [Double]? = nil, crs: PropertyValue? = nil) {
        self.object = object
        self.bbox = bbox
        self.crs = crs
    }
}

/// Reads GeoJSON (RFC 7946) into `GeoModel` values.
///
/// ```swift
/// let doc = try GeoJSONReader.read(bytes)            // whole text in memory
/// for try feature in ... // see GeoJSONFeatureReader for files of any size
/// ```
public enum GeoJSONReader {
    /// Reads one GeoJSON text held in memory.
    ///
    /// - Complexity: O(n) in the size of the text; allocates the model (one coordinate
    ///   array per geometry) and nothing per position.
    /// - Throws: `GeoJSONError` with the byte offset, line, column and member path.
    public static func read(_ bytes: UnsafeRawBufferPointer,
                            options: GeoJSONReadOptions = GeoJSONReadOptions()) throws(GeoJSONError) -> GeoJSONDocument {
        var parser = _GeoJSONParser(cursor: JSONTokenizer(borrowing: bytes, maxDepth: options.maxDepth), options: options)
        try parser.tokens.skipBOM()
        return try parser.readDocument()
    }

    /// Reads one GeoJSON text held in memory.
    public static func read(_ bytes: [UInt8], options: GeoJSONReadOptions = GeoJSONReadOptions()) throws(GeoJSONError) -> GeoJSONDocument {
        var result: Result<GeoJSONDocument, GeoJSONError>!
        bytes.withUnsafeBytes { raw in
            do throws(GeoJSONError) { result = .success(try read(raw, options: options)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Reads one GeoJSON text from a source, in chunks of `chunkSize` bytes. The model is
    /// built as the bytes arrive; the text itself is never held whole.
    ///
    /// - Throws: `GeoJSONError`.
    public static func read(from source: some GeoJSONByteSource, chunkSize: Int = 65_536,
                            options: GeoJSONReadOptions = GeoJSONReadOptions()) throws(GeoJSONError) -> GeoJSONDocument {
        var parser = _GeoJSONParser(cursor: JSONTokenizer(source: source, chunkSize: chunkSize, maxDepth: options.maxDepth), options: options)
        defer { parser.tokens.deallocate() }
        try parser.tokens.skipBOM()
        return try parser.readDocument()
    }
}

extension _GeoJSONParser {
    /// One GeoJSON text: an object, then only whitespace.
    mutating func readDocument() throws(GeoJSONError) -> GeoJSONDocument {
        guard let first = try tokens.peekNonWhitespace() else { throw tokens.error(.unexpectedEnd, at: tokens.end) }
        guard first == UInt8(ascii: "{") else {
            throw tokens.error(.unexpectedByte(first, expected: "a GeoJSON object (RFC 7946 §2)"), at: tokens.pos)
        }
        var parts = try parseObject(depth: 1, role: .root)
        let built = try finish(&parts, role: .root)
        if let b = try tokens.peekNonWhitespace() {
            _ = b
            throw tokens.error(.trailingContent, at: tokens.pos)
        }
        let object: GeoObject
        switch built {
        case .geometry(let g): object = .geometry(g)
        case .feature(let f): object = .feature(f)
        case .featureCollection(let fs): object = .featureCollection(fs)
        }
        return GeoJSONDocument(object: object, bbox: parts.bbox, crs: parts.crs)
    }
}
