import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

extension CoverCommand {
    struct CameraCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "camera",
            abstract: "The tiles a map camera needs (MapLibre coveringTiles semantics, flat Mercator, no terrain).",
            discussion: """
                Prints one tile per line, nearest the centre first: z/x/y, then @Z when the tile is \
                overscaled (drawn at zoom Z past the source's max zoom) and "wrap N" for world copies. \
                Above the pitch threshold (60° with the default field of view) zooms vary with \
                distance. With --fit-bounds W,S,E,N the camera is centred on the bounds at the \
                largest zoom whose view holds them inside the viewport less --padding points on \
                every side (Web Mercator, turned by --bearing, clamped by the zoom limits), as \
                setting a map view's camera from bounds does. Exit status: 0, 2 invalid camera \
                or options.
                """)

        // Unconditional: the value may start with a minus sign (--center -123.1,49.2).
        @Option(parsing: .unconditional, help: "Map centre as LON,LAT (degrees; west and south are negative).")
        var center: String?
        @Option(parsing: .unconditional, help: "Map zoom (fractional allowed); clamped to --min-zoom...--max-zoom.")
        var zoom: Double?
        @Option(parsing: .unconditional, help: "Instead of --center and --zoom: the bounds W,S,E,N (degrees; E < W crosses the antimeridian) the camera fits.")
        var fitBounds: String?
        @Option(help: "With --fit-bounds: points kept free on every side of the viewport.")
        var padding: Double = 0
        @Option(parsing: .unconditional, help: "Bearing in degrees clockwise from north (negative counter-clockwise).")
        var bearing: Double = 0
        @Option(parsing: .unconditional, help: "Pitch in degrees from straight down; clipped to the maximum tilt profile at the zoom.")
        var pitch: Double = 0
        @OptionGroup var limits: CameraLimitOptions
        @OptionGroup var view: CameraViewOptions
        @Flag(help: "Print a GeoJSON FeatureCollection of the tile squares.")
        var geojson = false
        @Option(help: "Write the output to this file instead of standard output.")
        var output: String?

        /// Decimal numbers separated by commas, or nil.
        static func numbers(_ text: String) -> [Double]? {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let values = parts.compactMap { DecimalText.parse($0.trimmingCharacters(in: .whitespaces)) }
            return values.count == parts.count ? values : nil
        }

        func run() throws {
            let (w, h) = view.size()
            let c: [Double], zoom: Double
            var fitted = ""
            if let fitBounds {
                guard center == nil, self.zoom == nil else { fail("give --fit-bounds, or --center and --zoom, not both") }
                guard let b = Self.numbers(fitBounds), b.count == 4 else {
                    fail("--fit-bounds must be W,S,E,N in decimal degrees, e.g. -10.5,35,30,60; got \(fitBounds)")
                }
                guard b[1] <= b[3] else { fail("--fit-bounds \(fitBounds): south \(viewportText(b[1])) is above north \(viewportText(b[3]))") }
                let fit: (longitude: Double, latitude: Double, zoom: Double)
                do { fit = try CameraFit.fit(west: b[0], south: b[1], east: b[2], north: b[3], width: w, height: h, padding: padding, bearing: bearing) } catch {
                    if case .outOfRange("padding", _) = error { fail("--padding \(viewportText(padding)) leaves no room in a \(view.viewport) viewport") }
                    fail("--fit-bounds \(fitBounds): \(error)")
                }
                c = [fit.longitude, fit.latitude]
                // A box of no extent fits at any zoom: the view's max zoom clamps it.
                zoom = limits.zoomConvention.zoom(fromMapLibre: fit.zoom.isFinite ? fit.zoom : 30)
                fitted = "fit bounds \(fitBounds) with \(viewportText(padding)) points of padding: centre "
                    + String(format: "%.7f,%.7f", fit.longitude, fit.latitude) + ", "
                    + (fit.zoom.isFinite ? String(format: "zoom %.4f fits", zoom) : "the bounds have no extent: any zoom fits")
            } else {
                guard let center, let z = self.zoom else { fail("give --center and --zoom, or --fit-bounds") }
                guard let values = Self.numbers(center), values.count == 2 else {
                    fail("--center must be LON,LAT in decimal degrees, e.g. -123.1,49.2; got \(center)")
                }
                (c, zoom) = (values, z)
            }
            let limited = limits.apply(to: Camera(longitude: c[0], latitude: c[1], zoom: zoom, bearing: bearing, pitch: pitch,
                                                  width: w, height: h, fieldOfView: view.fov), worldCopies: !view.noWorldCopies)
            let options = view.coverOptions(limits)
            let t0 = Date()
            let tiles: [CameraTile]
            do { tiles = try CameraCoverage.tiles(for: limited.camera, options: options) } catch { fail("\(error)") }
            let seconds = Date().timeIntervalSince(t0)
            let text = geojson ? tileFeatureCollection(tiles)
                : tiles.map(\.description).joined(separator: "\n") + (tiles.isEmpty ? "" : "\n")
            let zooms = Set(tiles.map { Int($0.tile.z) }).sorted().map(String.init).joined(separator: ",")
            let px = options.tilePixels
            let images = "\(px)x\(px)-px images (\(options.tileSize)-pt tiles at scale \(options.tileScale)), "
                + String(format: "%.1f", Double(tiles.count * px * px) / 1e6) + " Mpx"
            let state = (fitted.isEmpty ? "" : fitted + "\n") + limits.state(limited, worldCopies: !view.noWorldCopies)
            if output == nil { FileHandle.standardError.write(Data("\(state)\n".utf8)) }
            writeOrPrint(text, to: output, summary: "\(state)\n\(counted(tiles.count, "tile")), zooms \(zooms), \(images) (\(String(format: "%.3f", seconds * 1000)) ms)")
        }
    }
}

/// Exits 2 when a view is outside what a map view can show (`MapViewBounds`), naming the
/// option.
func checkView(width: Double, height: Double, fieldOfView: Double, viewport: String) {
    do { try MapViewBounds.check(width: width, height: height, fieldOfView: fieldOfView) } catch {
        if case .outOfRange("fieldOfView", let v) = error {
            fail("--fov must be 0.01...60 degrees (as MapLibre's camera allows), got \(v)")
        }
        fail("--viewport sides must be at most 16384 points (a map canvas's texture limit), got \(viewport)")
    }
}

/// Parses "W x H" viewport sizes such as 390x844.
func parseViewport(_ s: String) -> (Double, Double)? {
    MapViewBounds.viewport(parsing: s).map { ($0.width, $0.height) }
}
