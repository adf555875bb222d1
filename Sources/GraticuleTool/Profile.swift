import ArgumentParser
import DatasetProfile
import Foundation
import GraticuleSupport

/// `graticule profile`: stream a large dataset and report what is in it (`profile PATH`,
/// or one shard of it with `--shard I/N`), and combine shard files (`profile merge`).
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile a large dataset, or one shard of it, and merge shard files.",
        subcommands: [Run.self, Merge.self],
        defaultSubcommand: Run.self)

    /// Where the figures go: shared by a run and a merge.
    struct Outputs: ParsableArguments {
        @Option(help: "Write the figures as CSV (section,key,value).")
        var csv: String?

        @Option(help: "Write the figures as JSON (schema Benchmarks/Schemas/profile.schema.json).")
        var json: String?

        @Option(help: "Write the coverage heat-map as GeoJSON.")
        var heatmap: String?

        @Option(help: "Write an HTML page with the figures and charts.")
        var html: String?

        var paths: [String] { [csv, json, heatmap, html].compactMap { $0 } }

        func check(also: [String] = []) {
            for p in paths + also {
                do { try FileIO.checkWritable(p) } catch { fail("\(error)") }
            }
        }

        /// Prints the summary and writes the requested files (and `extra`) as a set: whole
        /// or absent together, so a failure of one (a full disk) leaves none of them.
        func write(_ profile: DatasetProfile, path: String, csvPath: String?, extra: [(String, String)] = []) {
            print(profile.summary())
            var files: [(path: String, bytes: [UInt8])] = []
            if let csvPath { files.append((csvPath, Array(profile.csv().utf8))) }
            if let json { files.append((json, Array(profile.json(path: path).utf8))) }
            if let heatmap { files.append((heatmap, Array(profile.heatmapGeoJSON().utf8))) }
            if let html { files.append((html, Array(profile.html(title: path).utf8))) }
            files += extra.map { ($0.0, Array($0.1.utf8)) }
            do { try FileIO.writeAll(files) } catch { fail("cannot write \(error); none of the outputs was written") }
            for f in files { print("wrote \(f.path)") }
        }
    }
}

extension Profile {
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Profile a large dataset: GeoJSON (collection, RFC 8142 sequence, newline-delimited), a folder of .mvt/.pbf tiles, an MBTiles or a PMTiles v3 archive.",
        discussion: """
        Streams the data with bounded memory and prints throughput, peak memory, counts by \
        geometry type (and by zoom and layer for tiles), vertex and property statistics, tile \
        size distribution, validation findings with their locations, and the coverage of the data \
        at --zoom. --csv (or --output) writes the figures as CSV; --heatmap writes the coverage \
        as GeoJSON tile polygons with a `count` property; --html writes a page with charts. \
        Exit status: 0 read to the end (findings do not change it), 2 unreadable input.
        """)

    @Argument(help: "GeoJSON file, tile folder, .mbtiles or .pmtiles.")
    var path: String

    @Option(help: "Zoom of the coverage heat-map.")
    var zoom = 6

    @OptionGroup var outputs: Outputs

    @Option(help: "The figures as CSV, as --csv; with --shard, the shard file for `profile merge` (required).")
    var output: String?

    @Option(help: "Profile only shard I of N (0-based: 0/4 ... 3/4): of a tile folder, MBTiles or PMTiles archive by consecutive tile ranges, of a GeoJSON text sequence or newline-delimited file by byte ranges cut between elements; --output receives the shard file.")
    var shard: String?

    @Option(help: "Findings to print (all are counted).")
    var findings = 20

    @Flag(help: "Show the progress bar even when standard error is not a terminal.")
    var progress = false

    @Flag(help: "Tiles: skip MVT validation (faster; no findings).")
    var noValidate = false

    @Option(help: "Threads (default: the machine's cores) for a tile folder, MBTiles or PMTiles archive, over consecutive tile ranges, a GeoJSON text sequence or newline-delimited file, over byte ranges cut between elements, or a FeatureCollection, over byte ranges cut between features, merged exactly: the figures and findings equal those of --jobs 1.")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (0...16).contains(zoom) else { throw ValidationError("--zoom must be 0...16") }
    }

    /// `I/N` with 0 ≤ I < N.
    static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, (0..<n).contains(i) else { return nil }
        return (i, n)
    }

    func run() throws {
        guard findings >= 0 else { fail("--findings must be 0 or more, got \(findings)") }
        guard (1...1024).contains(jobs) else { fail("--jobs must be 1...1024, got \(jobs)") }
        var shardSpec: (index: Int, count: Int)?
        if let shard {
            guard let s = Run.parseShard(shard) else {
                fail("--shard must be I/N with 0 ≤ I < N (e.g. 0/4), got \(shard)")
            }
            guard output != nil else { fail("--shard needs --output SHARD.json, the file `profile merge` reads") }
            shardSpec = s
        }
        outputs.check(also: output.map { [$0] } ?? [])
        var profile = DatasetProfile(zoom: zoom, keep: findings)
        let start = Date()
        var bar: ProgressLine?
        do {
            try profile.profile(path: path, validate: !noValidate, jobs: jobs, shard: shardSpec) { p in
                if bar == nil { bar = ProgressLine(total: p.total, force: progress, unit: p.unit) }
                bar?.update(p.done, count: p.count)
            }
        } catch {
            bar?.finish()
            fail(error is DatasetProfile.Failure ? "\(error)" : "\(path): \(error)")
        }
        bar?.finish()
        profile.seconds = Date().timeIntervalSince(start)
        profile.peakResident = Int(ProcessStatus.peakResidentBytes() ?? 0)
        if let shardSpec, let output {
            let file: DatasetProfile.Shard
            do {
                file = profile.shard(index: shardSpec.index, count: shardSpec.count, dataset: try DatasetProfile.shardDataset(path: path))
            } catch {
                fail("\(path): \(error)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(file) else { fail("cannot encode the shard file") }
            outputs.write(profile, path: path, csvPath: outputs.csv, extra: [(output, String(decoding: data, as: UTF8.self))])
            return
        }
        outputs.write(profile, path: path, csvPath: outputs.csv ?? output)
    }
}

/// `graticule profile merge SHARD.json... --output OUT.csv`: the profile of the whole
/// dataset from its shard files.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the shard files of `profile --shard I/N` into the profile of the whole dataset.",
        discussion: """
        The result is exactly what one `profile` run over the dataset gives (counts, histograms, \
        key and layer tables, coverage, tile sizes, findings), run timing aside. Exit 2 when the \
        files are not one complete set of shards of one dataset made with the same options and \
        shard file version.
        """)

    @Argument(help: "The shard files, in any order.")
    var files: [String]

    @OptionGroup var outputs: Outputs

    @Option(help: "The figures as CSV, as --csv.")
    var output: String?

    func run() throws {
        outputs.check(also: output.map { [$0] } ?? [])
        var shards: [DatasetProfile.Shard] = []
        for f in files {
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(f) } catch { fail("\(error)") }
            do { shards.append(try DatasetProfile.Shard.read(bytes, file: f)) } catch { fail("\(error)") }
        }
        let profile: DatasetProfile
        do { profile = try DatasetProfile(merging: shards) } catch { fail("\(error)") }
        outputs.write(profile, path: shards.first?.dataset.name ?? "", csvPath: outputs.csv ?? output)
    }
}
}
