import GraticuleSupport
import ArgumentParser
import BenchKit
import Conformance
import Foundation

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge report CSVs from several runs or machines and render a self-contained HTML page with SVG charts.",
        discussion: """
        The last CSV is the run the charts show; earlier ones (oldest first) add a history \
        section with every case's medians across the runs. --conformance adds the \
        implementation × suite table that `graticule conform` writes (NAME.matrix.csv). \
        --merged writes all the runs' rows as one CSV (the run metadata columns keep them apart). \
        Benchmarks/Report/screenshot.sh renders the page in headless Chromium. \
        Exit status: 0 written; 2 a report that is missing or malformed (refused with its \
        file, line and column), or an output that cannot be written.
        """)

    @Argument(help: "Report CSVs, oldest first.")
    var reports: [String]

    @Option(name: [.customLong("html"), .customLong("output")], help: "HTML output path (--output is the same).")
    var html: String

    @Option(help: "Conformance table (NAME.matrix.csv from `graticule conform`).")
    var conformance: [String] = []

    @Option(help: "Write the merged rows of every report here.")
    var merged: String?

    func run() throws {
        guard !reports.isEmpty else { fail("give at least one report CSV") }
        var runs: [RunReport] = []
        for p in reports {
            do { runs.append(try RunReport.read(path: p)) } catch { fail("\(error)") }
        }
        var tables: [HTMLReport.Table] = []
        var tally: [ConformanceTally] = []
        for p in conformance {
            guard let data = FileManager.default.contents(atPath: p),
                  let t = ConformanceTally.parse(csv: String(decoding: data, as: UTF8.self)) else {
                fail("\(p): not a conformance table (expected the header \(ConformanceTally.csvHeader))")
            }
            tally += t
        }
        if !tally.isEmpty { tables.append(Self.conformanceTable(tally)) }
        let page = HTMLReport.render(runs.last!, history: Array(runs.dropLast()), tables: tables)
        var files: [(path: String, bytes: [UInt8])] = [(html, Array(page.utf8))]
        if let merged {
            // Written from the reports as read, in the current schema (an older report's
            // rows are converted: `role` inferred), so runs of either schema merge.
            var out = CSV.record(RunReport.columns)
            for r in runs { out += r.csv().drop { $0 != "\n" }.dropFirst() }
            files.append((merged, Array(out.utf8)))
        }
        // The page and the merged report, both or neither.
        writeOutputs(files)
        if let merged { print("wrote \(merged) (\(reports.count) runs)") }
        print("wrote \(html)")
    }

    /// Implementations as rows, suites as columns, "pass/cases" per cell.
    static func conformanceTable(_ t: [ConformanceTally]) -> HTMLReport.Table {
        var suites: [String] = [], impls: [String] = []
        for c in t {
            if !suites.contains(c.suite) { suites.append(c.suite) }
            if !impls.contains(c.implementation) { impls.append(c.implementation) }
        }
        let rows = impls.map { i in
            [i] + suites.map { s in
                guard let c = t.first(where: { $0.suite == s && $0.implementation == i }) else { return "" }
                return "\(c.pass)/\(c.cases)" + (c.verdictOnly ? " *" : "") + (c.unsupported > 0 ? " (\(c.unsupported) unsupported)" : "")
            }
        }
        return HTMLReport.Table(title: "Conformance: implementation × suite (cases passed / cases)",
                                note: "* judged on the verdict alone: the implementation's API gives no canonical output to compare.",
                                header: ["implementation"] + suites, rows: rows)
    }
}
