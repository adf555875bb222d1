import ArgumentParser
import GraticuleSupport
import SourceDiffJSON
import Foundation
import SourceDiff
import TileCover

extension DiffCommand {
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
}
