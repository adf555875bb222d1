import JSON
import GeoModel

/// Reads the features of a FeatureCollection one at a time, from a file or any byte
/// source, with memory bounded by the largest feature plus the read window — whatever the
/// size of the file (RFC 7946 §3.3).
///
/// The first feature is returned as soon as its bytes have been read. Members of the
/// collection may come in any order (`type` after `features`, `bbox` before it); the
/// collection's `type` is checked when it has been seen (at the latest, at the end).
///
/// ```swift
/// let reader = try GeoJSONFeatureReader(path: "big.geojson")
/// while let feature = try reader.next() { ... }
/// ```
///
/// A top-level Feature is returned as the only feature; a top-level geometry as one
/// feature with that geometry and null properties.
public final class GeoJSONFeatureReader {
    /// What to do with a feature that is well-formed JSON but not valid GeoJSON.
    public enum InvalidFeaturePolicy: Sendable {
        /// Throw its error (the default).
        case fail
        /// Skip it, record it in `skipped` and go on. Nothing is dropped silently.
        case skip
    }

    /// A feature left out under `.skip`.
    public struct SkippedFeature: Equatable, Sendable {
        public var index: Int
        /// Where the feature starts.
        public var location: SourceLocation
        public var error: GeoJSONError
    }

    enum State { case start, inFeatures(first: Bool), afterFeatures, single(GeoFeature?), done }

    var parser: _GeoJSONParser
    var state = State.start
    var root = _ObjectParts()
    let policy: InvalidFeaturePolicy
    /// Features skipped so far (policy `.skip`).
    public private(set) var skipped: [SkippedFeature] = []
    /// Index of the next feature in the collection (skipped ones included).
    public private(set) var nextIndex = 0

    /// Elements of `features` that start at or after this absolute byte offset are left
    /// unread: `next()` returns nil before the first of them and the reader pauses there
    /// (`stoppedAt`), to read one part of a collection while other readers read the rest
    /// (`init(file:featuresFrom:)`, `resumeAfterFeatures(at:featureCount:)`).
    public var limit = Int.max { didSet { readsPart = readsElementsOnly || limit != Int.max } }
    /// Whether this reader reads a part (`limit` set, or elements only): one test per
    /// feature on the common path.
    private var readsPart = false
    /// Whether the reader paused at `limit` (its state is `.done` until resumed).
    private var paused = false
    /// Where the first element of `features` this reader came to starts (or the array's
    /// `]`, when it came to none).
    public private(set) var firstStart: Int?
    /// The start of the element the reader paused before, at `limit`.
    public private(set) var stoppedAt: Int?
    /// The root object's `type` once the root has been read whole: "FeatureCollection",
    /// "Feature" or a geometry type.
    public private(set) var rootType: String?
    /// The offset just after the `]` that closes `features`, once read.
    public private(set) var featuresEnd: Int?
    /// True for a reader of elements of `features` only (`init(file:featuresFrom:)`).
    let readsElementsOnly: Bool

    /// Reads from `source` in reads of `chunkSize` bytes.
    public init(source: some GeoJSONByteSource, chunkSize: Int = 65_536,
                options: GeoJSONReadOptions = GeoJSONReadOptions(), onInvalidFeature: InvalidFeaturePolicy = .fail) {
        parser = _GeoJSONParser(cursor: JSONTokenizer(source: source, chunkSize: chunkSize, maxDepth: options.maxDepth),
                                options: options)
        policy = onInvalidFeature
        readsElementsOnly = false
    }

