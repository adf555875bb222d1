import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

struct CoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Tile coverage tools.",
        subcommands: [GeometryCover.self, CameraCover.self, FollowCover.self, TransitionCover.self])

    struct GeometryCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geometry",
            abstract: "The z/x/y tiles whose closed squares intersect the geometries of a GeoJSON file.",
            discussion: """
                Exact closed-mode coverage (a point on a tile edge is in both tiles). Coordinates \
                are taken literally (no wrapping at ±180); latitudes are clamped to ±85.0511°. \
                Exit status: 0, 2 unreadable or invalid GeoJSON.
                """)

        @Argument(help: "A GeoJSON file (geometry, Feature or FeatureCollection).")
        var file: String

        @Option(help: "Zoom level, 0–30.")
        var zoom: Int

        @Flag(help: "Print a GeoJSON FeatureCollection of the tile squares instead of z/x/y lines.")
        var geojson = false

        @Flag(help: "Minimal mode: open squares, with the half-open rule for geometry lying only on tile edges (a point on an edge gives one tile).")
        var minimal = false

        @Flag(help: "Print quadkeys instead of z/x/y lines.")
        var quadkeys = false

        @Option(help: "Refuse (exit 2) when the cover is estimated to exceed this many tiles, before computing it. The tiles are streamed to the output, so a raised limit costs time and disk, not memory.")
        var maxTiles: Int = 10_000_000

        @Option(help: "Write the output to this file instead of standard output.")
        var output: String?

        @Flag(help: "Read past the MUSTs of RFC 7946 that reading can go past (a Feature without geometry or properties, a member §7.1 forbids) instead of refusing the file.")
        var lenient = false

        func run() throws {
            guard (0...30).contains(zoom) else { fail("--zoom must be 0...30") }
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file) } catch { fail("\(error)") }
            let doc: GeoJSONDocument
            do { doc = try GeoJSONReader.read(bytes, options: GeoJSONReadOptions(strict: !lenient)) } catch {
                fail("\(file): \(error)" + (lenient ? "" : "; nothing written"))
            }
            var geometries: [Geometry] = []
            switch doc.object {
            case .geometry(let g): geometries = [g]
            case .feature(let f): geometries = f.geometry.map { [$0] } ?? []
            case .featureCollection(let fs): geometries = fs.compactMap(\.geometry)
            }
            guard maxTiles > 0 else { fail("--max-tiles must be positive, got \(maxTiles)") }
            let estimate = TileCoverage.estimatedCount(for: geometries, zoom: zoom)
            guard estimate <= Double(maxTiles) else {
                fail("the cover at z\(zoom) is estimated at \(String(format: "%.3g", estimate)) tiles, more than --max-tiles \(maxTiles); "
                     + "raise --max-tiles (the tiles are streamed, so memory stays bounded) or use a lower --zoom")
            }
            let boundary = TileCoverage.estimatedBoundaryCount(for: geometries, zoom: zoom)
            guard boundary <= Double(TileCoverage.maxHeldBoundaryTiles) else {
                fail("the lines and rings at z\(zoom) cross an estimated \(String(format: "%.3g", boundary)) tiles, more than the "
                     + "\(TileCoverage.maxHeldBoundaryTiles) a cover holds while it is computed (interiors are streamed as rows, "
                     + "boundaries are not); use a lower --zoom")
            }
            let t0 = Date()
            let runs = TileCoverage.runs(for: geometries, zoom: zoom, mode: minimal ? .minimal : .closed)
            let format: CoverTileWriter.Format = geojson ? .geojson : quadkeys ? .quadkeys : .lines
            do {
                try CoverTileWriter.write(runs, as: format, to: output)
            } catch let failure as FileIO.Failure where output == nil {
                fail("cannot write to standard output: " + failure.reason.replacingOccurrences(of: "write failed: ", with: ""))
            } catch {
                fail("cannot write \(output ?? "to standard output"): \(error)")
            }
            let seconds = Date().timeIntervalSince(t0)
            if let output {
                print("\(counted(runs.count, "tile")) at z\(zoom) (\(String(format: "%.1f", seconds * 1000)) ms) -> \(output)")
            }
        }
    }
}

/// The tile squares as a GeoJSON FeatureCollection (`TileSquares`), one line.
func tileFeatureCollection(_ tiles: [CameraTile]) -> String {
    String(decoding: GeoJSONWriter.encode(GeoJSONDocument(object: .featureCollection(TileSquares.features(tiles)))),
           as: UTF8.self) + "\n"
}

/// Writes `text` to `output` and prints the summary with the path, or prints the text
/// when there is no output file.
func writeOrPrint(_ text: String, to output: String?, summary: @autoclosure () -> String) {
    guard let output else { print(text, terminator: ""); return }
    do { try FileIO.writeText(output, text) } catch { fail("cannot write \(output): \(error)") }
    print("\(summary()) -> \(output)")
}
