import ArgumentParser
import GraticuleSupport
import SourceDiffJSON
import CorpusGenerators
import Foundation
import GeoJSON
import GeoModel
import SourceDiff
import TileCover

/// `graticule diff OLD NEW`: the MapLibre-style diff between two snapshots of a source,
/// streamed so memory follows the number of ids, not the files.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff two GeoJSON snapshots of a data source into a MapLibre-style source diff.",
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
    @Option(help: "Key features by this property instead of their id.")
    var promoteId: String?
    @Option(help: "How features without an id are paired: id (they are an error, the default), index (by position in the snapshot) or geometry+properties (by content).")
    var match: String = "id"
    @Option(help: "Zoom range of the touched tiles, MIN-MAX (within 0-29).")
    var zoom: String = "0-14"
    @Option(name: [.customLong("out"), .customLong("output")], help: "Where to write the diff (JSON).")
    var out: String = "reports/diff.json"
    @Flag(help: "Show the progress line even when standard error is not a terminal.")
    var progress = false

    func run() throws {
        let bounds = zoom.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] >= 0, bounds[0] <= bounds[1], bounds[1] <= 29 else {
            fail("--zoom must be MIN-MAX within 0-29, e.g. 0-14")
        }
        guard let policy = FeatureMatching(rawValue: match) else {
            fail("--match must be id, index or geometry+properties")
        }
        let t0 = Date()
        var differ = SnapshotDiff(promoteId: promoteId, indexZooms: bounds[0]...bounds[1])
        var oldMatcher = FeatureMatcher(policy: policy, promoteId: promoteId)
        var newMatcher = FeatureMatcher(policy: policy, promoteId: promoteId)
        try read(old, label: "old") { differ.addOld(oldMatcher.keyed($0)) }
        try read(new, label: "new") { differ.addNew(newMatcher.keyed($0)) }
        let idless = oldMatcher.missingIDs + newMatcher.missingIDs
        if policy == .id && idless > 0 {
            fail("\(idless) features have no \(promoteId.map { "'\($0)' property" } ?? "id") (old: \(oldMatcher.missingIDs), "
                 + "new: \(newMatcher.missingIDs)); nothing written. Pair them with --match index (by position) "
                 + "or --match geometry+properties (by content)")
        }
        let d = differ.finish()
        let bytes = d.jsonBytes()
        do { try FileIO.writeAll(out, bytes) } catch { fail("cannot write \(out): \(error)") }
        let seconds = Date().timeIntervalSince(t0)
        let repeats = oldMatcher.repeatedContent + newMatcher.repeatedContent
        print("matched \(policy.summary)"
              + (idless > 0 ? ": \(oldMatcher.missingIDs) old and \(newMatcher.missingIDs) new features without an id" : "")
              + (repeats > 0 ? ", \(oldMatcher.repeatedContent) old and \(newMatcher.repeatedContent) new repeats of identical content" : ""))
        print("""
            old: \(differ.oldCount) features, new: \(differ.newCount) features
            added \(d.add.count), removed \(d.remove.count), updated \(d.update.count) \
            (\(d.update.filter { $0.newGeometry != nil }.count) with a new geometry)
            touched tiles over z\(bounds[0])-\(bounds[1]): \(differ.touchedTileCount)
            """)
        if !differ.duplicateIDs.isEmpty {
            print("repeated ids (later copies ignored): \(differ.duplicateIDs.count), first \(differ.duplicateIDs[0])")
        }
        var line = String(format: "%.2f s", seconds)
        if let peak = ProcessStatus.peakResidentBytes() { line += String(format: ", peak resident %.0f MiB", Double(peak) / 1048576) }
        print("\(line) -> \(out) (\(bytes.count) bytes)")
    }

    func read(_ path: String, label: String, _ body: (GeoFeature) -> Void) throws {
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
