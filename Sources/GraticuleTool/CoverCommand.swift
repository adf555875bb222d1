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
        subcommands: [GeometryCover.self, CameraCover.self, FollowCover.self])

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

        @Option(help: "Refuse (exit 2) when the cover is estimated to exceed this many tiles, before computing it: every tile is held in memory.")
        var maxTiles: Int = 10_000_000

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
            guard maxTiles > 0 else { fail("--max-tiles must be positive, got \(maxTiles)") }
            let estimate = TileCoverage.estimatedCount(for: geometries, zoom: zoom)
            guard estimate <= Double(maxTiles) else {
                fail("the cover at z\(zoom) is estimated at \(String(format: "%.3g", estimate)) tiles, more than --max-tiles \(maxTiles) "
                     + "(each is held in memory); raise --max-tiles or use a lower --zoom")
            }
            let t0 = Date()
            let tiles = TileCoverage.tiles(for: geometries, zoom: zoom, mode: minimal ? .minimal : .closed)
            let seconds = Date().timeIntervalSince(t0)
            var text = ""
            if geojson {
                text = tileFeatureCollection(tiles.map { CameraTile(tile: $0) })
            } else {
                text = tiles.map { quadkeys ? $0.quadkey : $0.description }.joined(separator: "\n") + (tiles.isEmpty ? "" : "\n")
            }
            writeOrPrint(text, to: output, summary: "\(tiles.count) tiles at z\(zoom) (\(String(format: "%.1f", seconds * 1000)) ms)")
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
    let parts = s.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
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

        // Unconditional: the value may start with a minus sign (--center -123.1,49.2).
        @Option(parsing: .unconditional, help: "Map centre as LON,LAT (degrees; west and south are negative).")
        var center: String
        @Option(parsing: .unconditional, help: "Map zoom (fractional allowed); clamped to --min-zoom...--max-zoom.")
        var zoom: Double
        @Option(parsing: .unconditional, help: "Bearing in degrees clockwise from north (negative counter-clockwise).")
        var bearing: Double = 0
        @Option(parsing: .unconditional, help: "Pitch in degrees from straight down; clipped to the maximum tilt profile at the zoom.")
        var pitch: Double = 0
        @OptionGroup var limits: CameraLimitOptions
        @Option(help: "Viewport WIDTHxHEIGHT in points.")
        var viewport: String = "1920x1080"
        @Option(help: "Vertical field of view in degrees.")
        var fov: Double = Camera.defaultFieldOfView
        @Option(help: "The source's tile size in points: 512 or 256 (a 256 source loads one zoom deeper).")
        var tileSize: Int = 512
        @Option(help: "Image pixels per point, 1–4: a raster tile layer on a 2x screen asks for 512-px images of the same 256-point tiles.")
        var tileScale: Int = 1
        @Option(help: "The source's min zoom (no tiles below it).")
        var sourceMinZoom: Int = 0
        @Option(help: "The source's max zoom (deeper views overscale its tiles).")
        var sourceMaxZoom: Int = 22
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
            checkView(width: w, height: h, fieldOfView: fov, viewport: viewport)
            let limited = limits.apply(to: Camera(longitude: c[0], latitude: c[1], zoom: zoom, bearing: bearing, pitch: pitch,
                                                  width: w, height: h, fieldOfView: fov))
            let options = CameraCoverOptions(tileSize: tileSize, tileScale: tileScale, minZoom: sourceMinZoom, maxZoom: sourceMaxZoom,
                                             roundZoom: roundZoom, reparseOverscaled: !noOverscale, renderWorldCopies: !noWorldCopies)
            let t0 = Date()
            let tiles: [CameraTile]
            do { tiles = try CameraCoverage.tiles(for: limited.camera, options: options) } catch { fail("\(error)") }
            let seconds = Date().timeIntervalSince(t0)
            let text = geojson ? tileFeatureCollection(tiles)
                : tiles.map(\.description).joined(separator: "\n") + (tiles.isEmpty ? "" : "\n")
            let zooms = Set(tiles.map { Int($0.tile.z) }).sorted().map(String.init).joined(separator: ",")
            let px = options.tilePixels
            let images = "\(px)x\(px)-px images (\(tileSize)-pt tiles at scale \(tileScale)), "
                + String(format: "%.1f", Double(tiles.count * px * px) / 1e6) + " Mpx"
            let state = cameraState(limited, limits.profile)
            if output == nil { FileHandle.standardError.write(Data("\(state)\n".utf8)) }
            writeOrPrint(text, to: output, summary: "\(state)\n\(tiles.count) tiles, zooms \(zooms), \(images) (\(String(format: "%.3f", seconds * 1000)) ms)")
        }
    }
}