    /// A reader of the elements of a collection's `features` array only, from the element
    /// that starts at the absolute byte offset `offset` of `file` up to the array's end
    /// (`featuresEnd`) or the first element at or after `limit`. Feature indices count
    /// from 0 at `offset` (in `skipped`, and in the member paths of errors, which
    /// `GeoJSONError.renumberingFeatures(by:)` moves); offsets, lines and columns are the
    /// file's. Nothing after the array is read.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be positioned at `offset`.
    public init(file: FileByteSource, featuresFrom offset: Int, chunkSize: Int = 65_536,
                options: GeoJSONReadOptions = GeoJSONReadOptions(),
                onInvalidFeature: InvalidFeaturePolicy = .fail) throws(GeoJSONSourceError) {
        try file.seek(to: offset)
        parser = _GeoJSONParser(cursor: JSONTokenizer(source: file, chunkSize: chunkSize, maxDepth: options.maxDepth),
                                options: options)
        parser.tokens.baseOffset = offset
        parser.tokens.countedTo = offset
        policy = onInvalidFeature
        readsElementsOnly = true
        readsPart = true
        state = .inFeatures(first: true)
        root.features = []
    }

    /// Goes on after a pause at `limit` from the end of `features`, at the absolute offset
    /// `offset` just after its `]`, as if this reader had read the `featureCount` features
    /// before it: the rest of the collection is read and checked by the next `next()`.
    /// The source must be a file.
    public func resumeAfterFeatures(at offset: Int, featureCount: Int) throws(GeoJSONSourceError) {
        guard paused, let file = parser.tokens.source as? FileByteSource else {
            throw GeoJSONSourceError("the reader is not paused in a file's features")
        }
        try file.seek(to: offset)
        parser.tokens.baseOffset = offset
        parser.tokens.pos = 0
        parser.tokens.end = 0
        parser.tokens.atEnd = false
        parser.tokens.mark = nil
        parser.tokens.forgetRemembered()
        nextIndex = featureCount
        featuresEnd = offset
        paused = false
        state = .afterFeatures
    }

    /// A reader over a whole text held by the caller (`GeoJSONBatchReader`), which must
    /// outlive the reader.
    init(borrowing bytes: UnsafeRawBufferPointer, options: GeoJSONReadOptions, onInvalidFeature: InvalidFeaturePolicy) {
        parser = _GeoJSONParser(cursor: JSONTokenizer(borrowing: bytes, maxDepth: options.maxDepth), options: options)
        policy = onInvalidFeature
        readsElementsOnly = false
    }

    /// What `next()` returns for a feature read into `parser.batch` (its row holds it).
    static let inBatch = GeoFeature(geometry: nil, properties: nil)

    /// Where the root object starts (a root Feature's offset in a batch).
    var rootStart: Int { root.start }

    /// Reads the file at `path`.
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be opened.
    public convenience init(path: String, chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions(),
                            onInvalidFeature: InvalidFeaturePolicy = .fail) throws(GeoJSONSourceError) {
        self.init(source: try FileByteSource(path: path), chunkSize: chunkSize, options: options,
                  onInvalidFeature: onInvalidFeature)
    }

    deinit { parser.tokens.deallocate() }

    /// Bytes consumed so far (for progress reports).
    public var bytesConsumed: Int { parser.tokens.baseOffset + parser.tokens.pos }

    /// Bytes currently held by the read window (its capacity).
    public var windowCapacity: Int { parser.tokens.capacity }

    /// The collection's `bbox` member, once read.
    public var bbox: [Double]? { root.bbox }

    /// The collection's `crs` member (obsolete, RFC 7946 §4), once read.
    public var crs: PropertyValue? { root.crs }

    /// Warnings collected so far when `options.collectFindings` is set.
    public var findings: [GeoJSONFinding] { parser.findings ?? [] }

    /// How many MUSTs of RFC 7946 were read past so far because `options.strict` is off
    /// (see `GeoJSONReadOptions.strict`); 0 in strict reading, where each is an error.
    public var toleratedViolations: Int { parser.toleratedViolations }

    /// The next feature, or nil after the last one (and after checking that the rest of
    /// the text is well-formed).
    ///
    /// - Complexity: O(size of the feature) amortised.
    /// - Throws: `GeoJSONError`; after an error the reader is finished.
    public func next() throws(GeoJSONError) -> GeoFeature? {
        do {
            return try step()
        } catch {
            state = .done
            throw error
        }
    }

