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
                feature) and lists what it skipped. The output is a FeatureCollection: the \
                snapshot's features in their order (updated in place, removed ones left out), then \
                the added ones in the diff's order; it is written to a temporary file and renamed, \
                so a failed run leaves no partial file. Exit status: 0; 2 for unreadable input or \
                a change that cannot be applied.
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
        @Option(help: "Zoom range of the touched tiles reported, MIN-MAX (within 0-29).")
        var zoom: String = "0-14"
        @Option(help: "Refuse (exit 2, nothing written) when the snapshot's tile index over --zoom is estimated above this many tiles: the index holds each of them (about 32 bytes a tile), so a larger one is also refused when it would not fit in memory.")
        var maxTiles: Int = 100_000_000

        func run() throws {
            do { try FileIO.checkWritable(output) } catch { fail("\(error)") }
            let zooms = DiffCommand.zoomRange(zoom)
            let mode: FeatureStore.Mode = lenient ? .lenient : .strict
            var features: [GeoFeature] = []
            try DiffCommand.read(snapshot, label: "snapshot", progress: false) { features.append($0) }
            let change: GeoJSONSourceDiff
            do { change = try GeoJSONSourceDiff(json: try FileIO.readAll(diff)) } catch {
                fail("\(diff): \(error)")
            }
            checkIndexEstimate(features, zooms)
            var store: FeatureStore
            do {
                store = try FeatureStore(features, promoteId: promoteId, indexZooms: zooms, mode: mode)
            } catch {
                fail("\(snapshot): \(error) (strict; --lenient keeps the last copy and skips features without an id)")
            }
            let report: FeatureStore.ApplyReport
            do { report = try store.apply(change, mode: mode) } catch {
                fail("\(diff): \(change.failingChange(error)); nothing written (--lenient skips it)")
            }
            let written: Int
            do { written = try Self.writeAtomically(output, store.snapshot(after: change, appliedTo: features)) } catch {
                fail("cannot write \(output): \(error)")
            }
            print("applied: added \(report.added), removed \(report.removed), updated \(report.updated)"
                  + (report.skipped.isEmpty ? "" : "; skipped \(report.skipped.count) (lenient)"))
            for s in report.skipped.prefix(10) {
                print("  skipped: \(s.reason) \(s.id.map { "\($0)" } ?? "")")
            }
            print("touched tiles over z\(zooms.lowerBound)-\(zooms.upperBound): \(report.touchedTileCount)")
            print("\(store.count) features -> \(output) (\(written) bytes)")
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
