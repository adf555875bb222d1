import GraticuleSupport
import ArgumentParser
import BenchKit
import CorpusGenerators
import Foundation
import TileArchive
import TileCover

/// `graticule corpus generate`: the deterministic generated datasets as files.
struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Generated datasets.",
        subcommands: [Generate.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write a generated dataset (same seed, same bytes on every machine).",
            discussion: """
                Kinds: points (a FeatureCollection of clustered points with ids and typical \
                properties; --edits K gives a later snapshot of it with K features moved, K/10 \
                removed and K/10 added), features (mixed points, road-like lines, buildings with \
                courtyards and country-like polygons with lakes, streamed to any size with \
                --bytes; --format geojson, seq or ndjson), walk (a random-walk LineString of \
                --count vertices), gpx (a GPX track of --count points; --courses adds each point's heading, for cover follow --mode compass), tiles (--count vector \
                tiles from z0 up in tile-id order, as a folder of z/x/y.mvt, an MBTiles or a \
                PMTiles archive, by --format dir, mbtiles or pmtiles; gzip-compressed unless \
                --compression none, or brotli or zstd for PMTiles). \
                Exit status: 0 written; 2 bad options or an output that cannot be written \
                (nothing is left at --output); 128 + N when stopped by signal N.
                """)

        @Argument(help: "points, features, walk, gpx or tiles.")
        var kind: String
        @Option(help: "Number of features, vertices, track points or tiles (default 10000; features with --bytes: no limit; points and gpx at most 10,000,000, walk 100,000,000).")
        var count: Int?
        @Option(help: "features: stop after this size (e.g. 500M, 5G).")
        var bytes: String?
        @Option(help: "features: geojson, seq (RFC 8142) or ndjson. tiles: dir, mbtiles or pmtiles.")
        var format: String?
        @Option(help: "tiles: gzip, none, or for pmtiles brotli or zstd.")
        var compression = "gzip"
        @Option(help: "tiles: feature density (1 = 240–510 features per tile).")
        var density = 0.05
        @Option(help: "Generator seed.")
        var seed: UInt64 = 1
        @Option(help: "points: number of features changed in a later snapshot.")
        var edits: Int = 0
        @Option(help: "points: seed choosing the changed features.")
        var editSeed: UInt64 = 99
        @Flag(help: "gpx: give every track point its heading (a TrackPointExtension course, degrees from north).")
        var courses = false
        @Option(help: "Output file (or folder, for tiles in a dir).")
        var output: String

        /// A size such as 500M or 5G (or plain bytes); nil for anything else, and for a size
        /// no file offset can hold (over 2^63 - 1 bytes) rather than a trap.
        static func parseSize(_ s: String) -> Int? {
            let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            if let u = s.last.flatMap({ units[Character($0.uppercased())] }), let v = Double(s.dropLast()) {
                let b = v * Double(u)
                guard b.isFinite, b < 0x1p63 else { return nil }
                return Int(b)
            }
            return Int(s)
        }

        func run() throws {
            let count = self.count ?? 10_000
            guard count >= 0 else { fail("--count must be >= 0") }
            // Documents built in memory have a largest count; beyond it the request is refused
            // before anything is allocated or written.
            let most: Int? = ["points": PointsGeoJSON.maxCount, "walk": LinesGeoJSON.maxVertices,
                              "gpx": GPXTrackGenerator.maxPoints][kind]
            if let most, count > most {
                fail("--count \(count) is more than \(kind) can generate (at most \(most): the file is built in memory)")
            }
            if kind == "points" && edits > count { fail("--edits \(edits) is more than the \(count) features") }
            guard edits >= 0 else { fail("--edits must be >= 0, got \(edits)") }
            // 100 is about 24,000 to 51,000 features a tile: beyond it one tile outgrows
            // what a tile holds (and a density of 1e9 would not fit in memory).
            guard density.isFinite, density > 0, density <= 100 else { fail("--density must be in (0, 100], got \(density)") }
            if courses && kind != "gpx" { fail("--courses is for gpx, not \(kind)") }
            let data: (bytes: [UInt8], items: Int)
            switch kind {
            case "features": return try features()
            case "tiles": return try tiles(count: count)
            case "points": data = PointsGeoJSON.generate(count: count, seed: seed, edits: edits, editSeed: editSeed)
            case "walk": data = LinesGeoJSON.randomWalk(vertices: max(count, 2), seed: seed)
            case "gpx": data = GPXTrackGenerator.generate(points: max(count, 1), seed: seed, courses: courses)
            default: fail("kind must be points, features, walk, gpx or tiles")
            }
            do { try FileIO.writeAll(output, data.bytes) } catch { fail("cannot write \(output): \(error)") }
            print("\(kind): \(data.items) items, \(data.bytes.count) bytes -> \(output)")
        }

        func features() throws {
            let limit = bytes.map { s -> Int in
                guard let v = Self.parseSize(s), v > 0 else {
                    fail("--bytes must be a size such as 500M or 5G, more than 0 and at most 2^63 - 1 bytes; got \(s)")
                }
                return v
            } ?? 0
            guard let fmt = MixedGeoJSON.Format(rawValue: format ?? "geojson") else { fail("--format must be geojson, seq or ndjson") }
            // Whole or absent: a full disk leaves no partial file that would still read as
            // mostly valid.
            let out: OutputFile
            do { out = try OutputFile(path: output) } catch { fail("\(error)") }
            var bar = ProgressLine(total: limit > 0 ? limit : nil)
            var written = 0, pieces = 0
            let r: (features: Int, bytes: Int)
            do {
                let g = try MixedGeoJSON.generate(count: count ?? (limit > 0 ? nil : 10_000), bytes: limit, seed: seed, format: fmt) { chunk in
                    try out.write(chunk)
                    written += chunk.count; pieces += 1
                    if pieces % 64 == 0 { bar.update(written, count: 0) }
                }
                try out.commit()
                r = (g.features, g.bytes)
            } catch {
                out.abandon()
                bar.finish()
                fail("\(error)")
            }
            bar.finish()
            print("features: \(counted(r.features, "feature")), \(r.bytes) bytes -> \(output)")
        }

        func tiles(count: Int) throws {
            guard count > 0 else { fail("--count must be > 0 for tiles") }
            let codes: [String: PMTiles.Compression] = ["none": .none, "gzip": .gzip, "brotli": .brotli, "zstd": .zstd]
            guard let code = codes[compression] else { fail("--compression must be gzip, none, brotli or zstd") }
            guard let fmt = SyntheticArchive.Format(rawValue: format ?? "pmtiles") else {
                fail("--format must be dir, mbtiles or pmtiles for tiles")
            }
            guard fmt == .pmtiles || code == .none || code == .gzip else {
                fail("--compression \(compression) is for pmtiles (MBTiles and tile folders hold gzip or uncompressed tiles)")
            }
            var bar = ProgressLine(total: count, unit: "tiles")
            let written: SyntheticArchive.Written
            do {
                written = try SyntheticArchive.write(count: count, format: fmt, compression: code, seed: seed, density: density,
                                                     to: output) { bar.update($0, count: $0) }
            } catch {
                bar.finish()
                fail("cannot write \(output): \(error)")
            }
            bar.finish()
            print("tiles: \(counted(count, "tile")) z0–z\(written.maxZoom), \(written.tileBytes) bytes of tile data -> \(output)")
        }
    }
}
