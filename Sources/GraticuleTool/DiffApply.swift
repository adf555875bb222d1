import ArgumentParser
import GraticuleSupport
import SourceDiffJSON
import Foundation
import GeoJSON
import GeoModel
import SourceDiff
import TileCover

extension DiffCommand {
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a source diff to a GeoJSON snapshot and write the new snapshot as GeoJSON.",
            discussion: """
                The diff is MapLibre's (removeAll, remove, add, update; as graticule diff writes \
                it), applied in that order. Strict (the default): a remove or update of an id the \
                snapshot lacks, an add of an id it has, or a feature without an id is an error \
                naming the operation and the id, and nothing is written. --lenient applies what it \
                can as the map SDKs do (unknown ids skipped, an add of a present id replaces the \
                feature), keeps the snapshot's features without an id in place, skips the broken \
                elements of a newline-delimited or RFC 8142 snapshot (an error without it), and lists every \
                change it skipped with the reason. --match must be the one the diff was made with \
                (graticule diff records index and geometry+properties in a "match" member): the \
                snapshot's features without an id are keyed the same way (index:N, \
                content:HASH:N) and written back without the synthetic keys. The output is a \
                FeatureCollection: the snapshot's features in their order (updated in place, \
                removed ones left out; an add replacing a present feature keeps its place), then \
                the added ones in the diff's order, a feature removed and added again by the \
                same diff among them; it is written to a temporary file and renamed, so a failed \
                run leaves no partial file. Exit status: 0; 2 for unreadable input, a diff made \
                with another --match, or a change that cannot be applied.
                """)

        @Argument(help: "The snapshot (GeoJSON).")
        var snapshot: String
        @Argument(help: "The diff (JSON, as graticule diff writes it).")
        var diff: String
        @Option(help: "Where to write the new snapshot (GeoJSON FeatureCollection).")
        var output: String
        @Flag(help: "Skip what cannot be applied, as the map SDKs do, instead of failing.")
        var lenient = false
        @Option(help: "Key features by this property instead of their id.")
        var promoteId: String?
        @Option(help: "How the diff paired features without an id: id (the default), index or geometry+properties; must match the diff's.")
        var match: String = "id"
        @Option(help: "Zoom range of the touched tiles reported, MIN-MAX (within 0-29).")
        var zoom: String = "0-14"
        @Option(help: "Refuse (exit 2, nothing written) when the snapshot's tile index over --zoom is estimated above this many tiles: the index holds each of them (about 32 bytes a tile), so a larger one is also refused when it would not fit in memory.")
        var maxTiles: Int = 100_000_000

        func run() throws {
            do { try FileIO.checkWritable(output) } catch { fail("\(error)") }
            guard let matching = FeatureMatching(rawValue: match) else { fail("--match must be id, index or geometry+properties") }
            let zooms = DiffCommand.zoomRange(zoom)
            let mode: FeatureStore.Mode = lenient ? .lenient : .strict
            var features: [GeoFeature] = []
            try DiffCommand.read(snapshot, label: "snapshot", progress: false, lenient: lenient) { features.append($0) }
            let change: GeoJSONSourceDiff
            do { change = try GeoJSONSourceDiff(json: try FileIO.readAll(diff)) } catch {
                fail("\(diff): \(error)")
            }
            guard change.matching == matching else {
                fail("\(diff) was made with --match \(change.matching.rawValue), and its keys of features without an id "
                     + "mean nothing under --match \(matching.rawValue); apply it with --match \(change.matching.rawValue). Nothing written")
            }
            // Features without an id: keyed as the diff keyed them (index, content), or, under
            // --match id with --lenient, kept aside and written back at their places.
            var matcher = FeatureMatcher(policy: matching, promoteId: promoteId)
            let keyed = matching == .id ? features : features.map { matcher.keyed($0) }
            if let first = matcher.firstSyntheticLooking {
                fail("\(snapshot): feature \(first.position) has the key \(first.key), the form of the keys --match "
                     + "\(matching.rawValue) gives features without an id (\(matcher.syntheticLookingKeys) in all); nothing written")
            }
            let stored = lenient && matching == .id ? keyed.filter { FeatureKey.of($0, promoteId: promoteId) != nil } : keyed
            let unkeyed = keyed.count - stored.count
            checkIndexEstimate(stored, zooms)
            var store: FeatureStore
            do {
                store = try FeatureStore(stored, promoteId: promoteId, indexZooms: zooms, mode: mode)
            } catch {
                fail("\(snapshot): \(error) (strict; --lenient keeps the last copy of a repeated id and features without an id "
                     + "in place; a diff made with --match index or geometry+properties pairs them)")
            }
            let report: FeatureStore.ApplyReport
            do { report = try store.apply(change, mode: mode) } catch {
                fail("\(diff): \(change.failingChange(error)); nothing written (--lenient skips it)")
            }
            let result = store.snapshot(after: change, appliedTo: keyed, keepingUnkeyed: unkeyed > 0).map { matcher.unkeyed($0) }
            let written: Int
            do { written = try Self.writeAtomically(output, result) } catch {
                fail("cannot write \(output): \(error)")
            }
            let skipped = store.skippedAtBuild + report.skipped
            print("applied: added \(report.added), removed \(report.removed), updated \(report.updated)"
                  + (skipped.isEmpty ? "" : "; skipped \(skipped.count) (lenient): " + Self.countsByReason(skipped)))
            if matching != .id {
                print("features without an id in the snapshot: \(matcher.missingIDs), keyed "
                      + (matching == .index ? "by position (index:N)" : "by geometry and properties (content:HASH:N)")
                      + " as the diff keyed them, written back without those keys")
            }
            if unkeyed > 0 { print("features without an id kept in place: \(unkeyed) (no change names them under --match id)") }
            for s in store.skippedAtBuild { print("  skipped in the snapshot: " + Self.describe(s, addList: false)) }
            for s in report.skipped { print("  skipped in the diff: " + Self.describe(s, addList: true)) }
            print("touched tiles over z\(zooms.lowerBound)-\(zooms.upperBound): \(report.touchedTileCount)")
            print("\(counted(result.count, "feature")) -> \(output) (\(written) bytes)")
        }

        /// `3 unknown removes, 1 add replacing a feature`.
        static func countsByReason(_ skipped: [FeatureStore.Skipped]) -> String {
            var counts: [(String, Int)] = []
            for s in skipped {
                let name = reasonName(s.reason)
                if let i = counts.firstIndex(where: { $0.0 == name }) { counts[i].1 += 1 } else { counts.append((name, 1)) }
            }
            return counts.map { "\($0.1) × \($0.0)" }.joined(separator: ", ")
        }

        static func reasonName(_ r: FeatureStore.Skipped.Reason) -> String {
            switch r {
            case .unknownRemove: return "remove of an unknown id"
            case .unknownUpdate: return "update of an unknown id"
            case .missingID: return "without an id"
            case .duplicateAddReplaced: return "replacing a present id"
            }
        }

        /// One skipped change or snapshot feature, with its reason and where it is.
        static func describe(_ s: FeatureStore.Skipped, addList: Bool) -> String {
            let id = s.id.map { " \($0)" } ?? ""
            switch s.reason {
            case .unknownRemove: return "remove of id\(id): no feature with that id"
            case .unknownUpdate: return "update of id\(id): no feature with that id"
            case .missingID: return (addList ? "add[\(s.index ?? 0)]" : "feature \(s.index ?? 0)") + ": no id"
            case .duplicateAddReplaced:
                return addList ? "add[\(s.index ?? 0)] of id\(id): replaced the feature with that id (in place)"
                    : "feature \(s.index ?? 0) repeats id\(id): the later copy stands"
            }
        }

        /// Exits 2 when the tiles the store's index would hold (each feature's cover at the
        /// deepest zoom, held tile by tile) are estimated above --max-tiles or beyond the
        /// memory this process may use.
        func checkIndexEstimate(_ features: [GeoFeature], _ zooms: ClosedRange<Int>) {
            guard maxTiles > 0 else { fail("--max-tiles must be positive, got \(maxTiles)") }
            var estimate = 0.0
            for f in features {
                guard let g = f.geometry else { continue }
                estimate += ZoomRangeCover.interiorTile(g, zoom: zooms.upperBound) != nil
                    ? 1 : TileCoverage.estimatedCount(for: g, zoom: zooms.upperBound)
            }
            let fits = ProcessStatus.memoryBudgetBytes().map { estimate * 32 <= Double($0) } ?? true
            guard estimate <= Double(maxTiles), fits else {
                fail("the snapshot's tile index at z\(zooms.upperBound) is estimated at \(String(format: "%.3g", estimate)) tiles, "
                     + (fits ? "more than --max-tiles \(maxTiles)" : "more than fit in this process's memory")
                     + "; nothing written. The index holds each tile: narrow --zoom"
                     + (fits ? " or raise --max-tiles" : ""))
            }
        }

        /// Writes the collection whole or not at all (`OutputFile`); returns the bytes
        /// written.
        static func writeAtomically(_ path: String, _ features: [GeoFeature]) throws -> Int {
            let out = try OutputFile(path: path)
            var writer = GeoJSONStreamWriter { bytes in try out.write(bytes) }
            for f in features { try writer.write(f) }
            try writer.finish()
            try out.commit()
            return out.count
        }
    }
}
