import GraticuleSupport
import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import GPX
import TileCover

extension CoverCommand {
    struct FollowCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Follow a GPX or GeoJSON route with a map camera and report the tiles to load and drop per location update.",
            discussion: """
                The route is the GPX file's first track or route with points, in file order, or a \
                GeoJSON LineString or MultiLineString (a geometry, a Feature, or the first line \
                feature of a collection; a MultiLineString's lines joined in order). Each vertex is \
                an update, or with --speed a device moving at that speed reports --rate times a \
                second. Modes: off (the camera stays), recenter (recentres when the location leaves \
                the centred --wander fraction of the view), navigation (heading-up from the direction \
                of travel, the location pinned at --height-factor of the view's height from the bottom \
                edge: 0 bottom, 1 top; default 0.125) and compass (the bearing from the device's compass \
                heading per route point: the GPX <course> or extension heading, or --headings \
                FILE; the location pinned at --height-factor as in navigation, default 0.5: centred). \
                --pan-at N scripts a user pan at update N: auto-pan is off from then on. \
                --viewport-at N:WIDTHxHEIGHT (repeatable) changes the viewport from update N on, as an \
                interface orientation change does; the mode's rule places the location in the new view. \
                Writes one CSV row per update (auto_pan on or off, the viewport) and \
                prints a summary. Exit status: 0, 2 unreadable GPX or invalid options.
                """)

        @Argument(help: "A GPX 1.0 or 1.1 file, or a GeoJSON file holding a line.")
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
        @Option(help: "Navigation and compass modes: where the location is pinned on the vertical centre line, as a fraction of the view's height from the bottom edge (0 bottom, 1 top; default 0.125 in navigation mode, the location displays' default, and 0.5, centred, in compass mode).")
        var heightFactor: Double?
        @Option(help: "N:WIDTHxHEIGHT: from update N on, the viewport is WIDTHxHEIGHT points (an orientation change); repeatable, N increasing.")
        var viewportAt: [String] = []
        @Option(help: "Device speed in metres per second (default: one update per vertex).")
        var speed: Double?
        @Option(help: "Updates per second with --speed.")
        var rate: Double = 1
        @Option(help: "The source's tile size: 512 or 256 (default 512, or 256 with --zoom-convention google).")
        var tileSize: Int?
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
            case "navigation": followMode = .navigation(heightFactor: heightFactor ?? 0.125)
            case "compass": followMode = .compass(heightFactor: heightFactor ?? 0.5)
            default: fail("--mode must be off, recenter, navigation or compass")
            }
            if heightFactor != nil, mode != "navigation" && mode != "compass" {
                fail("--height-factor applies to --mode navigation and compass, not \(mode)")
            }
            var changes: [RouteFollower.ViewportChange] = []
            for v in viewportAt {
                let parts = v.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let n = Int(parts[0]), n >= 0, let (vw, vh) = parseViewport(String(parts[1])) else {
                    fail("--viewport-at must be N:WIDTHxHEIGHT (update N ≥ 0), e.g. 120:844x390, got '\(v)'")
                }
                if let last = changes.last, n <= last.update {
                    fail("--viewport-at updates must increase: \(n) after \(last.update)")
                }
                checkView(width: vw, height: vh, fieldOfView: Camera.defaultFieldOfView, viewport: String(parts[1]))
                changes.append(.init(update: n, width: vw, height: vh))
            }
            let route = RouteInput.read(file)
            let path = route.points
            var compass: [Double]?
            if case .compass = followMode {
                compass = route.compassHeadings(headings, file: file)
            } else if headings != nil {
                fail("--headings applies to --mode compass, not \(mode)")
            }
            let limited = limits.apply(to: Camera(longitude: path[0].longitude, latitude: path[0].latitude, zoom: zoom, pitch: pitch,
                                                  width: w, height: h))
            let template = limited.camera
            guard maxUpdates > 0 else { fail("--max-updates must be positive, got \(maxUpdates)") }
            checkView(width: w, height: h, fieldOfView: template.fieldOfView, viewport: viewport)
            let follower: RouteFollower
            do {
                follower = try RouteFollower(route: path, template: template,
                                             options: CameraCoverOptions(tileSize: limits.tileSize(tileSize), maxZoom: sourceMaxZoom), mode: followMode,
                                             sampling: speed.map { .speed(metresPerSecond: $0, hertz: rate) } ?? .vertices,
                                             headings: compass, panAt: panAt, viewportChanges: changes)
            } catch { fail("\(error)") }
            let expected = follower.estimatedUpdates
            guard expected <= Double(maxUpdates) else {
                if let speed {
                    fail("--speed \(speed) m/s at --rate \(rate) Hz makes about \(String(format: "%.3g", expected)) updates over this route, "
                         + "more than --max-updates \(maxUpdates); raise --max-updates, or the speed, or lower the rate")
                }
                fail("the route has \(String(format: "%.0f", expected)) vertices, one update each, more than --max-updates "
                     + "\(maxUpdates); raise --max-updates, or give --speed and --rate to sample it in time")
            }
            var csv = "update,time_s,longitude,latitude,center_longitude,center_latitude,bearing,moved,tiles,load,drop,auto_pan,viewport\n"
            var summary = RouteFollower.Summary()
            let t0 = Date()
            follower.run { u in
                summary.add(u)
                func f(_ v: Double, _ digits: Int = 7) -> String { String(format: "%.\(digits)f", v) }
                csv += "\(u.index),\(f(u.time, 3)),\(f(u.longitude)),\(f(u.latitude)),\(f(u.camera.longitude)),\(f(u.camera.latitude)),"
                    + "\(f(u.camera.bearing, 2)),\(u.moved),\(u.tiles),\(u.load.count),\(u.drop.count),\(u.autoPan ? "on" : "off"),"
                    + "\(viewportText(u.camera.width))x\(viewportText(u.camera.height))\n"
            }
            let seconds = Date().timeIntervalSince(t0)
            do { try FileIO.writeText(output, csv) } catch { fail("cannot write \(output): \(error)") }
            print("""
                \(limits.state(limited))
                \(file): \(counted(path.count, "route point")), \(counted(summary.updates, "update")), mode \(mode), viewport \(viewport)
                camera moved on \(counted(summary.moves, "update")); tiles in view: \(summary.maxTiles) at most\(panAt.map { "; auto-pan off from update \($0) (user pan)" } ?? "")
                tiles loaded after the first view: \(summary.loads) (at most \(summary.maxLoad) in one update); dropped: \(summary.drops)
                \(String(format: "%.1f", seconds / Double(max(summary.updates, 1)) * 1e6)) µs per update (cover + delta) -> \(output)
                """)
        }
    }
}

/// A viewport side as given (390, or 390.5).
func viewportText(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
}