extension CoverCommand {
    struct FollowCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Follow a GPX route with a map camera and report the tiles to load and drop per location update.",
            discussion: """
                The route is the GPX file's first track with points, or its first route. Each vertex is \
                an update, or with --speed a device moving at that speed reports --rate times a \
                second. Modes: off (the camera stays), recenter (recentres when the location leaves \
                the centred --wander fraction of the view), navigation (heading-up from the direction \
                of travel, the location pinned at --height-factor of the view's height from the bottom \
                edge: 0 bottom, 1 top) and compass (centred, the bearing from the device's compass \
                heading per route point: the GPX <course> or extension heading, or --headings \
                FILE). --pan-at N scripts a user pan at update N: auto-pan is off from then on. Writes one CSV row per update (auto_pan on or off) and \
                prints a summary. Exit status: 0, 2 unreadable GPX or invalid options.
                """)

        @Argument(help: "A GPX 1.0 or 1.1 file.")
        var file: String
        @Option(parsing: .unconditional, help: "Map zoom; clamped to --min-zoom...--max-zoom.")
        var zoom: Double
        @Option(help: "Viewport WIDTHxHEIGHT in points.")
        var viewport: String = "390x844"
        @Option(help: "off, recenter, navigation (heading-up from the direction of travel) or compass (centred, heading-up from the device's compass: the GPX headings or --headings).")
        var mode: String = "navigation"
        @Option(help: "Compass mode: a file of compass headings in degrees clockwise from north, one per route point and line ('#' starts a comment); without it, the GPX file's <course> (or extension heading) of every point.")
        var headings: String?
        @Option(help: "The update at which the user pans the map: auto-pan is off from then on, as in the map SDKs.")
        var panAt: Int?
        @Option(parsing: .unconditional, help: "Pitch in degrees; clipped to the maximum tilt profile at the zoom.")
        var pitch: Double = 0
        @OptionGroup var limits: CameraLimitOptions
        @Option(help: "Recenter mode: the wander extent as a fraction of the view (0–1).")
        var wander: Double = 0.5
        @Option(help: "Navigation mode: where the location is pinned on the vertical centre line, as a fraction of the view's height from the bottom edge (0 bottom, 1 top; the location displays' default 0.125).")
        var heightFactor: Double = 0.125
        @Option(help: "Device speed in metres per second (default: one update per vertex).")
        var speed: Double?
        @Option(help: "Updates per second with --speed.")
        var rate: Double = 1
        @Option(help: "The source's tile size: 512 or 256.")
        var tileSize: Int = 512
        @Option(help: "The source's max zoom (deeper views overscale its tiles).")
        var sourceMaxZoom: Int = 22
        @Option(help: "CSV report path (one row per update).")
        var output: String = "reports/follow.csv"
        @Option(help: "Refuse (exit 2) when --speed and --rate would make more updates than this, before running.")
        var maxUpdates: Int = 1_000_000

        func run() throws {
            guard let (w, h) = parseViewport(viewport) else { fail("--viewport must be WIDTHxHEIGHT, e.g. 390x844") }
            guard (0...1).contains(wander) else { fail("--wander must be 0...1, got \(wander)") }
            let followMode: RouteFollower.Mode
            switch mode {
            case "off": followMode = .off
            case "recenter": followMode = .recenter(factor: wander)
            case "navigation": followMode = .navigation(heightFactor: heightFactor)
            case "compass": followMode = .compass
            default: fail("--mode must be off, recenter, navigation or compass")
            }
            var compass: [Double]?
            if let headings {
                let text: String
                do { text = try FileIO.readText(headings) } catch { fail("\(error)") }
                do { compass = try CompassHeadings.parse(text) } catch {
                    fail("\(headings):\(error.line): not a heading in degrees: '\(error.text)'")
                }
            }
            let doc: GPXDocument
            do { doc = try GPXReader.read(try FileIO.readAll(file)) } catch { fail("\(file): \(error)") }
            guard let path = doc.firstPath else { fail("\(file): no track or route points") }
            if followMode == .compass && compass == nil {
                // The headings the file records with each point (<course>, or a heading in
                // the point's extensions), when every point has one.
                let courses = doc.firstPathCourses ?? []
                let missing = courses.filter { $0 == nil }.count
                guard missing == 0 else {
                    fail("--mode compass: \(missing) of \(path.count) route points in \(file) have no <course> or extension heading; "
                         + "give --headings FILE (one compass heading per route point)")
                }
                compass = courses.map { $0! }
            }
            let limited = limits.apply(to: Camera(longitude: path[0].longitude, latitude: path[0].latitude, zoom: zoom, pitch: pitch,
                                                  width: w, height: h))
            let template = limited.camera
            guard maxUpdates > 0 else { fail("--max-updates must be positive, got \(maxUpdates)") }
            checkView(width: w, height: h, fieldOfView: template.fieldOfView, viewport: viewport)
            let follower: RouteFollower
            do {
                follower = try RouteFollower(route: path, template: template,
                                             options: CameraCoverOptions(tileSize: tileSize, maxZoom: sourceMaxZoom), mode: followMode,
                                             sampling: speed.map { .speed(metresPerSecond: $0, hertz: rate) } ?? .vertices,
                                             headings: compass, panAt: panAt)
            } catch { fail("\(error)") }
            let expected = follower.estimatedUpdates
            guard expected <= Double(maxUpdates) else {
                fail("--speed \(speed ?? 0) m/s at --rate \(rate) Hz makes about \(String(format: "%.3g", expected)) updates over this route, "
                     + "more than --max-updates \(maxUpdates); raise --max-updates, or the speed, or lower the rate")
            }
            var csv = "update,time_s,longitude,latitude,center_longitude,center_latitude,bearing,moved,tiles,load,drop,auto_pan\n"
            var summary = RouteFollower.Summary()
            let t0 = Date()
            follower.run { u in
                summary.add(u)
                func f(_ v: Double, _ digits: Int = 7) -> String { String(format: "%.\(digits)f", v) }
                csv += "\(u.index),\(f(u.time, 3)),\(f(u.longitude)),\(f(u.latitude)),\(f(u.camera.longitude)),\(f(u.camera.latitude)),"
                    + "\(f(u.camera.bearing, 2)),\(u.moved),\(u.tiles),\(u.load.count),\(u.drop.count),\(u.autoPan ? "on" : "off")\n"
            }
            let seconds = Date().timeIntervalSince(t0)
            do { try FileIO.writeText(output, csv) } catch { fail("cannot write \(output): \(error)") }
            print("""
                \(file): \(path.count) route points, \(summary.updates) updates, mode \(mode), viewport \(viewport)
                \(cameraState(limited, limits.profile))
                camera moved on \(summary.moves) updates; tiles in view: \(summary.maxTiles) at most\(panAt.map { "; auto-pan off from update \($0) (user pan)" } ?? "")
                tiles loaded after the first view: \(summary.loads) (at most \(summary.maxLoad) in one update); dropped: \(summary.drops)
                \(String(format: "%.1f", seconds / Double(max(summary.updates, 1)) * 1e6)) µs per update (cover + delta) -> \(output)
                """)
        }
    }
}

