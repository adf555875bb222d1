import ArgumentParser
import BenchKit
import Foundation
import GraticuleSupport

struct GraticuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graticule",
        abstract: "Benchmarks, conformance and comparisons for Graticule's map-data cores.",
        version: GraticuleVersion.current,
        subcommands: [Bench.self, Compare.self, Report.self, Conform.self, MVT.self, GeoJSONCommand.self, CoverCommand.self, DiffCommand.self, CorpusCommand.self, Profile.self, Verify.self]
    )
}

/// Prints `graticule: message` on stderr and exits (2: bad input or usage, by default).
func fail(_ message: String, code: Int32 = 2) -> Never {
    ScratchFolder.removeIfOwned()
    FileHandle.standardError.write(Data(("graticule: " + message + "\n").utf8))
    exit(code)
}

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
