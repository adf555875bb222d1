import ArgumentParser
import DatasetProfile
import Foundation
import GraticuleSupport

/// `graticule profile`: stream a large dataset and report what is in it.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(name: [.customLong("csv"), .customLong("output")], help: "Write the figures as CSV (section,key,value).")
    var csv: String?

    @Option(help: "Write the figures as JSON (schema Benchmarks/Schemas/profile.schema.json).")
    var json: String?

    @Option(help: "Write the coverage heat-map as GeoJSON.")
    var heatmap: String?

    @Option(help: "Write an HTML page with the figures and charts.")
    var html: String?

    @Option(help: "Findings to print (all are counted).")
    var findings = 20

    @Flag(help: "Show the progress bar even when standard error is not a terminal.")
    var progress = false

    @Flag(help: "Tiles: skip MVT validation (faster; no findings).")
    var noValidate = false

    @Option(help: "Threads for a PMTiles archive (default: the machine's cores), over consecutive tile-id ranges merged exactly: the figures equal those of --jobs 1. Other inputs are read by one thread.")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (0...16).contains(zoom) else { throw ValidationError("--zoom must be 0...16") }
    }

    func run() throws {
        guard findings >= 0 else { fail("--findings must be 0 or more, got \(findings)") }
        guard (1...1024).contains(jobs) else { fail("--jobs must be 1...1024, got \(jobs)") }
        for p in [csv, json, heatmap, html].compactMap({ $0 }) {
            do { try FileIO.checkWritable(p) } catch { fail("\(error)") }
        }
        var profile = DatasetProfile(zoom: zoom, keep: findings)
        let start = Date()
        var bar: ProgressLine?
        do {
            try profile.profile(path: path, validate: !noValidate, jobs: jobs) { p in
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
        print(profile.summary())
        if let csv { writeOrFail(csv, profile.csv()) }
        if let json { writeOrFail(json, profile.json(path: path)) }
        if let heatmap { writeOrFail(heatmap, profile.heatmapGeoJSON()) }
        if let html { writeOrFail(html, profile.html(title: path)) }
    }

    func writeOrFail(_ p: String, _ text: String) {
        do { try FileIO.writeText(p, text) } catch { fail("cannot write \(p): \(error)") }
        print("wrote \(p)")
    }
}
