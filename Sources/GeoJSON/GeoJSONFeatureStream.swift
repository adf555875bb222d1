import JSON
import GeoModel

/// Every feature of a GeoJSON file of any size, whatever its layout: a FeatureCollection (or
/// a lone Feature or geometry), an RFC 8142 text sequence, or newline-delimited GeoJSON.
/// This is the loop the command-line tools and the dataset profiler share: the format is
/// sniffed, elements that are not features are turned into features, and features or
/// elements that cannot be read are reported to the caller, never dropped silently.
///
/// Memory is bounded by the largest feature plus the read window.
public struct GeoJSONFeatureStream {
    /// How a file's layout is chosen.
    public enum Format: String, Sendable, CaseIterable {
        /// A sequence when the name ends in `.geojsonl`, `.geojsons`, `.geojsonseq`, `.ndjson`
        /// or `.jsonl`, or the first byte that is not white space is RS (0x1E, RFC 8142 §2);
        /// a single GeoJSON text otherwise.
        case auto
        /// One GeoJSON text (RFC 7946), usually a FeatureCollection.
        case collection
        /// A GeoJSON text sequence (RFC 8142) or newline-delimited GeoJSON.
        case sequence
    }

    /// A feature or sequence element that could not be read and was skipped.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Index of the feature in the collection, or of the element in the sequence.
        public var index: Int
        /// Where the feature starts (collections only).
        public var location: SourceLocation?
        public var error: GeoJSONError

        public init(index: Int, location: SourceLocation?, error: GeoJSONError) {
            self.index = index
            self.location = location
            self.error = error
        }

        public var description: String { Self.text(index: index, location: location, error: "\(error)") }

        /// This problem of a part of a file (`init(path:part:format:)`, or a reader of part of
        /// a collection) in the whole file, whose part starts after `base` elements or
        /// features: the index moves by `base`, and for a collection's feature (which has a
        /// location) so does the `features[i]` component of the error's member path.
        public func renumbered(by base: Int) -> Problem {
            Problem(index: index + base, location: location,
                    error: location == nil ? error : error.renumberingFeatures(by: base))
        }

