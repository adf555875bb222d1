import XCTest
@testable import BenchKit

/// Reports are input: every malformed shape is refused with its file, line and column, and
/// nothing in a report can trap the reader or slip a regression past the gate.
final class ReportValidationTests: XCTestCase {
    /// The sample report's text with the `median` of its first row replaced.
    func withFirstMedian(_ value: String) -> String {
        let csv = ReportTests.sampleReport().csv()
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let median = RunReport.columns.firstIndex(of: "median")! + 1   // cpu_model holds one comma
        fields[median] = value
        lines[1] = fields.joined(separator: ",")
        return lines.joined(separator: "\n")
    }

    func assertRefused(_ csv: String, samples: String? = nil, file: StaticString = #filePath, line: UInt = #line,
                       _ check: (ReportError) -> Bool) {
        XCTAssertThrowsError(try RunReport.parse(csv: csv, samples: samples, path: "head.csv"), file: file, line: line) { e in
            guard let r = e as? ReportError else { return XCTFail("\(e)", file: file, line: line) }
            XCTAssertTrue(check(r), "\(r)", file: file, line: line)
            XCTAssertTrue("\(r)".hasPrefix("head."), "\(r)", file: file, line: line)
        }
    }

    func testImpossibleMediansAreRefused() {
        // nan, inf and a number beyond Double's range are not finite; a time of 0 or -1 is not
        // a time. (The first row's quantiles are 100: a median of 50 is below min.)
        for bad in ["nan", "inf", "-inf", "1e999", "0", "-1", "50"] {
            assertRefused(withFirstMedian(bad)) { e in
                if case .impossibleValue(_, 2, let column, let value, _) = e { return column == "median" && value == bad }
                return false
            }
        }
        // The untouched report reads (the helper changes only what it is given).
        XCTAssertNoThrow(try RunReport.parse(csv: withFirstMedian("100"), samples: nil))
    }

    func testCountsBeyondIntAndNegativeCountsAreRefusedNotTrapped() {
        let csv = ReportTests.sampleReport().csv()
        for bad in ["99999999999999999999999", "-5"] {
            let text = csv.replacingOccurrences(of: ",ok,3,4,100,", with: ",ok,3,\(bad),100,")
            assertRefused(text) { e in
                if case .badField(_, 2, "iterations_per_sample", bad) = e { return true }
                return false
            }
        }
    }

    func testDuplicateRowsAreRefused() {
        let csv = ReportTests.sampleReport().csv()
        let lines = csv.split(separator: "\n").map(String.init)
        // A regressed row followed by a copy of the good one: which counts cannot be decided.
        var slow = CSVFields(lines[1])
        for c in ["min", "p25", "median", "p75", "p90", "p99", "max", "mean", "ci95_low", "ci95_high"] {
            slow[RunReport.columns.firstIndex(of: c)!] = "300"
        }
        let text = ([lines[0], slow.joined()] + lines[1...]).joined(separator: "\n") + "\n"
        assertRefused(text) { e in
            if case .duplicateRow(_, 3, 2, let what) = e { return what.contains("time_ns") }
            return false
        }
    }

    func testBadSamplesAreRefused() {
        let report = ReportTests.sampleReport()
        let samples = report.samplesCSV()
        assertRefused(report.csv(), samples: samples.replacingOccurrences(of: "time_ns,1,4,100", with: "time_ns,1,4,nan")) { e in
            if case .impossibleValue(let p, 3, "value", "nan", _) = e { return p.hasSuffix("samples.csv") || p == "head.samples.csv" }
            return false
        }
        assertRefused(report.csv(), samples: samples.replacingOccurrences(of: "time_ns,1,4,100", with: "time_ns,0,4,100")) { e in
            if case .duplicateRow = e { return true }
            return false
        }
        // Fewer samples than the row says it has.
        let dropped = samples.split(separator: "\n").filter { !$0.contains("graticule,generated/x,,time_ns,2,") }.joined(separator: "\n") + "\n"
        assertRefused(report.csv(), samples: dropped) { e in
            if case .impossibleValue(_, 2, "samples", _, _) = e { return true }
            return false
        }
    }

