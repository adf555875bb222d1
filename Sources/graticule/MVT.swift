import ArgumentParser
import BenchKit
import VectorTile

struct MVT: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mvt",
        abstract: "Vector tile tools.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a tile's layers, feature counts by type, and validation findings.",
            discussion: "Exit status: 0 valid, 1 the validator found problems, 2 unreadable file.")

        @Argument(help: "A .mvt/.pbf file (uncompressed).")
        var file: String

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file) } catch { fail("\(error)") }
            let findings: [MVTFinding] = bytes.withUnsafeBytes { raw in
                let tile = VectorTile(bytes: raw)
                let findings = MVTValidator.validate(tile)
                var rows: [[String]] = []
                if let layers = try? tile.layers() {
                    for l in layers {
                        var counts = [0, 0, 0, 0, 0]
                        l.forEachFeature { (f: Feature) in counts[Int(f.type?.rawValue ?? 4)] += 1 }
                        rows.append([l.name, String(l.version), String(l.extent), String(l.featureCount),
                                     String(counts[1]), String(counts[2]), String(counts[3]), String(counts[0]),
                                     String(counts[4]), String(l.keys.count), String(l.values.count)])
                    }
                }
                print("\(file): \(bytes.count) bytes, \(rows.count) layers")
                print(SummaryTable.table(header: ["layer", "version", "extent", "features", "points", "lines",
                                                  "polygons", "unknown", "bad type", "keys", "values"], rows: rows))
                return findings
            }
            if findings.isEmpty {
                print("valid: no findings")
            } else {
                for f in findings { print(f) }
                throw ExitCode(1)
            }
        }
    }
}
