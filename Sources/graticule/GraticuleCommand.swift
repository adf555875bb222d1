import ArgumentParser

struct GraticuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graticule",
        abstract: "Benchmarks, conformance and comparisons for Graticule's map-data cores.",
        subcommands: [Bench.self, Compare.self, Report.self, Conform.self, MVT.self]
    )
}

/// Failure with a message and an exit code (2 unless said otherwise).
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var code: Int32 = 2
    var description: String { message }
}

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data(("graticule: " + message + "\n").utf8))
    exit(code)
}

import Foundation

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