    /// A report and its samples are read as one: quantiles that the samples do not give
    /// (either file edited alone), samples of a case the report lacks, and a row whose run
    /// columns differ from line 2's are refused, each naming its line and column.
    func testAReportAndItsSamplesAgree() throws {
        let report = ReportTests.sampleReport()
        let csv = report.csv(), samples = report.samplesCSV()
        XCTAssertNoThrow(try RunReport.parse(csv: csv, samples: samples, path: "head.csv"))
        // The first row's samples are all 100 (its quantiles): one sample changed.
        let first = samples.split(separator: "\n")[1]
        let edited = samples.replacingOccurrences(of: String(first), with: first.dropLast(3) + "900")
        assertRefused(csv, samples: edited) { e in
            if case .impossibleValue("head.csv", 2, let c, _, let why) = e { return ["p25", "median", "p75", "p90", "p99", "max", "mean"].contains(c) && why.contains("samples beside") }
            return false
        }
        // The report edited alone: its first row's mean (every quantile is 100, so the mean
        // is the one figure that can move without breaking their order).
        var rows = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cells = rows[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let mean = RunReport.columns.firstIndex(of: "mean")! + 1     // cpu_model holds one comma
        cells[mean] = "10000.0"
        rows[1] = cells.joined(separator: ",")
        assertRefused(rows.joined(separator: "\n"), samples: samples) { e in
            if case .impossibleValue("head.csv", 2, "mean", "10000.0", _) = e { return true }
            return false
        }
        let stray = samples + String(first).replacingOccurrences(of: ",time_ns,", with: ",instructions,") + "\n"
        assertRefused(csv, samples: stray) { e in
            if case .impossibleValue(_, _, "benchmark", let v, let why) = e { return v.hasSuffix("#instructions") && why.contains("no measured row") }
            return false
        }
        var lines = csv.split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(lines.count, 2)
        let column = RunReport.columns.firstIndex(of: "build_configuration")!
        var fields = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[column] = fields[column] == "debug" ? "release" : "debug"     // before cpu_model's comma
        lines[2] = fields.joined(separator: ",")
        assertRefused(lines.joined(separator: "\n") + "\n", samples: samples) { e in
            if case .impossibleValue("head.csv", 3, "build_configuration", _, _) = e { return true }
            return false
        }
    }

    func testUnknownRoleStatusOrMetricIsRefused() {
        let csv = ReportTests.sampleReport().csv()
        assertRefused(csv.replacingOccurrences(of: ",graticule,project,", with: ",graticule,boss,")) { e in
            if case .badField(_, 2, "role", "boss") = e { return true }
            return false
        }
        assertRefused(csv.replacingOccurrences(of: ",time_ns,ok,3,", with: ",time_ns,fine,3,")) { e in
            if case .badField(_, 2, "status", "fine") = e { return true }
            return false
        }
        assertRefused(csv.replacingOccurrences(of: ",generated/x,1000,10,,time_ns,", with: ",generated/x,1000,10,,speed,")) { e in
            if case .badField(_, 2, "metric", "speed") = e { return true }
            return false
        }
    }

    /// Schema 2 (no `role` column) still reads: graticule as the project, the rest as peers.
    func testSchemaTwoReadsWithInferredRoles() throws {
        let v4 = ReportTests.sampleReport().csv()
        let lines = v4.split(separator: "\n").map { line -> String in
            var f = CSVFields(String(line))
            f.remove(at: RunReport.columns.firstIndex(of: "role")!)
            f.remove(at: RunReport.columns.firstIndex(of: "tool_version")!)
            if f[0] == "4" { f[0] = "2" }
            return f.joined()
        }
        let report = try RunReport.parse(csv: lines.joined(separator: "\n") + "\n", samples: nil)
        XCTAssertEqual(report.results.map(\.role), [.project, .peer, .peer])
    }

    func testInfinityNeverTrapsTheFormatter() {
        XCTAssertEqual(formatMetric(.infinity), "inf")
        XCTAssertEqual(formatMetric(.nan), "nan")
        XCTAssertEqual(formatMetric(-.infinity), "-inf")
        // Beyond Int64 after scaling: written as a double, not converted.
        let huge = formatMetric(1e300)
        XCTAssertTrue(huge.hasSuffix("e+291G"), huge)
    }
}

/// A CSV line split on commas outside quotes, and joined back (enough for report lines).
struct CSVFields {
    var fields: [String] = []
    init(_ line: String) {
        var current = "", quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() }
            if c == ",", !quoted { fields.append(current); current = "" } else { current.append(c) }
        }
        fields.append(current)
    }
    subscript(_ i: Int) -> String {
        get { fields[i] }
        set { fields[i] = newValue }
    }
    mutating func remove(at i: Int) { fields.remove(at: i) }
    func joined() -> String { fields.joined(separator: ",") }
}
