import ArgumentParser
import GraticuleSupport
import TileArchive

/// `graticule verify ARCHIVE`: a PMTiles archive checked against the PMTiles v3 rules
/// (`PMTilesReader.verify`), each finding with its rule id, section and byte offset.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a PMTiles archive against the PMTiles v3 rules (PM1–PM21).",
        discussion: """
            The rules are those of the PMTiles v3 checklist (corpora/conformance/rules.tsv, \
            PM1–PM21): sections inside the file, after the header and not overlapping; the \
            root directory in the first 16 KiB; the header's codes, zooms, bounds and centre; \
            directories with entries, in tile-id order, of non-zero lengths, each leaf read \
            once; the header's counts against the directories; the clustered order; the \
            metadata a JSON object with vector_layers for vector tiles; every tile content of \
            the header's compression and tile type. Each finding is printed as \
            [RULE SECTION] byte OFFSET: MESSAGE; the forms the specification allows but does \
            not require (PM20: name, type, version strings) are notes, which do not change \
            the exit status. \
            Exit status: 0 nothing found, 1 findings, 2 the file cannot be read as PMTiles v3 \
            (not PMTiles, version N not supported, header cut short).
            """)

    @Argument(help: "A PMTiles v3 archive.")
    var archive: String

    func run() throws {
        let reader: PMTilesReader
        do { reader = try PMTilesReader(path: archive, checkingCompressions: false) } catch {
            fail("\(archive): [\(error.rule) \(PMTiles.section(of: error.rule))] \(error)")
        }
        let findings = reader.verify()
        for line in reader.summary() { print(line) }
        let notes = findings.filter(\.isNote), broken = findings.filter { !$0.isNote }
        for f in broken { print("finding: \(f)") }
        for f in notes { print("note: \(f)") }
        let noted = notes.isEmpty ? "" : " (\(notes.count) note(s))"
        print(broken.isEmpty ? "valid: no findings" + noted : "\(broken.count) finding(s)" + noted)
        if !broken.isEmpty { throw ExitCode(1) }
    }
}
