import ArgumentParser
import GraticuleSupport
import TileArchive

/// `graticule verify ARCHIVE`: a PMTiles archive checked against its header and the
/// format's rules (`PMTilesReader.verify`).
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a PMTiles archive against its header and the PMTiles v3 rules.",
        discussion: """
            Sections inside the file and not overlapping; directories in tile-id order, runs \
            not overlapping, each leaf directory referenced once; tiles inside the tile data \
            and within the header's zooms; the header's addressed tiles, tile entries and tile \
            contents matching the directories; a clustered archive's contents in tile-id order. \
            Exit status: 0 nothing found, 1 findings, 2 not a readable PMTiles archive.
            """)

    @Argument(help: "A PMTiles v3 archive.")
    var archive: String

    func run() throws {
        let reader: PMTilesReader
        do { reader = try PMTilesReader(path: archive) } catch { fail("\(archive): \(error)") }
        let findings = reader.verify()
        let h = reader.header
        print("\(archive): PMTiles v3, \(reader.fileSize) bytes, zooms \(h.minZoom)–\(h.maxZoom), "
              + "\(h.addressedTiles) addressed tiles in \(h.tileEntries) entries, \(h.tileContents) contents, "
              + (h.clustered ? "clustered" : "not clustered"))
        for f in findings { print("finding: \(f)") }
        print(findings.isEmpty ? "valid: no findings" : "\(findings.count) finding(s)")
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
