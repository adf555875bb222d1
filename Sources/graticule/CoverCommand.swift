import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import TileCover

struct CoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Tile coverage tools.",
        subcommands: [GeometryCover.self])

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

        @Option(help: "Write the output to this file instead of standard output.")
        var output: String?

        func run() throws {
            guard (0...30).contains(zoom) else { fail("--zoom must be 0...30") }
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(file) } catch { fail("\(error)") }
            let doc: GeoJSONDocument
            do { doc = try GeoJSONReader.read(bytes) } catch { fail("\(file): \(error)") }
            var geometries: [Geometry] = []
            switch doc.object {
            case .geometry(let g): geometries = [g]
            case .feature(let f): geometries = f.geometry.map { [$0] } ?? []
            case .featureCollection(let fs): geometries = fs.compactMap(\.geometry)
            }
            let t0 = Date()
            let tiles = Array(Set(geometries.flatMap { TileCoverage.tiles(for: $0, zoom: zoom, mode: minimal ? .minimal : .closed) })).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
            let seconds = Date().timeIntervalSince(t0)
            var text = ""
            if geojson {
                var features: [GeoFeature] = []
                for t in tiles {
                    let b = t.bounds
                    let ring = [b.west, b.south, b.east, b.south, b.east, b.north, b.west, b.north, b.west, b.south]
                    features.append(GeoFeature(id: .string(t.description),
                                               geometry: Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0]),
                                               properties: ["z": .int(Int64(t.z)), "x": .int(Int64(t.x)), "y": .int(Int64(t.y)),
                                                            "quadkey": .string(t.quadkey)]))
                }
                text = String(decoding: GeoJSONWriter.encode(GeoJSONDocument(object: .featureCollection(features), bbox: nil, crs: nil)),
                              as: UTF8.self) + "\n"
            } else {
                text = tiles.map { quadkeys ? $0.quadkey : $0.description }.joined(separator: "\n") + (tiles.isEmpty ? "" : "\n")
            }
            if let output {
                do { try FileIO.writeText(output, text) } catch { fail("cannot write \(output): \(error)") }
                print("\(tiles.count) tiles at z\(zoom) (\(String(format: "%.1f", seconds * 1000)) ms) -> \(output)")
            } else {
                print(text, terminator: "")
            }
        }
    }
}
