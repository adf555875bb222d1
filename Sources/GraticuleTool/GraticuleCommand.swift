import ArgumentParser
import BenchKit
import Foundation
import GraticuleSupport

struct GraticuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graticule",
        abstract: "Benchmarks, conformance and comparisons for Graticule's map-data cores.",
        version: GraticuleVersion.current,
        subcommands: [Bench.self, Compare.self, Report.self, Conform.self, MVT.self, GeoJSONCommand.self, CoverCommand.self, DiffCommand.self, CorpusCommand.self, Profile.self, Verify.self, TilesCommand.self]
    )
}

/// Prints `graticule: message` on stderr and exits (2: bad input or usage, by default).
func fail(_ message: String, code: Int32 = 2) -> Never {
    LineProtocolProcess.waitIfInterrupted()
    ScratchFolder.removeIfOwned()
    FileHandle.standardError.write(Data(("graticule: " + message + "\n").utf8))
    exit(code)
}

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

/// Makes `./reports` when a command writes its default report there and it is missing (a
/// run from any folder writes `./reports/...`); a folder named by `--output` must exist.
func makeReportsFolder(if writingDefault: Bool) {
    guard writingDefault, !FileManager.default.fileExists(atPath: "reports") else { return }
    do { try FileManager.default.createDirectory(atPath: "reports", withIntermediateDirectories: false) } catch {
        fail("cannot make the report folder ./reports: \(error.localizedDescription)")
    }
}