        /// The text of a problem from its parts (`description`; also for problems kept as
        /// text and renumbered, as in the shards of a profile).
        public static func text(index: Int, location: SourceLocation?, error: String) -> String {
            location.map { "feature \(index) at \($0): \(error)" } ?? "element \(index): \(error)"
        }
    }

    /// The file being read.
    public let source: FileByteSource
    /// Whether it is read as a sequence.
    public let isSequence: Bool
    /// Whether a feature of a collection that is not valid GeoJSON is skipped and reported
    /// (true) or ends the stream with its error (false). Broken elements of a sequence are
    /// always skipped and reported (RFC 8142 §2.4).
    public let skipsInvalidFeatures: Bool
    /// Whether the MUSTs of RFC 7946 that reading can go past (a Feature without
    /// `geometry` or `properties`, a member §7.1 forbids) are read past and counted in
    /// `toleratedViolations` (true), or make the feature invalid like any other error
    /// (false, the default: one verdict with `GeoJSONValidator`).
    public let lenient: Bool
    /// How many such MUSTs a lenient stream read past, once `forEach` has run.
    public private(set) var toleratedViolations = 0
    /// What the stream found the file to be, once `forEach` has run: "GeoJSON FeatureCollection"
    /// (or "GeoJSON Feature", "GeoJSON Point", ... for a lone object),
    /// "GeoJSON text sequence (RFC 8142)" or "newline-delimited GeoJSON".
    public private(set) var layout: String

    /// The part of a sequence file this stream reads (`init(path:part:format:)`), nil for
    /// the whole file.
    public let part: (range: Range<Int>, format: GeoJSONSequenceReader.Format)?
    /// How reading the part ended, once `forEach` has run over a part.
    public private(set) var partEnd: PartEnd?
    private var partReader: GeoJSONSequenceReader?

    /// - Throws: `GeoJSONSourceError` when the file cannot be opened.
    public init(path: String, format: Format = .auto, skipsInvalidFeatures: Bool = false,
                lenient: Bool = false) throws(GeoJSONSourceError) {
        part = nil
        self.lenient = lenient
        let source = try FileByteSource(path: path)
        self.source = source
        isSequence = Self.isSequence(source, format: format)
        self.skipsInvalidFeatures = skipsInvalidFeatures
        partReader = nil
        layout = isSequence ? "GeoJSON sequence" : "GeoJSON FeatureCollection"
    }

    /// A stream over one part of a sequence file (RFC 8142 or newline-delimited, read as
    /// `format`): the elements that start in `range`, the last of them read to its end
    /// even when that lies beyond the range. `GeoJSONSequenceParts` cuts a file into such
    /// parts. Locations in problems are those of the whole file; element indices count
    /// from 0 at the part's first element (add the elements of the parts before it).
    ///
    /// - Throws: `GeoJSONSourceError` when the file cannot be opened or is not a regular
    ///   file.
    public init(path: String, part range: Range<Int>, format: GeoJSONSequenceReader.Format,
                lenient: Bool = false) throws(GeoJSONSourceError) {
        source = try FileByteSource(path: path)
        self.lenient = lenient
        guard source.size != nil else { throw GeoJSONSourceError("\(path): only a regular file can be read in parts") }
        isSequence = true
        skipsInvalidFeatures = true
        part = (range, format)
        layout = Self.layoutName(format)
        partReader = try GeoJSONSequenceReader(file: source, startingAt: range.lowerBound, format: format,
                                               options: Self.options(GeoJSONReadOptions(), lenient: lenient))
        partReader?.limit = range.upperBound
    }

    /// `options` with `strict` set as `lenient` asks.
    static func options(_ options: GeoJSONReadOptions, lenient: Bool) -> GeoJSONReadOptions {
        var o = options
        o.strict = !lenient
        return o
    }

    /// How the elements of a part ended (see `init(path:part:format:)`).
    public struct PartEnd: Sendable, Equatable {
        /// Features given to `forEach`'s body.
        public var features: Int
        /// Elements read, readable or broken.
        public var elements: Int
        /// The absolute offset of the part's first element (its end when it has none).
        public var firstStart: Int
        /// The start of the first element left to the next part, or the end of the file.
        public var stoppedAt: Int
    }

    /// The `layout` of a sequence read as `format` (nil: no element was found).
    public static func layoutName(_ format: GeoJSONSequenceReader.Format?) -> String {
        format == .rfc8142 ? "GeoJSON text sequence (RFC 8142)" : "newline-delimited GeoJSON"
    }

    /// What a one-text file is, by its root's `type` ("GeoJSON Feature", "GeoJSON Point");
    /// "GeoJSON FeatureCollection" when the root is one or was not read whole.
    public static func layoutName(rootType: String?) -> String {
        "GeoJSON " + (rootType ?? "FeatureCollection")
    }

    /// Whether `source` is read as a sequence under `format` (by its name, then by its
    /// first bytes).
    public static func isSequence(_ source: FileByteSource, format: Format) -> Bool {
        switch format {
        case .collection: return false
        case .sequence: return true
        case .auto:
            if [".geojsonl", ".geojsons", ".geojsonseq", ".ndjson", ".jsonl"].contains(where: { source.path.hasSuffix($0) }) {
                return true
            }
            // The first bytes, read once even from a pipe (`peek` keeps them for the reader).
            return source.peek(4096).first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == 0x1E
        }
    }

    /// Calls `body` with every feature in file order: a bare geometry becomes a feature
    /// without properties, a collection element gives its features. `progress` is called
    /// with the bytes read and the features so far every 256 features; `problem` with each
    /// feature or element skipped. Returns the number of features given to `body`.
    ///
    /// - Throws: `GeoJSONError` when the file is not GeoJSON (or, unless
    ///   `skipsInvalidFeatures`, a feature of a collection is invalid), with its location.
    /// - Complexity: O(bytes).
    @discardableResult
    public mutating func forEach(progress: (_ bytes: Int, _ features: Int) -> Void = { _, _ in },
                                 problem: (Problem) -> Void = { _ in },
                                 _ body: (GeoFeature) -> Void) throws(GeoJSONError) -> Int {
        var n = 0
        // The next count at which to report progress (a collection element can add many
        // features at once, so a count is not tested for a multiple of 256).
        var nextReport = 256
        if isSequence {
            let reader = partReader ?? GeoJSONSequenceReader(source: source, options: Self.options(GeoJSONReadOptions(), lenient: lenient))
            defer { toleratedViolations = reader.toleratedViolations }
            var reported = 0
            while let o = try reader.next() {
                switch o {
                case .geometry(let g): body(GeoFeature(geometry: g, properties: nil)); n += 1
                case .feature(let f): body(f); n += 1
                case .featureCollection(let fs): fs.forEach(body); n += fs.count
                }
                if n >= nextReport { progress(reader.bytesConsumed, n); nextReport = n + 256 }
                while reported < reader.broken.count {
                    let b = reader.broken[reported]
                    problem(Problem(index: b.index, location: nil, error: b.error))
                    reported += 1
                }
            }
            for b in reader.broken.dropFirst(reported) { problem(Problem(index: b.index, location: nil, error: b.error)) }
            layout = Self.layoutName(reader.format)
            progress(reader.bytesConsumed, n)
            if part != nil {
                partEnd = PartEnd(features: n, elements: reader.nextIndex,
                                  firstStart: reader.firstStart ?? reader.bytesConsumed,
                                  stoppedAt: reader.stoppedAt ?? reader.bytesConsumed)
            }
            return n
        }
        let reader = GeoJSONFeatureReader(source: source, options: Self.options(GeoJSONReadOptions(), lenient: lenient),
                                          onInvalidFeature: skipsInvalidFeatures ? .skip : .fail)
        defer { toleratedViolations = reader.toleratedViolations }
        var reported = 0
        while let f = try reader.next() {
            body(f)
            n += 1
            if n >= nextReport { progress(reader.bytesConsumed, n); nextReport = n + 256 }
            while reported < reader.skipped.count {
                let k = reader.skipped[reported]
                problem(Problem(index: k.index, location: k.location, error: k.error))
                reported += 1
            }
        }
        for k in reader.skipped.dropFirst(reported) { problem(Problem(index: k.index, location: k.location, error: k.error)) }
        progress(reader.bytesConsumed, n)
        layout = Self.layoutName(rootType: reader.rootType)
        return n
    }

    /// `forEach` with the features given as column batches (`GeoJSONFeatureBatch`), one
    /// batch reused from call to call: a collection is read by `GeoJSONBatchReader` (the
    /// same features, errors and problems as `forEach`, with no feature built), a sequence's
    /// features are gathered into batches of up to 4,096 (fewer when their property table
    /// passes 4 million cells, as a batch reader's). `body` sees each batch once it is
    /// full. On an error `body` first sees the features read before it (as `forEach` gives
    /// them) and `problem` every feature skipped before it. `progress` is called after each
    /// batch.
    ///
    /// - Parameters:
    ///   - options: how a collection's features are read, `strict` aside (the stream's
    ///     `lenient` sets it); `keepPropertyValues` false keeps
    ///     property names only, for sequences too; a sequence's elements are otherwise read
    ///     as `forEach` reads them, and their batch rows have no input offsets: 0).
    ///   - batchBytes: input bytes after which a collection's batch is closed.
    ///   - progress: called with the bytes read and the features so far.
    ///   - problem: called with each feature or element skipped.
    ///   - body: called with each batch.
    /// - Returns: the number of features given to `body`.
    /// - Throws: `GeoJSONError`, as `forEach` throws it.
    @discardableResult
    public mutating func forEachBatch(options: GeoJSONReadOptions = GeoJSONReadOptions(), batchBytes: Int = 1 << 20,
                                      progress: (_ bytes: Int, _ features: Int) -> Void = { _, _ in },
                                      problem: (Problem) -> Void = { _ in },
                                      _ body: (GeoJSONFeatureBatch) -> Void) throws(GeoJSONError) -> Int {
        var batch = GeoJSONFeatureBatch()
        if isSequence {
            let n: Int
            do {
                n = try forEach(progress: progress, problem: problem) { f in
                    batch.append(f, at: 0, values: options.keepPropertyValues)
                    if batch.count == 4096 || batch.holdsManyCells {
                        batch.padColumns()
                        body(batch)
                        batch.removeAll()
                    }
                }
            } catch {
                if batch.count > 0 { batch.padColumns(); body(batch) }
                throw error
            }
            if batch.count > 0 { batch.padColumns(); body(batch) }
            return n
        }
        let reader = GeoJSONBatchReader(source: source, options: Self.options(options, lenient: lenient),
                                        onInvalidFeature: skipsInvalidFeatures ? .skip : .fail, batchBytes: batchBytes)
        defer {
            toleratedViolations = reader.toleratedViolations
            layout = Self.layoutName(rootType: reader.rootType)
        }
        var n = 0, reported = 0
        func report() {
            for k in reader.skipped.dropFirst(reported) { problem(Problem(index: k.index, location: k.location, error: k.error)) }
            reported = reader.skipped.count
        }
        do {
            while try reader.next(into: &batch) {
                body(batch)
                n += batch.count
                report()
                progress(reader.bytesConsumed, n)
            }
        } catch {
            if batch.count > 0 { body(batch) }
            report()
            throw error
        }
        report()
        progress(reader.bytesConsumed, n)
        return n
    }
}

