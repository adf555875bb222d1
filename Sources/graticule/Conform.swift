import ArgumentParser
import BenchKit
import Conformance

struct Conform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a conformance suite against an implementation and write CSV verdicts.",
        discussion: "Exit status: 0 when every case passes, 1 when any fails, 2 bad usage or unreadable fixtures.")

    @Option(help: "Suite name (\(ConformanceSuites.names.joined(separator: ", "))).")
    var suite: String

    @Option(help: "Directory holding the suite's fixtures.")
    var path: String

    @Option(help: "Implementation to run.")
    var implementation = "graticule"

    @Option(help: "Verdict CSV path.")
    var output = "reports/conformance.csv"

    @Flag(help: "Print only the totals.")
    var quiet = false

    func run() throws {
        guard let s = ConformanceSuites.suite(named: suite) else {
            fail("unknown suite '\(suite)'; known: \(ConformanceSuites.names.joined(separator: ", "))")
        }
        guard let impl = ConformanceSuites.implementation(named: implementation, suite: suite) else {
            let known = ConformanceSuites.implementations[suite] ?? []
            fail("suite '\(suite)' has no implementation '\(implementation)'; it has: \(known.joined(separator: ", "))")
        }
        let cases: [ConformanceCase]
        do { cases = try s.loadCases(from: path) } catch { fail("\(error)") }
        guard !cases.isEmpty else { fail("no cases found under \(path)") }
        let rows = ConformanceRunner.run(suite: s.name, cases: cases, implementation: impl)
        do { try FileIO.writeText(output, ConformanceRunner.csv(rows)) } catch { fail("cannot write \(output): \(error)") }
        let failed = rows.filter { $0.verdict == .fail }
        if !quiet {
            for r in failed { print("FAIL \(r.caseID) [\(r.rule)] expected \(r.expected), got \(r.actual) \(r.detail)") }
            var table: [[String]] = []
            for s in ConformanceRunner.ruleSummary(rows) { table.append([s.rule, String(s.pass), String(s.fail)]) }
            print(SummaryTable.table(header: ["rule", "pass", "fail"], rows: table))
        }
        print("\(s.name) × \(impl.name): \(rows.count - failed.count) passed, \(failed.count) failed (verdicts: \(output))")
        if !failed.isEmpty { throw ExitCode(1) }
    }
}

/// The suites `graticule conform` knows, and their implementations.
enum ConformanceSuites {
    static let names = ["pbf-varint", "mvt-fixtures", "json-test-suite", "parse-number-fxx", "geojsonhint",
                        "geojson-schema", "geojson-invalid-geometry", "geojson-rewind", "turf", "tile-cover", "supermercado"]

    static let implementations: [String: [String]] = [
        "pbf-varint": ["graticule"], "mvt-fixtures": ["graticule"],
        "json-test-suite": ["graticule", "foundation.jsonserialization"], "parse-number-fxx": ["graticule"],
        "geojsonhint": ["graticule"], "geojson-schema": ["graticule"], "geojson-invalid-geometry": ["graticule"],
        "geojson-rewind": ["graticule"], "turf": ["graticule"], "tile-cover": ["graticule"], "supermercado": ["graticule"],
    ]

    static func suite(named name: String) -> ConformanceSuite? {
        switch name {
        case "pbf-varint": return PBFVarintSuite()
        case "mvt-fixtures": return MVTFixturesSuite()
        case "json-test-suite": return JSONTestSuite()
        case "parse-number-fxx": return ParseNumberFxxSuite()
        case "geojsonhint": return GeoJSONHintSuite()
        case "geojson-schema": return GeoJSONSchemaSuite()
        case "geojson-invalid-geometry": return GeoJSONInvalidGeometrySuite()
        case "geojson-rewind": return GeoJSONRewindSuite()
        case "turf": return TurfSamplesSuite()
        case "tile-cover": return TileCoverSuite()
        case "supermercado": return SupermercadoSuite()
        default: return nil
        }
    }

    static func implementation(named name: String, suite: String) -> ConformanceImplementation? {
        switch (suite, name) {
        case ("pbf-varint", "graticule"): return PBFVarintSuite.graticule
        case ("mvt-fixtures", "graticule"): return MVTFixturesSuite.graticule
        case ("json-test-suite", "foundation.jsonserialization"): return JSONTestSuite.foundation
        case ("json-test-suite", "graticule"): return JSONTestSuite.graticule
        case ("parse-number-fxx", "graticule"): return ParseNumberFxxSuite.graticule
        case ("geojsonhint", "graticule"), ("geojson-schema", "graticule"), ("geojson-invalid-geometry", "graticule"):
            return GeoJSONVerdicts.implementation
        case ("geojson-rewind", "graticule"): return GeoJSONRewindSuite.graticule
        case ("turf", "graticule"): return TurfSamplesSuite.graticule
        case ("tile-cover", "graticule"): return TileCoverSuite.graticule
        case ("supermercado", "graticule"): return SupermercadoSuite.graticule
        default: return nil
        }
    }
}
