import ArgumentParser
import Foundation
import GraticuleSupport
import TileArchive
import TileCover

/// `graticule tiles`: what a tile layer does with a tile source.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Simulate a tile layer over a tile source.",
        subcommands: [Load.self])

    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Simulate a tile layer loading tiles from a source as the camera moves, with its cache.",
            discussion: """
                At each update the layer needs the tiles the camera shows (cover camera's tiles, \
                world copies and overscaled views counted once per source tile). A tile in the \
                cache is served from it; any other is requested from SOURCE (a PMTiles or MBTiles \
                archive, or a folder of z/x/y files), which answers with the tile (loaded, its \
                stored bytes counted, kept in the cache), with "no tile" (absent from the source: \
                never requested again) or, for the tiles and updates --unavailable lists, with "not \
                available" (nothing kept: requested again on the next update that needs it). The \
                cache is least-recently-used, bounded by --cache-tiles and --cache-bytes (unbounded \
                by default); --clear-cache-at N empties it before update N and forgets the "no \
                tile" answers, as clearTileCache makes every tile load again. The cameras come \
                from --cameras (a CSV such as cover follow writes: its camera centre columns are the \
                camera) or --route (a GPX or GeoJSON route followed as cover follow does, modes off, \
                recenter, navigation and compass). Writes one CSV row per \
                update and prints the totals. Exit status: 0; 2 for unreadable input or options.
                """)

        @Argument(help: "The tile source: a .pmtiles or .mbtiles archive, or a folder of z/x/y files.")
        var source: String
        @Option(help: "Cameras, one per update: a CSV with longitude (or center_longitude) and latitude (or center_latitude) columns and optionally zoom, bearing, pitch and viewport (cover follow's report works as is).")
        var cameras: String?
        @Option(help: "A GPX file (its first track or route) or a GeoJSON line, followed by the camera (see cover follow).")
        var route: String?
        @Option(help: "Follow mode with --route: off, recenter, navigation or compass (the bearing from the GPX <course> or extension heading of each point, or --headings).")
        var mode: String = "navigation"
        @Option(help: "Compass mode: a file of compass headings in degrees clockwise from north, one per route point and line ('#' starts a comment).")
        var headings: String?
        @Option(parsing: .unconditional, help: "Map zoom, in --zoom-convention (the cameras' zoom when the CSV has no zoom column).")
        var zoom: Double?
        @Option(parsing: .unconditional, help: "Pitch in degrees (when the CSV has no pitch column).")
        var pitch: Double = 0
        @Option(help: "Viewport WIDTHxHEIGHT in points (when the CSV has no viewport column).")
        var viewport: String = "390x844"
        @OptionGroup var limits: CameraLimitOptions
        @Option(help: "The layer's tile size in points: 256 or 512 (default 512, or 256 with --zoom-convention google).")
        var tileSize: Int?
        @Option(help: "Image pixels per point, 1–4 (a 2x screen asks for 512-px images of 256-point tiles).")
        var tileScale: Int = 1
        @Option(help: "The source's max zoom; deeper views overscale its tiles (default: the archive's max zoom, else 22).")
        var sourceMaxZoom: Int?
        @Option(help: "The source's min zoom (default: the archive's, else 0).")
        var sourceMinZoom: Int?
        @Option(help: "Cache capacity in tiles (default: no bound).")
        var cacheTiles: Int?
        @Option(help: "Cache capacity in bytes of stored tiles (default: no bound).")
        var cacheBytes: Int?
        @Option(help: "Clear the cache before this update (repeatable), as clearTileCache does.")
        var clearCacheAt: [Int] = []
        @Option(help: "A file of tiles the source answers \"not available\" for: lines z/x/y UPDATES, UPDATES * or N,A-B,...")
        var unavailable: String?
        @Option(help: "CSV report path (one row per update).")
        var output: String = "reports/tiles-load.csv"
        @Option(help: "Refuse (exit 2) more updates than this.")
        var maxUpdates: Int = 1_000_000

        func run() throws {
            do { try FileIO.checkWritable(output) } catch { fail("\(error)") }
            guard (cameras == nil) != (route == nil) else { fail("give --cameras FILE or --route GPX (one of them)") }
            let tileSize = limits.tileSize(self.tileSize)
            guard tileSize == 256 || tileSize == 512 else { fail("--tile-size must be 256 or 512, got \(tileSize)") }
            guard (1...4).contains(tileScale) else { fail("--tile-scale must be 1...4, got \(tileScale)") }
            for (name, v) in [("--cache-tiles", cacheTiles), ("--cache-bytes", cacheBytes)] where (v ?? 0) < 0 {
                fail("\(name) must be 0 or more, got \(v!)")
            }
            guard let (w, h) = parseViewport(viewport) else { fail("--viewport must be WIDTHxHEIGHT, e.g. 390x844") }
            checkView(width: w, height: h, fieldOfView: Camera.defaultFieldOfView, viewport: viewport)
            let lookup: TileSizeLookup
            do { lookup = try TileSizeLookup(path: source) } catch { fail("\(source): \(error)") }
            let zooms = sourceZooms()
            let options = CameraCoverOptions(tileSize: tileSize, tileScale: tileScale, minZoom: zooms.min, maxZoom: zooms.max)
            var schedule = TileAvailability()
            if let unavailable {
                // Read and parsed in two steps: one `do` mixing this typed-throws initialiser
                // with an untyped throw crashes the 6.x optimiser (an LLVM swifterror phi).
                let text: String
                do { text = try FileIO.readText(unavailable) } catch { fail("\(error)") }
                do { schedule = try TileAvailability(parsing: text) } catch { fail("\(unavailable): \(error)") }
            }
            let template = Camera(longitude: 0, latitude: 0, zoom: zoom ?? 0, pitch: pitch, width: w, height: h)
            let views = cameraSequence(template)
            guard !views.isEmpty else { fail("no cameras: \(cameras ?? route ?? "") gives no update") }
            guard views.count <= maxUpdates else { fail("\(views.count) updates, more than --max-updates \(maxUpdates)") }
            let clears = Set(clearCacheAt)
            if let bad = clearCacheAt.first(where: { $0 < 0 }) { fail("--clear-cache-at must be 0 or more, got \(bad)") }

            let t0 = Date()
            let run: TileLayerSimulation
            do {
                run = try TileLayerSimulation(cameras: views, options: options, capacity: .init(tiles: cacheTiles, bytes: cacheBytes),
                                              clearAt: clears) { t, k in
                    if schedule.isUnavailable(t, at: k) { return .unavailable }
                    return try lookup.size(of: t).map { .tile(bytes: $0) } ?? .noTile
                }
            } catch {
                if case .source = error { fail("\(source): \(error)") }
                fail("\(error)")
            }
            let seconds = Date().timeIntervalSince(t0)
            do { try FileIO.writeText(output, run.csv) } catch { fail("cannot write \(output): \(error)") }
            let limited = limits.apply(to: template)
            let cache = [cacheTiles.map { "\($0) tiles" }, cacheBytes.map { "\($0) bytes" }].compactMap { $0 }
            print("""
                \(limits.state(limited))\(cameras != nil ? " (the template; the CSV's columns override it)" : "")
                \(source): \(counted(views.count, "update")), \(tileSize)-pt tiles at scale \(tileScale), source zooms \(zooms.min)–\(zooms.max), \
                cache \(cache.isEmpty ? "unbounded" : cache.joined(separator: ", "))\(run.clears > 0 ? ", cleared \(run.clears) times" : "")
                \(run.totalLines.joined(separator: "\n"))
                \(String(format: "%.1f", seconds / Double(views.count) * 1e6)) µs per update -> \(output)
                """)
        }

        /// The source's zoom range: the options, else the archive's header or metadata.
        func sourceZooms() -> (min: Int, max: Int) {
            var lo = 0, hi = 22
            if source.hasSuffix(".mbtiles"), let m = try? MBTilesReader(path: source).metadata() {
                let table = MBTilesMetadata(m)
                lo = table.minZoom ?? lo
                hi = table.maxZoom ?? hi
            } else if let r = try? PMTilesReader(path: source) {
                lo = Int(r.header.minZoom)
                hi = Int(r.header.maxZoom)
            }
            let z = (sourceMinZoom ?? lo, sourceMaxZoom ?? hi)
            guard (0...30).contains(z.0), (0...30).contains(z.1), z.0 <= z.1 else {
                fail("the source's zooms \(z.0)–\(z.1) must lie within 0–30, min first (--source-min-zoom, --source-max-zoom)")
            }
            return z
        }

        /// The cameras of --cameras or --route, with the view's limits applied.
        func cameraSequence(_ template: Camera) -> [Camera] {
            if let cameras {
                let text: String
                do { text = try FileIO.readText(cameras) } catch { fail("\(error)") }
                let list: [Camera]
                do {
                    list = try CameraSequence.parse(csv: text, template: template, zoom: { $0 })
                } catch { fail("\(cameras): \(error)") }
                if zoom == nil && !((try? CameraSequence.columns(csv: text))?.contains("zoom") ?? false) {
                    fail("\(cameras) has no zoom column: give --zoom")
                }
                // Every zoom, the CSV's or --zoom, is in --zoom-convention; the limits convert it.
                return list.map { limits.apply(to: $0).camera }
            }
            guard let zoom else { fail("--route needs --zoom") }
            let followMode: RouteFollower.Mode
            switch mode {
            case "off": followMode = .off
            case "recenter": followMode = .recenter(factor: 0.5)
            case "navigation": followMode = .navigation(heightFactor: 0.125)
            case "compass": followMode = .compass(heightFactor: 0.5)
            default: fail("--mode must be off, recenter, navigation or compass with --route")
            }
            let input = RouteInput.read(route!)
            let path = input.points
            var compass: [Double]?
            if case .compass = followMode {
                compass = input.compassHeadings(headings, file: route!)
            } else if headings != nil {
                fail("--headings applies to --mode compass, not \(mode)")
            }
            var start = template
            start.longitude = path[0].longitude
            start.latitude = path[0].latitude
            start.zoom = zoom
            let limited = limits.apply(to: start).camera
            guard path.count <= maxUpdates else { fail("\(path.count) route points, more than --max-updates \(maxUpdates)") }
            let follower: RouteFollower
            do { follower = try RouteFollower(route: path, template: limited, mode: followMode, headings: compass) } catch { fail("\(error)") }
            var out: [Camera] = []
            follower.run { out.append($0.camera) }
            return out
        }
    }
}
