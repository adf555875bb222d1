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
        subcommands: [GeometryCover.self, CameraCover.self])

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
                text = tileFeatureCollection(tiles.map { CameraTile(tile: $0) })
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

/// A GeoJSON FeatureCollection of tile squares (longitudes shifted by 360° per world copy),
/// with z, x, y, quadkey, and wrap / overscaledZ when they say something.
func tileFeatureCollection(_ tiles: [CameraTile]) -> String {
    var features: [GeoFeature] = []
    features.reserveCapacity(tiles.count)
    for ct in tiles {
        let t = ct.tile
        let b = t.bounds
        let shift = 360 * Double(ct.wrap)
        let (w, e) = (b.west + shift, b.east + shift)
        let ring = [w, b.south, e, b.south, e, b.north, w, b.north, w, b.south]
        var props: PropertyList = ["z": .int(Int64(t.z)), "x": .int(Int64(t.x)), "y": .int(Int64(t.y)),
                                   "quadkey": .string(t.quadkey)]
        if ct.wrap != 0 { props.append(key: "wrap", value: .int(Int64(ct.wrap))) }
        if ct.overscaledZ != Int(t.z) { props.append(key: "overscaledZ", value: .int(Int64(ct.overscaledZ))) }
        features.append(GeoFeature(id: .string(ct.description),
                                   geometry: Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0]),
                                   properties: props))
    }
    return String(decoding: GeoJSONWriter.encode(GeoJSONDocument(object: .featureCollection(features), bbox: nil, crs: nil)),
                  as: UTF8.self) + "\n"
}

/// Parses "W x H" viewport sizes such as 390x844.
func parseViewport(_ s: String) -> (Double, Double)? {
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0 else { return nil }
    return (w, h)
}

extension CoverCommand {
    struct CameraCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "camera",
            abstract: "The tiles a map camera needs (MapLibre coveringTiles semantics, flat Mercator, no terrain).",
            discussion: """
                Prints one tile per line, nearest the centre first: z/x/y, then @Z when the tile is \
                overscaled (drawn at zoom Z past the source's max zoom) and "wrap N" for world copies. \
                Above the pitch threshold (60° with the default field of view) zooms vary with \
                distance. Exit status: 0, 2 invalid camera or options.
                """)

        @Option(help: "Map centre as LON,LAT (degrees).")
        var center: String
        @Option(help: "Map zoom (fractional allowed, 0–30).")
        var zoom: Double
        @Option(help: "Bearing in degrees clockwise from north.")
        var bearing: Double = 0
        @Option(help: "Pitch in degrees from straight down (0–85).")
        var pitch: Double = 0
        @Option(help: "Viewport WIDTHxHEIGHT in points.")
        var viewport: String = "1920x1080"
        @Option(help: "Vertical field of view in degrees.")
        var fov: Double = Camera.defaultFieldOfView
        @Option(help: "The source's tile size: 512 or 256.")
        var tileSize: Int = 512
        @Option(help: "The source's min zoom.")
        var minZoom: Int = 0
        @Option(help: "The source's max zoom.")
        var maxZoom: Int = 22
        @Flag(help: "Round the target zoom instead of flooring it (raster sources).")
        var roundZoom = false
        @Flag(help: "Keep tiles at max zoom at their own zoom instead of the overscaled one.")
        var noOverscale = false
        @Flag(help: "Only the main world copy (wrap 0).")
        var noWorldCopies = false
        @Flag(help: "Print a GeoJSON FeatureCollection of the tile squares.")
        var geojson = false
        @Option(help: "Write the output to this file instead of standard output.")
        var output: String?

        func run() throws {
            let c = center.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard c.count == 2 else { fail("--center must be LON,LAT") }
            guard let (w, h) = parseViewport(viewport) else { fail("--viewport must be WIDTHxHEIGHT, e.g. 390x844") }
            let camera = Camera(longitude: c[0], latitude: c[1], zoom: zoom, bearing: bearing, pitch: pitch,
                                width: w, height: h, fieldOfView: fov)
            let options = CameraCoverOptions(tileSize: tileSize, minZoom: minZoom, maxZoom: maxZoom, roundZoom: roundZoom,
                                             reparseOverscaled: !noOverscale, renderWorldCopies: !noWorldCopies)
            let t0 = Date()
            let tiles: [CameraTile]
            do { tiles = try CameraCoverage.tiles(for: camera, options: options) } catch { fail("\(error)") }
            let seconds = Date().timeIntervalSince(t0)
            let text = geojson ? tileFeatureCollection(tiles)
                : tiles.map(\.description).joined(separator: "\n") + (tiles.isEmpty ? "" : "\n")
            if let output {
                do { try FileIO.writeText(output, text) } catch { fail("cannot write \(output): \(error)") }
                let zooms = Set(tiles.map { Int($0.tile.z) }).sorted()
                print("\(tiles.count) tiles, zooms \(zooms.map(String.init).joined(separator: ",")) (\(String(format: "%.3f", seconds * 1000)) ms) -> \(output)")
            } else {
                print(text, terminator: "")
            }
        }
    }
}
