import Foundation
import GraticuleSupport
import TileArchive

/// PMTiles v3 archives (`corpora/conformance/pmtiles/cases.tsv`, written by its `make.py`):
/// crafted archives that each break one rule of the PMTiles v3 checklist (PM1–PM21) or
/// none, and the format's own fixtures from the shared corpora (`corpora:pmtiles/…`, read
/// when the corpora are present). An implementation reads the archive and answers:
///
/// - accepted with output `""`: no rule broken;
/// - accepted with output `notes:PM20`: only rules the specification states as MAY;
/// - rejected with class `findings:PM6+PM18`: exactly those rules broken, the archive read;
/// - rejected with class `refused:PM4`: not readable as PMTiles v3 (not PMTiles, another
///   version: PM4; empty or a header cut short: PM1).
///
/// Graticule's implementation is `graticule verify` (`PMTilesReader.verify`).
public struct PMTilesSuite: ConformanceSuite {
    public let name = "pmtiles"
    /// The shared corpora, for the `corpora:` inputs.
    public var corpora: String
    public init(corpora: String = SharedFolders.corpora()) { self.corpora = corpora }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)
        case badExpectation(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p): return "pmtiles case archive \(p) cannot be read"
            case .badExpectation(let id, let e): return "pmtiles case \(id): expected verdict '\(e)' is not valid, valid:R, findings:R or refused:R"
            }
        }
    }

    /// The cases; a `corpora:` case is left out when the shared corpora are absent (the
    /// run's case count says so), and an error when they are present without its file.
    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        var out: [ConformanceCase] = []
        let haveCorpora = FileManager.default.fileExists(atPath: corpora + "/pmtiles")
        for f in try CaseTable.rows(directory + "/cases.tsv") {
            let path: String
            if f[2].hasPrefix("corpora:") {
                guard haveCorpora else { continue }
                path = corpora + "/" + f[2].dropFirst("corpora:".count)
            } else {
                path = directory + "/" + f[2]
            }
            guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.unreadable(path) }
            out.append(ConformanceCase(id: f[0], rule: f[1], input: [UInt8](data), expected: try Self.expectation(f[0], f[3])))
        }
        return out
    }

    static func expectation(_ id: String, _ text: String) throws -> Expectation {
        if text == "valid" { return .accept(output: "") }
        if text.hasPrefix("valid:") { return .accept(output: "notes:" + text.dropFirst(6)) }
        if text.hasPrefix("findings:") || text.hasPrefix("refused:") { return .reject(errorClass: text) }
        throw LoadError.badExpectation(id, text)
    }

    /// The verdict of `verify` on an archive's bytes, in the suite's terms.
    public static func verdict(path: String) -> Outcome {
        let reader: PMTilesReader
        do { reader = try PMTilesReader(path: path, checkingCompressions: false) } catch {
            guard error.rule.hasPrefix("PM") else { return .noVerdict(.adapterError, detail: "\(error)") }
            return .rejected(errorClass: "refused:" + error.rule, detail: "\(error)")
        }
        let findings = reader.verify()
        /// Rule ids in numeric order (PM3 before PM18), each once.
        func rules(_ f: [PMTiles.Finding]) -> String {
            let numbers: [Int] = Set(f.map(\.rule)).map { Int($0.dropFirst(2)) ?? 0 }.sorted()
            return numbers.map { "PM\($0)" }.joined(separator: "+")
        }
        let broken = findings.filter { !$0.isNote }, notes = findings.filter(\.isNote)
        if !broken.isEmpty {
            return .rejected(errorClass: "findings:" + rules(broken), detail: broken.prefix(3).map(\.description).joined(separator: "; "))
        }
        return .accepted(output: notes.isEmpty ? "" : "notes:" + rules(notes))
    }

    public static var graticule: ConformanceImplementation {
        ConformanceImplementation(name: "graticule") { c in
            // The archive is read from a file: a folder of the case's own, made under $TMPDIR.
            var root = NSTemporaryDirectory()
            while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
            var template = Array((root + "/graticule-pmtiles-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { return .noVerdict(.adapterError, detail: "cannot make a folder under \(root)") }
            let folder = String(cString: made)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/case.pmtiles"
            guard FileManager.default.createFile(atPath: path, contents: Data(c.input)) else {
                return .noVerdict(.adapterError, detail: "cannot write \(path)")
            }
            return verdict(path: path)
        }
    }
}
