import ArgumentParser
import GraticuleSupport
import SourceDiffJSON
import Foundation
import GeoJSON
import GeoModel
import SourceDiff
import TileCover

/// `graticule diff`: the MapLibre-style diff between two snapshots of a source (`diff OLD
/// NEW`, streamed so memory follows the number of ids, not the files), the tiles it touches
/// (`diff touched`), and a diff applied to a snapshot (`diff apply`).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff two GeoJSON snapshots of a data source, list the tiles a change touches, or apply a diff.",
        subcommands: [Compute.self, Touched.self, Apply.self],
        defaultSubcommand: Compute.self)

    struct Compute: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compute",
            abstract: "Diff two GeoJSON snapshots into a MapLibre-style source diff (the default: graticule diff OLD NEW).",
            discussion: """
                Both files are streamed (FeatureCollections, RFC 8142 sequences or newline-delimited \
                GeoJSON). Features are keyed by id, or by --promote-id. A feature without one is an \
                error unless --match says how to pair such features: index (by position in the \
                snapshot) or geometry+properties (by content, copies in order). Prints how features \
                were matched, the counts of added, removed and updated features and of the tiles the \
                changes touch over --zoom, with a progress line on a terminal. Exit status: 0; 2 for \
                unreadable or invalid input, or features without an id under --match id (then \
                nothing is written).
                """)

        @Argument(help: "The old snapshot.")
        var old: String
        @Argument(help: "The new snapshot.")
        var new: String
        @OptionGroup var pairing: Pairing
        @Option(name: [.customLong("out"), .customLong("output")], help: "Where to write the diff (JSON).")
        var out: String = "reports/diff.json"

        func run() throws {
            do { try FileIO.checkWritable(out) } catch { fail("\(error)") }
            let zooms = pairing.zooms()
            let t0 = Date()
            let paired = try pairing.diff(old, new)
            var finished = paired.diff
            var d = finished.finish()
            d.matching = pairing.matching
            pairing.checkTouchedEstimate(finished)
            let bytes = d.jsonBytes()
            do { try FileIO.writeAll(out, bytes) } catch { fail("cannot write \(out): \(error)") }
            let seconds = Date().timeIntervalSince(t0)
            print(paired.matchedLine)
            print("""
                old: \(counted(finished.oldCount, "feature")), new: \(counted(finished.newCount, "feature"))
                added \(d.add.count), removed \(d.remove.count), updated \(d.update.count) \
                (\(d.update.filter { $0.newGeometry != nil }.count) with a new geometry)
                touched tiles over z\(zooms.lowerBound)-\(zooms.upperBound): \(finished.touchedTileCount)
                """)
            if !finished.duplicateIDs.isEmpty {
                print("repeated ids (--duplicates first: later copies ignored): \(finished.duplicateIDs.count), first \(finished.duplicateIDs[0])")
            }
            var line = String(format: "%.2f s", seconds)
            if let peak = ProcessStatus.peakResidentBytes() { line += String(format: ", peak resident %.0f MiB", Double(peak) / 1048576) }
            print("\(line) -> \(out) (\(bytes.count) bytes)")
        }
    }

    struct Touched: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the tiles that the changes between two snapshots touch, one z/x/y a line.",
            discussion: """
                The tiles over --zoom whose content changes: every tile the old or the new geometry \
                of a changed feature covers, with their ancestors in the range. Sorted by zoom, \
                then row (y), then column (x), and streamed: a large cover is listed row by row, \
                never held tile by tile. Features are paired as graticule diff pairs them (--promote-id, --match). \
                Exit status: 0; 2 for unreadable input or features without an id under --match id.
                """)

        @Argument(help: "The old snapshot.")
        var old: String
        @Argument(help: "The new snapshot.")
        var new: String
        @OptionGroup var pairing: Pairing
        @Option(help: "Where to write the tiles (text, one z/x/y a line).")
        var output: String = "reports/touched.txt"

        func run() throws {
            do { try FileIO.checkWritable(output) } catch { fail("\(error)") }
            let zooms = pairing.zooms()
            let paired = try pairing.diff(old, new)
            var finished = paired.diff
            var d = finished.finish()
            d.matching = pairing.matching
            pairing.checkTouchedEstimate(finished)
            let out: OutputFile
            do { out = try OutputFile(path: output) } catch { fail("cannot write \(output): \(error)") }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20 + 64)
            var count = 0
            do {
                try finished.forEachTouchedTileInOrder { t in
                    buffer += Array("\(t.z)/\(t.x)/\(t.y)\n".utf8)
                    count += 1
                    if buffer.count >= 1 << 20 { try out.write(buffer); buffer.removeAll(keepingCapacity: true) }
                }
                try out.write(buffer)
                try out.commit()
            } catch {
                out.abandon()
                fail("cannot write \(output): \(error)")
            }
            print(paired.matchedLine)
            print("added \(d.add.count), removed \(d.remove.count), updated \(d.update.count)")
            print("touched tiles over z\(zooms.lowerBound)-\(zooms.upperBound): \(count) -> \(output)")
        }
    }

    /// `--zoom MIN-MAX` as a range within 0...29; exits 2 otherwise.
    static func zoomRange(_ text: String) -> ClosedRange<Int> {
        // Every part must be a number: "-1-3" has an empty first part (a negative bound),
        // which is an error, not z1-3.
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let bounds = parts.compactMap { Int($0) }
        guard parts.count == 2, bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1], bounds[1] <= 29 else {
            fail("--zoom must be MIN-MAX within 0-29 (no negative zoom), e.g. 0-14; got \(text)")
        }
        return bounds[0]...bounds[1]
    }

    /// Streams the features of a snapshot to `body` (SourceDiffJSON's `SnapshotFile`): exit 2,
    /// nothing written, for a broken element or feature unless `lenient`, which reads past
    /// them and lists what it skipped and how many RFC 7946 violations it read past.
    static func read(_ path: String, label: String, progress: Bool, lenient: Bool, _ body: (GeoFeature) -> Void) throws {
        var bar: ProgressLine?
        let report: SnapshotFile.Report
        do {
            report = try SnapshotFile.read(path, lenient: lenient, size: { bar = ProgressLine(total: $0, force: progress) },
                                           progress: { bar?.update($0, count: $1) }, body)
        } catch {
            bar?.finish()
            switch error {
            case .unreadable: fail("\(error)")
            case .brokenElement: fail("\(path) (\(label)): \(error); nothing written (--lenient skips broken elements, listing them)")
            case .invalid: fail("\(path) (\(label)): \(error); nothing written")
            }
        }
        bar?.finish()
        if report.toleratedViolations > 0 {
            print("\(path) (\(label)): RFC 7946 violations read past (--lenient): \(report.toleratedViolations)")
        }
        guard report.broken > 0 else { return }
        print("\(path) (\(label)): broken elements skipped (--lenient): \(report.broken)")
        for e in report.listed { print("  skipped: \(e)") }
        if report.broken > report.listed.count { print("  and \(report.broken - report.listed.count) more") }
    }
}
