import ArgumentParser
import BenchKit

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a report CSV as a self-contained HTML page with SVG charts.")

    @Argument(help: "Report CSV.")
    var report: String

    @Option(name: [.customLong("html"), .customLong("output")], help: "HTML output path (--output is the same).")
    var html: String

    func run() throws {
        let r: RunReport
        do { r = try RunReport.read(path: report) } catch { fail("\(error)") }
        do { try FileIO.writeText(html, HTMLReport.render(r)) } catch { fail("cannot write \(html): \(error)") }
        print("wrote \(html)")
    }
}
