import ConformanceData

/// Every suite `graticule conform` knows: where its fixtures live by default and the
/// implementations that run in process.
public enum ConformanceRegistry {
    public struct Entry {
        public var name: String
        /// Folder of the fixtures: under the shared corpora (`shared`), or in this package.
        public var folder: Folder
        public var make: () -> ConformanceSuite
        /// In-process implementations by name; `graticule` first.
        public var implementations: [(String, () -> ConformanceImplementation)]

        public enum Folder: Equatable, Sendable {
            /// `<corpora>/<name>`, where corpora defaults to `../shared/corpora`.
            case shared(String)
            /// One of Graticule's own suites, by its folder name in `ConformanceData`
            /// (package resources, found from any working folder).
            case project(String)
        }

        /// The fixture folder, given the shared corpora directory.
        public func path(corpora: String) -> String {
            switch folder {
            case .shared(let n): return corpora + "/" + n
            case .project(let n): return (ConformanceData.folder ?? ConformanceData.missingFolder) + "/" + n
            }
        }
    }

    public static var entries: [Entry] { [
        Entry(name: "pbf-varint", folder: .project("pbf-varint"), make: { PBFVarintSuite() },
              implementations: [("graticule", { PBFVarintSuite.graticule })]),
        Entry(name: "mvt-fixtures", folder: .shared("mvt-fixtures"), make: { MVTFixturesSuite() },
              implementations: [("graticule", { MVTFixturesSuite.graticule })]),
        Entry(name: "json-test-suite", folder: .shared("json-test-suite"), make: { JSONTestSuite() },
              implementations: [("graticule", { JSONTestSuite.graticule }),
                                ("foundation.jsonserialization", { JSONTestSuite.foundation }),
                                ("foundation.jsondecoder", { JSONTestSuite.foundationDecoder })]),
        Entry(name: "parse-number-fxx", folder: .shared("parse-number-fxx"), make: { ParseNumberFxxSuite() },
              implementations: [("graticule", { ParseNumberFxxSuite.graticule })]),
        Entry(name: "geojsonhint", folder: .shared("geojsonhint"), make: { GeoJSONHintSuite() },
              implementations: [("graticule", { GeoJSONVerdicts.implementation })]),
        Entry(name: "geojson-schema", folder: .shared("geojson-schema"), make: { GeoJSONSchemaSuite() },
              implementations: [("graticule", { GeoJSONVerdicts.implementation })]),
        Entry(name: "geojson-invalid-geometry", folder: .shared("geojson-invalid-geometry"),
              make: { GeoJSONInvalidGeometrySuite() }, implementations: [("graticule", { GeoJSONVerdicts.implementation })]),
        Entry(name: "geojson-rewind", folder: .shared("geojson-rewind"), make: { GeoJSONRewindSuite() },
              implementations: [("graticule", { GeoJSONRewindSuite.graticule })]),
        Entry(name: "geojson-seq", folder: .project("geojson-seq"), make: { GeoJSONSeqSuite() },
              implementations: [("graticule", { GeoJSONSeqSuite.graticule })]),
        Entry(name: "turf", folder: .shared("turf"), make: { TurfSamplesSuite() },
              implementations: [("graticule", { TurfSamplesSuite.graticule })]),
        Entry(name: "tile-cover", folder: .shared("tile-cover"), make: { TileCoverSuite() },
              implementations: [("graticule", { TileCoverSuite.graticule })]),
        Entry(name: "supermercado", folder: .shared("supermercado"), make: { SupermercadoSuite() },
              implementations: [("graticule", { SupermercadoSuite.graticule })]),
        Entry(name: "tile-math", folder: .project("tile-math"), make: { TileMathSuite() },
              implementations: [("graticule", { TileMathSuite.graticule })]),
        Entry(name: "pmtiles", folder: .project("pmtiles"), make: { PMTilesSuite() },
              implementations: [("graticule", { PMTilesSuite.graticule })]),
    ] }

    public static var names: [String] { entries.map(\.name) }

    public static func entry(named name: String) -> Entry? { entries.first { $0.name == name } }
}

/// One cell of the implementation × suite table.
public struct ConformanceTally: Equatable, Sendable {
    public var suite: String
    public var implementation: String
    public var cases: Int
    public var pass: Int
    public var fail: Int
    /// Cases the implementation gave no verdict on (`unsupported`, `crash`, `timeout`,
    /// adapter errors); each is also a failure.
    public var unsupported: Int
    /// True when accepted cases were judged on the verdict alone.
    public var verdictOnly: Bool

    /// Tallies verdict rows by suite and implementation, in first-seen order.
    public static func tally(_ rows: [VerdictRow]) -> [ConformanceTally] {
        var order: [String] = []
        var d: [String: ConformanceTally] = [:]
        for r in rows {
            let k = r.suite + "\u{0}" + r.implementation
            if d[k] == nil {
                order.append(k)
                d[k] = ConformanceTally(suite: r.suite, implementation: r.implementation, cases: 0, pass: 0, fail: 0,
                                        unsupported: 0, verdictOnly: false)
            }
            d[k]!.cases += 1
            if r.verdict == .pass { d[k]!.pass += 1 } else { d[k]!.fail += 1 }
            if Outcome.Failure(rawValue: r.actual) != nil { d[k]!.unsupported += 1 }
            if r.detail.hasPrefix("verdict only") { d[k]!.verdictOnly = true }
        }
        return order.map { d[$0]! }
    }

    public static let csvHeader = "suite,implementation,cases,pass,fail,unsupported,mode"

    public static func csv(_ t: [ConformanceTally]) -> String {
        var out = csvHeader + "\n"
        for c in t {
            out += [c.suite, c.implementation, String(c.cases), String(c.pass), String(c.fail), String(c.unsupported),
                    c.verdictOnly ? "verdict-only" : "full"].map(_csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// Reads the table back (for `graticule report`).
    public static func parse(csv text: String) -> [ConformanceTally]? {
        var lines = text.split(separator: "\n").map(String.init)
        guard let head = lines.first, head == csvHeader else { return nil }
        lines.removeFirst()
        var out: [ConformanceTally] = []
        for l in lines {
            let f = l.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7, let n = Int(f[2]), let p = Int(f[3]), let x = Int(f[4]), let u = Int(f[5]) else { return nil }
            out.append(ConformanceTally(suite: f[0], implementation: f[1], cases: n, pass: p, fail: x, unsupported: u,
                                        verdictOnly: f[6] == "verdict-only"))
        }
        return out
    }
}
