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

    /// Options shared by the commands that pair two snapshots.
    struct Pairing: ParsableArguments {
        @Option(help: "Key features by this property instead of their id.")
        var promoteId: String?
        @Option(help: "How features without an id are paired: id (they are an error, the default), index (by position in the snapshot) or geometry+properties (by content).")
        var match: String = "id"
        @Option(help: "Ids repeated within a snapshot: error (exit 2 naming them and their positions, the default), first (the first copy stands) or last (the last copy stands, as MapLibre's data sources keep it).")
        var duplicates: String = "error"
        @Option(help: "Zoom range of the touched tiles, MIN-MAX (within 0-29).")
        var zoom: String = "0-14"
        @Option(help: "Refuse (exit 2, nothing written) when the touched tiles over --zoom are estimated to exceed this many. Large covers are computed row by row, so a raised limit costs time, not memory.")
        var maxTiles: Int = 100_000_000
        @Flag(help: "Show the progress line even when standard error is not a terminal.")
        var progress = false
        @Flag(help: "Skip broken elements of newline-delimited or RFC 8142 input, listing them, and read features that break a MUST of RFC 7946 reading can go past (no geometry or properties member, a member §7.1 forbids), counting them. Without it either is an error (exit 2, nothing written): a record that cannot be read is never taken for a deleted feature.")
        var lenient = false

        func zooms() -> ClosedRange<Int> { DiffCommand.zoomRange(zoom) }

        /// `--match` as a policy; exit 2 for another value.
        var matching: FeatureMatching {
            guard let policy = FeatureMatching(rawValue: match) else { fail("--match must be id, index or geometry+properties") }
            return policy
        }

        /// Exits 2 when the diff's touched tiles are estimated above --max-tiles.
        func checkTouchedEstimate(_ diff: SnapshotDiff) {
            guard maxTiles > 0 else { fail("--max-tiles must be positive, got \(maxTiles)") }
            let boundary = diff.touchedBoundaryEstimate
            guard boundary <= Double(TileCoverage.maxHeldBoundaryTiles) else {
                fail("the changed lines and rings cross an estimated \(String(format: "%.3g", boundary)) tiles at "
                     + "z\(zooms().upperBound), more than the \(TileCoverage.maxHeldBoundaryTiles) a cover holds while it is "
                     + "computed; nothing written. Narrow --zoom")
            }
            let estimate = diff.touchedTileEstimate
            guard estimate <= Double(maxTiles) else {
                let z = zooms()
                fail("the touched tiles over z\(z.lowerBound)-\(z.upperBound) are estimated at \(String(format: "%.3g", estimate)), "
                     + "more than --max-tiles \(maxTiles); nothing written. Raise --max-tiles (large covers are computed "
                     + "row by row, so memory stays bounded) or narrow --zoom")
            }
        }

        /// Reads both snapshots into a snapshot diff (SourceDiff's `SnapshotPairing`); exits 2
        /// (nothing written) when ids repeat under `--duplicates error` or features have no id
        /// under `--match id`, saying which option pairs them.
        func diff(_ old: String, _ new: String) throws -> SnapshotPairing.Result {
            let policy = matching
            guard let duplicates = SnapshotPairing.Duplicates(rawValue: duplicates) else {
                fail("--duplicates must be error, first or last")
            }
            let pairing = SnapshotPairing(matching: policy, promoteId: promoteId, duplicates: duplicates, indexZooms: zooms())
            func snapshot(_ path: String, _ label: String) -> SnapshotPairing.Snapshot {
                { read, body in
                    try DiffCommand.read(path, label: label, progress: read == .diff && progress, lenient: lenient, body)
                }
            }
            do {
                return try pairing.diff(old: snapshot(old, "old"), new: snapshot(new, "new"))
            } catch let error as SnapshotPairingError {
                switch error {
                case .repeatedIDs:
                    fail("\(error); nothing written. Say which copy stands with --duplicates first or --duplicates last "
                         + "(MapLibre's data sources keep the last)")
                case .missingIDs:
                    fail("\(error); nothing written. Pair them with --match index (by position) "
                         + "or --match geometry+properties (by content)")
                case .syntheticLookingKey:
                    fail("\(error); nothing written. Use the other --match policy, or key features by another property "
                         + "(--promote-id)")
                }
            }
        }
    }

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
                old: \(finished.oldCount) features, new: \(finished.newCount) features
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
