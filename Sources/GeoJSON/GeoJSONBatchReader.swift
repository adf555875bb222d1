import JSON
import GeoModel

/// Reads the features of a GeoJSON text into column batches (`GeoJSONFeatureBatch`), a
/// batch of about `batchBytes` of input at a time, reusing the batch's buffers: once they
/// have grown, reading allocates nothing per feature.
///
/// It is the streaming reader's parser (`GeoJSONFeatureReader`) with the values written to
/// columns instead of built as `GeoFeature`s, so it accepts and rejects exactly what that
/// reader does, with the same errors at the same places (byte offset, line, column, member
/// path), the same findings and the same skipped features. A top-level Feature or
/// geometry is a batch of one feature.
///
/// ```swift
/// let reader = try GeoJSONBatchReader(path: "big.geojson")
/// var batch = GeoJSONFeatureBatch()
/// while try reader.next(into: &batch) {
///     for i in 0..<batch.count { ... batch.geometryTypes ... batch.columns ... }
/// }
/// ```
public final class GeoJSONBatchReader {
    let reader: GeoJSONFeatureReader
    /// Input bytes after which a batch is closed (it always holds at least one feature). A
    /// batch is also closed once its property columns times its rows pass 4 million: each
    /// column has a row per feature, so a text whose features use many distinct property
    /// names gets shorter batches rather than a table mostly of absent values.
    public let batchBytes: Int
    /// The whole text, when the reader was made from an array (kept alive while borrowed).
    private let owned: [UInt8]?

    /// Reads from `source` in reads of `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - source: the bytes.
    ///   - chunkSize: bytes per read.
    ///   - options: what is read and checked, as for `GeoJSONFeatureReader`.
    ///   - onInvalidFeature: what to do with a feature that is JSON but not GeoJSON.
    ///   - batchBytes: input bytes after which a batch is closed.
    public init(source: some GeoJSONByteSource, chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions(),
                onInvalidFeature: GeoJSONFeatureReader.InvalidFeaturePolicy = .fail, batchBytes: Int = 8 << 20) {
        reader = GeoJSONFeatureReader(source: source, chunkSize: chunkSize, options: options, onInvalidFeature: onInvalidFeature)
        self.batchBytes = max(batchBytes, 1)
        owned = nil
    }

    /// Reads the file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - chunkSize: bytes per read.
    ///   - options: what is read and checked, as for `GeoJSONFeatureReader`.
    ///   - onInvalidFeature: what to do with a feature that is JSON but not GeoJSON.
    ///   - batchBytes: input bytes after which a batch is closed.
    /// - Throws: `GeoJSONSourceError` when the file cannot be opened.
    public convenience init(path: String, chunkSize: Int = 65_536, options: GeoJSONReadOptions = GeoJSONReadOptions(),
                            onInvalidFeature: GeoJSONFeatureReader.InvalidFeaturePolicy = .fail,
                            batchBytes: Int = 8 << 20) throws(GeoJSONSourceError) {
        self.init(source: try FileByteSource(path: path), chunkSize: chunkSize, options: options,
                  onInvalidFeature: onInvalidFeature, batchBytes: batchBytes)
    }

    /// Reads a whole text held in memory, in place (no copy into a read window).
    ///
    /// - Parameters:
    ///   - bytes: the text.
    ///   - options: what is read and checked, as for `GeoJSONFeatureReader`.
    ///   - onInvalidFeature: what to do with a feature that is JSON but not GeoJSON.
    ///   - batchBytes: input bytes after which a batch is closed.
    public init(bytes: [UInt8], options: GeoJSONReadOptions = GeoJSONReadOptions(),
                onInvalidFeature: GeoJSONFeatureReader.InvalidFeaturePolicy = .fail, batchBytes: Int = 8 << 20) {
        owned = bytes
        // Safe: `owned` holds the array's buffer unchanged for the reader's lifetime.
        let raw = bytes.withUnsafeBytes { $0 }
        reader = GeoJSONFeatureReader(borrowing: raw, options: options, onInvalidFeature: onInvalidFeature)
        self.batchBytes = max(batchBytes, 1)
    }

    /// Empties `batch` and fills it with the next features; false when none was left.
    /// After an error the batch holds the features read before the one that failed, and
    /// the reader is finished.
    ///
    /// - Parameter batch: the batch to fill (its buffers are reused).
    /// - Returns: whether the batch holds a feature.
    /// - Throws: `GeoJSONError`, as `GeoJSONFeatureReader.next()` throws it.
    public func next(into batch: inout GeoJSONFeatureBatch) throws(GeoJSONError) -> Bool {
        batch.removeAll()
        batch.firstIndex = reader.nextIndex
        swap(&reader.parser.batch, &batch)
        reader.parser.exchangeScratchWithBatch()
        reader.parser.fillsBatch = true
        let outcome = fill()
        reader.parser.fillsBatch = false
        reader.parser.exchangeScratchWithBatch()
        swap(&reader.parser.batch, &batch)
        batch.padColumns()
        if let error = outcome { throw error }
        return batch.count > 0
    }

    /// Reads features into `reader.parser.batch` up to `batchBytes` of input; the error
    /// that stopped it, if one did.
    private func fill() -> GeoJSONError? {
        let start = reader.bytesConsumed
        do {
            // A batch ends at `batchBytes` only once it holds a feature: an empty batch
            // means the input is done (and read to its end, trailing errors included).
            while reader.parser.batch.count == 0
                    || (reader.bytesConsumed - start < batchBytes && !reader.parser.batch.holdsManyCells) {
                if try reader.readFeatureRun(until: start + batchBytes) { continue }
                let before = reader.parser.batch.count
                guard let f = try reader.next() else { break }
                if reader.parser.batch.count == before {
                    // A top-level Feature or geometry, built by the model path.
                    reader.parser.batch.append(f, at: reader.rootStart, values: reader.parser.options.keepPropertyValues)
                }
            }
        } catch {
            return error
        }
        return nil
    }

    /// Bytes consumed so far.
    public var bytesConsumed: Int { reader.bytesConsumed }

    /// Features skipped so far (policy `.skip`).
    public var skipped: [GeoJSONFeatureReader.SkippedFeature] { reader.skipped }

    /// Warnings collected so far when `options.collectFindings` is set.
    public var findings: [GeoJSONFinding] { reader.findings }

    /// How many MUSTs of RFC 7946 were read past so far because `options.strict` is off
    /// (see `GeoJSONReadOptions.strict`); 0 in strict reading, where each is an error.
    public var toleratedViolations: Int { reader.toleratedViolations }

    /// The collection's `bbox` member, once read.
    public var bbox: [Double]? { reader.bbox }

    /// The root object's `type` once the root has been read whole (see
    /// `GeoJSONFeatureReader.rootType`).
    public var rootType: String? { reader.rootType }
}