    private func step() throws(GeoJSONError) -> GeoFeature? {
        while true {
            switch state {
            case .done:
                return nil
            case .single(let f):
                state = .done
                return f
            case .start:
                try parser.tokens.skipBOM()
                guard let b = try parser.tokens.peekNonWhitespace() else { throw parser.tokens.error(.unexpectedEnd, at: parser.tokens.end) }
                guard b == UInt8(ascii: "{") else {
                    throw parser.tokens.error(.unexpectedByte(b, expected: "a GeoJSON object (RFC 7946 §2)"), at: parser.tokens.pos)
                }
                root.start = parser.tokens.offset(parser.tokens.pos)
                parser.tokens.remember(parser.tokens.pos, root: true)
                parser.tokens.pos += 1
                if try parser.tokens.peekNonWhitespace() == UInt8(ascii: "}") {
                    parser.tokens.pos += 1
                    try finishRoot()
                    continue
                }
                if try readRootMembers() { state = .inFeatures(first: true) }
            case .inFeatures(let first):
                if first {
                    guard let b = try parser.tokens.peekNonWhitespace() else { throw parser.tokens.error(.unexpectedEnd, at: parser.tokens.end) }
                    if b == UInt8(ascii: "]") {
                        if firstStart == nil { firstStart = parser.tokens.offset(parser.tokens.pos) }
                        parser.tokens.pos += 1
                        state = .afterFeatures
                        continue
                    }
                } else {
                    if try !parser.tokens.afterArrayElement() {
                        state = .afterFeatures
                        continue
                    }
                }
                if readsPart, try pausesAtLimit() { return nil }
                state = .inFeatures(first: false)
                if let f = try readFeature() { return f }
            case .afterFeatures:
                if readsPart, try endsPart() { return nil }
                let d = try parser.tokens.nextNonWhitespace(expected: "',' or '}'")
                if d == UInt8(ascii: "}") {
                    try finishRoot()
                    continue
                }
                guard d == UInt8(ascii: ",") else {
                    throw parser.tokens.error(.unexpectedByte(d, expected: "',' or '}'"), at: parser.tokens.pos - 1)
                }
                if try readRootMembers() {
                    throw parser.tokens.error(.duplicateMember("features"), at: parser.tokens.pos).prefixed(.key("features"))
                }
            }
        }
    }

    /// Before an element of `features`, reading a part: pauses when the element starts at
    /// or after `limit` (true). At the input's end it does not, and `readFeature` reports
    /// the truncation as one pass does.
    @inline(never)
    private func pausesAtLimit() throws(GeoJSONError) -> Bool {
        guard try parser.tokens.peekNonWhitespace() != nil else { return false }
        let start = parser.tokens.offset(parser.tokens.pos)
        if firstStart == nil { firstStart = start }
        guard start >= limit else { return false }
        stoppedAt = start
        state = .done
        paused = true
        return true
    }

    /// After the `]` of `features`, reading a part: records where the array ends, and
    /// ends a reader of elements only there (true).
    @inline(never)
    private func endsPart() throws(GeoJSONError) -> Bool {
        if featuresEnd == nil { featuresEnd = parser.tokens.offset(parser.tokens.pos) }
        guard readsElementsOnly else { return false }
        state = .done
        return true
    }

    /// Reads root members up to and including `"features": [`, returning true there, or to
    /// the closing brace (then finishes the root), returning false.
    private func readRootMembers() throws(GeoJSONError) -> Bool {
        while true {
            let (member, otherName) = try parser.readMemberHeader(into: &root)
            if member == .features {
                if let t = root.type, t != "FeatureCollection" {
                    throw parser.fail("RFC 7946 §7.1", "\"features\" in a \(t) object", at: parser.tokens.offset(parser.tokens.pos))
                        .prefixed(.key("features"))
                }
                guard let b = try parser.tokens.peekNonWhitespace() else { throw parser.tokens.error(.unexpectedEnd, at: parser.tokens.end) }
                guard b == UInt8(ascii: "[") else {
                    throw parser.fail("RFC 7946 §3.3", "\"features\" must be an array", at: parser.tokens.offset(parser.tokens.pos))
                        .prefixed(.key("features"))
                }
                parser.tokens.pos += 1
                root.features = []
                return true
            }
            do {
                if member == .other, !parser.options.skipProperties {
                    // A root Feature's foreign members are kept (a collection's are not used).
                    try parser.keepForeignMember(otherName ?? "", into: &root, depth: 1)
                } else {
                    try parser.parseMember(member, into: &root, depth: 1)
                }
            } catch {
                throw error.prefixed(.key(otherName ?? member.name))
            }
            let d = try parser.tokens.nextNonWhitespace(expected: "',' or '}'")
            if d == UInt8(ascii: "}") {
                try finishRoot()
                return false
            }
            guard d == UInt8(ascii: ",") else {
                throw parser.tokens.error(.unexpectedByte(d, expected: "',' or '}'"), at: parser.tokens.pos - 1)
            }
        }
    }

