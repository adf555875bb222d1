import JSON
import GeoModel

/// Validates GeoJSON against RFC 7946 (and the JSON layer against RFC 8259), reporting
/// every finding instead of stopping at the first.
///
/// Levels, as the RFC words them:
/// - **errors** (MUST): not JSON; unknown or missing `type` (§1.4); wrong member types;
///   positions with fewer than two numbers (§3.1.1); a LineString with fewer than two
///   positions (§3.1.4); a linear ring with fewer than four positions or not closed
///   (§3.1.6); a Feature without `geometry` or `properties` (§3.2); members that change
///   GeoJSON semantics (§7.1: `coordinates` in a Feature, `properties` in a geometry, ...).
/// - **warnings** (SHOULD, or what parsers must accept): rings against the right-hand rule
///   (§3.1.6, "parsers SHOULD NOT reject"), positions with more than three values (§3.1.1),
///   segments spanning more than 180° of longitude (§3.1.9), single-member and nested
///   GeometryCollections (§3.1.8), the removed `crs` member (§4), positions outside
///   ±180/±90, empty geometries (§3.1), duplicate property names (RFC 8259 §4).
///
/// Features of a FeatureCollection are checked one by one: an invalid feature is reported
/// and the next one checked. A JSON syntax error ends the check (the rest cannot be
/// delimited reliably). Memory is bounded as for `GeoJSONFeatureReader`.
public enum GeoJSONValidator {
    public struct Report: Equatable, Sendable {
        public var findings: [GeoJSONFinding]
        /// Features read, valid and invalid: those of a FeatureCollection, 1 for a lone
        /// Feature or geometry (as readers give it); elements read, for a sequence.
        public var featureCount: Int
        public var errors: [GeoJSONFinding] { findings.filter { $0.severity == .error } }
        public var warnings: [GeoJSONFinding] { findings.filter { $0.severity == .warning } }
        /// True when there is no error (warnings allowed).
        public var isValid: Bool { !findings.contains { $0.severity == .error } }
    }

    /// Validates a text held in memory.
    ///
    /// - Complexity: O(n).
    public static func validate(_ bytes: [UInt8], options: GeoJSONReadOptions = GeoJSONReadOptions()) -> Report {
        validate(source: ChunkedByteSource(bytes, chunkSize: max(bytes.count, 1)), chunkSize: max(bytes.count, 1), options: options)
    }

    /// Validates a text from any source (files of any size), calling `progress` with the
    /// bytes consumed after each feature.
    public static func validate(source: some GeoJSONByteSource, chunkSize: Int = 65_536,
                                options: GeoJSONReadOptions = GeoJSONReadOptions(),
                                progress: ((Int) -> Void)? = nil) -> Report {
        var o = options
        o.collectFindings = true
        o.strict = false
        let reader = GeoJSONFeatureReader(source: source, chunkSize: chunkSize, options: o, onInvalidFeature: .skip)
        var fatal: GeoJSONError?
        var returned = 0
        while true {
            do throws(GeoJSONError) {
                guard try reader.next() != nil else { break }
                returned += 1
                progress?(reader.bytesConsumed)
            } catch {
                fatal = error
                break
            }
        }
        var findings = reader.findings
        for s in reader.skipped { findings.append(finding(for: s.error)) }
        if let fatal { findings.append(finding(for: fatal)) }
        findings.sort { $0.location.offset < $1.location.offset }
        return Report(findings: findings, featureCount: max(reader.nextIndex, returned))
    }

    /// The error as an error finding (rule from the error kind).
    public static func finding(for e: GeoJSONError) -> GeoJSONFinding {
        let rule: String
        let message: String
        switch e.kind {
        case .invalidGeoJSON(let r, let m):
            rule = r
            message = m
        case .duplicateMember:
            rule = "RFC 8259 §4"
            message = e.reason
        default:
            rule = "RFC 8259"
            message = e.reason
        }
        return GeoJSONFinding(severity: .error, rule: rule, message: message, location: e.location, path: e.path)
    }
}

extension GeoJSONValidator {
    /// Validates a GeoJSON text sequence (RFC 8142, or newline-delimited) from any source:
    /// every element is read with its findings collected, a broken element (one that is not
    /// JSON, or not GeoJSON) is a finding at its place and the reading goes on. Findings are
    /// in byte order; `featureCount` counts the elements read. `progress` is called with the
    /// bytes consumed and the elements read after each element.
    ///
    /// - Throws: what stops the sequence itself (an unreadable source).
    public static func validateSequence(source: some GeoJSONByteSource, options: GeoJSONReadOptions = GeoJSONReadOptions(),
                                        progress: ((_ bytes: Int, _ elements: Int) -> Void)? = nil) throws(GeoJSONError) -> Report {
        var o = options
        o.collectFindings = true
        let reader = GeoJSONSequenceReader(source: source, options: o)
        var count = 0
        while try reader.next() != nil {
            count += 1
            progress?(reader.bytesConsumed, count)
        }
        var findings = reader.findings
        for b in reader.broken { findings.append(finding(for: b.error)) }
        findings.sort { $0.location.offset < $1.location.offset }
        return Report(findings: findings, featureCount: count)
    }
}
