import GeoJSON
import GeoModel
import JSON

/// A data source's snapshot read from a file (a FeatureCollection, an RFC 8142 sequence or
/// newline-delimited GeoJSON) for diffing: a feature that cannot be read must never look
/// deleted. A broken element of a sequence stops the read as a broken feature of a
/// collection does, and so does a feature that breaks a MUST of RFC 7946 that reading could
/// go past (no `geometry` member, say), as `GeoJSONValidator` judges it; a lenient read
/// skips broken elements, listing them, and reads such features, counting them.
public enum SnapshotFile {
    /// What a read went past (a lenient read only).
    public struct Report: Sendable, Equatable {
        /// Broken elements skipped.
        public var broken = 0
        /// The first ten of them.
        public var listed: [GeoJSONError] = []
        /// MUSTs of RFC 7946 read past.
        public var toleratedViolations = 0
        public init() {}
    }

    /// Why a snapshot cannot be read.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The file cannot be opened.
        case unreadable(String)
        /// A broken element of a sequence (not lenient).
        case brokenElement(GeoJSONError)
        /// The text is not GeoJSON, or a feature of a collection is invalid.
        case invalid(GeoJSONError)

        public var description: String {
            switch self {
            case .unreadable(let why): return why
            case .brokenElement(let e): return "a broken element: \(e)"
            case .invalid(let e): return "\(e)"
            }
        }
    }

    /// Gives every feature of the snapshot at `path` to `body`, in order; `progress` gets
    /// the file's size (nil for a pipe), then the bytes read and the features so far.
    ///
    /// - Throws: `Failure`; after a throw `body` may have seen some features, which must not
    ///   be used as the snapshot.
    public static func read(_ path: String, lenient: Bool, size: (Int?) -> Void = { _ in },
                            progress: (_ bytes: Int, _ features: Int) -> Void = { _, _ in },
                            _ body: (GeoFeature) -> Void) throws(Failure) -> Report {
        var stream: GeoJSONFeatureStream
        do { stream = try GeoJSONFeatureStream(path: path, lenient: lenient) } catch { throw .unreadable("\(error)") }
        size(stream.source.size)
        var report = Report()
        var refused: GeoJSONError?
        do {
            try stream.forEach(progress: progress, problem: { p in
                if !lenient {
                    refused = refused ?? p.error
                    return
                }
                report.broken += 1
                if report.listed.count < 10 { report.listed.append(p.error) }
            }, { f in if refused == nil { body(f) } })
        } catch {
            throw .invalid(error)
        }
        if let refused { throw .brokenElement(refused) }
        report.toleratedViolations = stream.toleratedViolations
        return report
    }
}