/// The view's camera limits, shared by `cover camera` and `cover follow`.
struct CameraLimitOptions: ParsableArguments {
    @Option(help: "The view's min zoom: a lower zoom is clamped up to it (MapLibre's default 0).")
    var minZoom: Double = 0
    @Option(help: "The view's max zoom: a higher zoom is clamped down to it (MapLibre's default 22).")
    var maxZoom: Double = 22
    @Option(help: "Maximum tilt per zoom, \"z:deg,z:deg,...\", straight lines between the stops and flat beyond them; the pitch is clipped to it (default MapLibre's flat 60).")
    var maxTiltProfile: String = TiltProfile.mapLibre.description

    var profile: TiltProfile {
        do { return try TiltProfile(parsing: maxTiltProfile) } catch { fail("--max-tilt-profile: \(error)") }
    }

    /// `camera` clamped and clipped as the view's limits say; exit 2 for limits or a
    /// camera no limit gives a meaning (NaN, infinite).
    func apply(to camera: Camera) -> LimitedCamera {
        do {
            return try CameraLimits(minZoom: minZoom, maxZoom: maxZoom, maxTilt: profile).apply(to: camera)
        } catch { fail("\(error)") }
    }
}

/// One line stating the camera as shown: the zoom and the pitch after the limits, and what
/// was asked for when a limit changed it.
func cameraState(_ limited: LimitedCamera, _ profile: TiltProfile) -> String {
    func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v) }
    var line = "camera: zoom \(f(limited.camera.zoom))"
    if limited.zoomClamped { line += " (asked \(f(limited.requestedZoom)), clamped to the view's zoom range)" }
    line += ", tilt \(f(limited.camera.pitch))°"
    if limited.pitchClipped && limited.requestedPitch < 0 {
        line += " (asked \(f(limited.requestedPitch))°, raised to the lowest tilt, 0°)"
    } else if limited.pitchClipped {
        line += " (asked \(f(limited.requestedPitch))°, clipped: the maximum tilt at zoom \(f(limited.camera.zoom)) is \(f(limited.maxPitch))° under profile \(profile))"
    } else {
        line += " (maximum \(f(limited.maxPitch))° at this zoom)"
    }
    return line
}