    /// After the root's closing brace: only whitespace may follow; the type decides.
    private func finishRoot() throws(GeoJSONError) {
        if try parser.tokens.peekNonWhitespace() != nil { throw parser.tokens.error(.trailingContent, at: parser.tokens.pos) }
        if root.features != nil {
            guard let t = root.type else {
                throw parser.fail("RFC 7946 §1.4", "a GeoJSON object needs a \"type\" member", at: root.start)
            }
            guard t == "FeatureCollection" else {
                throw parser.fail("RFC 7946 §7.1", "\"features\" in a \(t) object", at: root.start)
            }
            // §7.1 on the collection itself, as `finish` checks it for whole documents.
            let saved = parser.findingPrefix
            parser.findingPrefix = []
            defer { parser.findingPrefix = saved }
            try parser.forbid([.coordinates, .geometries, .geometry, .properties], seen: root.seen, in: "a FeatureCollection", at: root.start)
            rootType = t
            state = .done
            return
        }
        switch try parser.finish(&root, role: .root) {
        case .feature(let f): state = .single(f); rootType = "Feature"
        case .geometry(let g): state = .single(GeoFeature(geometry: g, properties: nil)); rootType = g.kind.rawValue
        case .featureCollection: state = .done; rootType = "FeatureCollection"
        }
    }

    /// Reads elements of `features` into `parser.batch` while they start before the
    /// absolute offset `limit`, in one call into the parser (no access to this object's
    /// state per feature). False, having read nothing, when the reader is not between
    /// elements of `features` or reads with `.skip` or reads a part: `next()` goes on
    /// then.
    func readFeatureRun(until limit: Int) throws(GeoJSONError) -> Bool {
        guard case .inFeatures(let first) = state, policy == .fail, !readsPart else { return false }
        var index = nextIndex
        do {
            let ended = try parser.readFeaturesIntoBatch(first: first, index: &index, until: limit)
            state = ended ? .afterFeatures : .inFeatures(first: first && index == nextIndex)
            nextIndex = index
        } catch {
            state = .done
            throw error
        }
        return true
    }

    /// One element of `features`; nil when it was skipped.
    private func readFeature() throws(GeoJSONError) -> GeoFeature? {
        let index = nextIndex
        nextIndex += 1
        _ = try parser.tokens.peekNonWhitespace()
        let start = parser.tokens.offset(parser.tokens.pos)
        if policy == .skip { parser.tokens.mark = start }
        defer { parser.tokens.mark = nil }
        if parser.findings != nil { parser.findingPrefix = [.key("features"), .index(index)] }
        parser.tokens.forgetRemembered()
        do {
            if parser.fillsBatch {
                try parser.parseFeatureIntoBatch(depth: 2, start: start)
                return GeoJSONFeatureReader.inBatch
            }
            return try parser.parseFeature(depth: 2)
        } catch {
            let e = error.prefixed(.index(index)).prefixed(.key("features"))
            guard policy == .skip, case .invalidGeoJSON = error.kind else { throw e }
            // The feature is JSON but not GeoJSON: go back to its start and step over it.
            parser.tokens.pos = start - parser.tokens.baseOffset
            let location = parser.tokens.location(of: parser.tokens.pos)
            try parser.tokens.skipValue(depth: 2)
            skipped.append(SkippedFeature(index: index, location: location, error: e))
            return nil
        }
    }
}
