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
        @Flag(help: "Show the progress line even when standard error is not a terminal.")
        var progress = false

        func zooms() -> ClosedRange<Int> { DiffCommand.zoomRange(zoom) }

        /// Reads both snapshots into a snapshot diff; exits 2 (nothing written) when
        /// features have no id and the policy is `id`.
        func diff(_ old: String, _ new: String) throws -> (SnapshotDiff, FeatureMatcher, FeatureMatcher) {
            guard let policy = FeatureMatching(rawValue: match) else {
                fail("--match must be id, index or geometry+properties")
            }
            guard ["error", "first", "last"].contains(duplicates) else { fail("--duplicates must be error, first or last") }
            var differ = SnapshotDiff(promoteId: promoteId, indexZooms: zooms())
            var a = FeatureMatcher(policy: policy, promoteId: promoteId)
            var b = FeatureMatcher(policy: policy, promoteId: promoteId)
            // --duplicates last: a first pass finds each key's last position, and only that
            // copy is given to the diff.
            let lastOld = duplicates == "last" ? try lastPositions(old, policy) : nil
            let lastNew = duplicates == "last" ? try lastPositions(new, policy) : nil
            var i = 0
            try DiffCommand.read(old, label: "old", progress: progress) { f in
                let g = a.keyed(f)
                defer { i += 1 }
                if let lastOld, let k = FeatureKey.of(g, promoteId: promoteId), lastOld[k] != i { return }
                differ.addOld(g)
            }
            i = 0
            try DiffCommand.read(new, label: "new", progress: progress) { f in
                let g = b.keyed(f)
                defer { i += 1 }
                if let lastNew, let k = FeatureKey.of(g, promoteId: promoteId), lastNew[k] != i { return }
                differ.addNew(g)
            }
            if duplicates == "error" && !differ.duplicateIDs.isEmpty {
                let repeated = Set(differ.duplicateIDs.prefix(3))
                var where_: [String] = []
                for (path, label) in [(old, "old"), (new, "new")] {
                    var positions: [FeatureKey: [Int]] = [:]
                    var m = FeatureMatcher(policy: policy, promoteId: promoteId)
                    var j = 0
                    try DiffCommand.read(path, label: label, progress: false) { f in
                        if let k = FeatureKey.of(m.keyed(f), promoteId: promoteId), repeated.contains(k) { positions[k, default: []].append(j) }
                        j += 1
                    }
                    for (k, at) in positions.sorted(by: { $0.value[0] < $1.value[0] }) where at.count > 1 {
                        where_.append("id \(k) at \(label) features \(at.prefix(4).map(String.init).joined(separator: ", "))\(at.count > 4 ? ", ..." : "")")
                    }
                }
                fail("\(differ.duplicateIDs.count) repeated ids within a snapshot (\(where_.joined(separator: "; "))); nothing written. "
                     + "Say which copy stands with --duplicates first or --duplicates last (MapLibre's data sources keep the last)")
            }
            let idless = a.missingIDs + b.missingIDs
            if policy == .id && idless > 0 {
                fail("\(idless) features have no \(promoteId.map { "'\($0)' property" } ?? "id") (old: \(a.missingIDs), "
                     + "new: \(b.missingIDs)); nothing written. Pair them with --match index (by position) "
                     + "or --match geometry+properties (by content)")
            }
            return (differ, a, b)
        }

        /// Each key's last position in the snapshot at `path` (keys as the matcher gives them).
        func lastPositions(_ path: String, _ policy: FeatureMatching) throws -> [FeatureKey: Int] {
            var last: [FeatureKey: Int] = [:]
            var m = FeatureMatcher(policy: policy, promoteId: promoteId)
            var j = 0
            try DiffCommand.read(path, label: "first pass", progress: false) { f in
                if let k = FeatureKey.of(m.keyed(f), promoteId: promoteId) { last[k] = j }
                j += 1
            }
            return last
        }

        /// The line that says how features were paired.
        func matchedLine(_ a: FeatureMatcher, _ b: FeatureMatcher) -> String {
            let idless = a.missingIDs + b.missingIDs, repeats = a.repeatedContent + b.repeatedContent
            return "matched \(a.policy.summary)"
                + (idless > 0 ? ": \(a.missingIDs) old and \(b.missingIDs) new features without an id" : "")
                + (repeats > 0 ? ", \(a.repeatedContent) old and \(b.repeatedContent) new repeats of identical content" : "")
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
            let (differ, a, b) = try pairing.diff(old, new)
            var finished = differ
            let d = finished.finish()
            let bytes = d.jsonBytes()
            do { try FileIO.writeAll(out, bytes) } catch { fail("cannot write \(out): \(error)") }
            let seconds = Date().timeIntervalSince(t0)
            print(pairing.matchedLine(a, b))
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
                of a changed feature covers, with their ancestors in the range. Sorted by zoom, x \
                and y. Features are paired as graticule diff pairs them (--promote-id, --match). \
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
            let (differ, a, b) = try pairing.diff(old, new)
            var finished = differ
            let d = finished.finish()
            var tiles: [TileID] = []
            tiles.reserveCapacity(finished.touchedTileCount)
            finished.forEachTouchedTile { tiles.append($0) }
            tiles.sort { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }
            var text = ""
            text.reserveCapacity(tiles.count * 14)
            for t in tiles { text += "\(t.z)/\(t.x)/\(t.y)\n" }
            do { try FileIO.writeText(output, text) } catch { fail("cannot write \(output): \(error)") }
            print(pairing.matchedLine(a, b))
            print("added \(d.add.count), removed \(d.remove.count), updated \(d.update.count)")
            print("touched tiles over z\(zooms.lowerBound)-\(zooms.upperBound): \(tiles.count) -> \(output)")
        }
    }

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
            var store: FeatureStore
            do {
                store = try FeatureStore(features, promoteId: promoteId, indexZooms: zooms, mode: mode)
            } catch {
                fail("\(snapshot): \(error) (strict; --lenient keeps the last copy and skips features without an id)")
            }
            let report: FeatureStore.ApplyReport
            do { report = try store.apply(change, mode: mode) } catch {
                fail("\(diff): \(Self.operation(failing: error, in: change)); nothing written (--lenient skips it)")
            }
            let written: Int
            do { written = try Self.writeAtomically(output, Self.result(features, store: store, change: change, promoteId: promoteId)) } catch {
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

        /// The failing change in words: which operation, which id.
        static func operation(failing error: SourceDiffError, in diff: GeoJSONSourceDiff) -> String {
            switch error {
            case .unknownID(let k):
                if diff.remove.contains(k) { return "remove of id \(k): no feature with that id" }
                if diff.update.contains(where: { $0.id == k }) { return "update of id \(k): no feature with that id" }
                return "\(error)"
            case .duplicateID(let k): return "add of id \(k): a feature with that id is already there"
            case .missingID(let i): return "add \(i): the feature has no id"
            default: return "\(error)"
            }
        }

        /// The new snapshot: the old features in order (as the store now holds them, removed
        /// ones left out), then features whose keys were not in the snapshot, in the diff's
        /// add order.
        static func result(_ old: [GeoFeature], store: FeatureStore, change: GeoJSONSourceDiff,
                           promoteId: String?) -> [GeoFeature] {
            var out: [GeoFeature] = []
            out.reserveCapacity(store.count)
            var placed = Set<FeatureKey>()
            for f in old {
                guard let k = FeatureKey.of(f, promoteId: promoteId), !placed.contains(k), let now = store[k] else { continue }
                placed.insert(k)
                out.append(now)
            }
            for f in change.add {
                guard let k = FeatureKey.of(f, promoteId: promoteId), !placed.contains(k), let now = store[k] else { continue }
                placed.insert(k)
                out.append(now)
            }
            return out
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

    /// `--zoom MIN-MAX` as a range within 0...29; exits 2 otherwise.
    static func zoomRange(_ text: String) -> ClosedRange<Int> {
        let bounds = text.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1], bounds[1] <= 29 else {
            fail("--zoom must be MIN-MAX within 0-29, e.g. 0-14")
        }
        return bounds[0]...bounds[1]
    }

    static func read(_ path: String, label: String, progress: Bool, _ body: (GeoFeature) -> Void) throws {
        var stream: GeoJSONFeatureStream
        do { stream = try GeoJSONFeatureStream(path: path) } catch { fail("\(error)") }
        var bar = ProgressLine(total: stream.source.size, force: progress)
        do {
            let broken = try GeoJSONCommand.forEachFeature(&stream, bar: &bar, body)
            if let (n, first) = broken { print("\(path) (\(label)): broken elements skipped: \(n) (first: \(first))") }
        } catch {
            bar.finish()
            fail("\(path) (\(label)): \(error)")
        }
        bar.finish()
    }
}
