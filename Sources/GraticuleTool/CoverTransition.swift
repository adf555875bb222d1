import ArgumentParser
import Foundation
import GeoModel
import GraticuleSupport
import TileCover

extension CoverCommand {
    struct TransitionCover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transition",
            abstract: "The frames of an animated camera change and the tiles each frame needs.",
            discussion: """
                The map view moves from --from to --to with --animation: none (one frame, at the \
                destination), linear (duration × fps + 1 frames; the centre along the straight \
                line in Web Mercator, zoom and pitch linearly, the bearing the short way round), \
                bow or rocket (van Wijk and Nuij's zoom-out-and-in flight, the path MapLibre's \
                flyTo follows, at curvature 1 and 2: a rocket zooms out at least as far as a bow). \
                Every frame keeps the view's limits. Writes one CSV row per frame: frame, time_s, \
                longitude, latitude, zoom (in --zoom-convention), bearing, pitch, event (began on \
                the first frame, ended on the last, as the map view raises its animation and \
                transformation events), tiles, load, drop; tiles load --cameras replays it. \
                Prints the camera line of the destination first, then the totals. Exit status: 0, \
                2 invalid cameras or options.
                """)

        @Option(parsing: .unconditional, help: "The start: LON,LAT,ZOOM[,BEARING[,PITCH]] (zoom in --zoom-convention).")
        var from: String
        @Option(parsing: .unconditional, help: "The destination: LON,LAT,ZOOM[,BEARING[,PITCH]].")
        var to: String
        @Option(help: "none, linear, bow or rocket.")
        var animation: CameraTransition.Animation = .linear
        @Option(help: "Seconds the animation takes.")
        var duration: Double = 1
        @Option(help: "Frames per second.")
        var fps: Double = 60
        @Option(help: "The flight's curvature instead of bow's 1 or rocket's 2 (MapLibre's flyTo default is 1.42).")
        var curve: Double?
        @OptionGroup var limits: CameraLimitOptions
        @OptionGroup var view: CameraViewOptions
        @Option(help: "CSV report path (one row per frame).")
        var output: String = "reports/transition.csv"

        /// `text` as a camera: LON,LAT,ZOOM and optionally BEARING and PITCH; exit 2 naming
        /// `option` otherwise.
        static func camera(_ text: String, option: String, width: Double, height: Double, fov: Double) -> Camera {
            guard let v = CameraCover.numbers(text), (3...5).contains(v.count) else {
                fail("\(option) must be LON,LAT,ZOOM[,BEARING[,PITCH]] in decimal numbers, e.g. -123.1,49.2,12,30,45; got \(text)")
            }
            return Camera(longitude: v[0], latitude: v[1], zoom: v[2], bearing: v.count > 3 ? v[3] : 0, pitch: v.count > 4 ? v[4] : 0,
                          width: width, height: height, fieldOfView: fov)
        }

        func run() throws {
            do { try FileIO.checkWritable(output) } catch { fail("\(error)") }
            let (w, h) = view.size()
            let worldCopies = !view.noWorldCopies
            let start = limits.apply(to: Self.camera(from, option: "--from", width: w, height: h, fov: view.fov), worldCopies: worldCopies)
            let end = limits.apply(to: Self.camera(to, option: "--to", width: w, height: h, fov: view.fov), worldCopies: worldCopies)
            let frames: [CameraTransition.Frame]
            do {
                frames = try CameraTransition.frames(from: start.camera, to: end.camera, animation: animation, duration: duration,
                                                     fps: fps, curve: curve)
            } catch {
                if case .outOfRange(let name, let v) = error, ["duration", "fps", "frames", "curve"].contains(name) {
                    fail(name == "frames" ? "--duration \(duration) at --fps \(fps) makes \(Int(v)) frames; 2 to \(CameraTransition.maxFrames) are allowed"
                         : "--\(name) must be a positive number, got \(v)")
                }
                fail("\(error)")
            }
            let cameraLimits = limits.cameraLimits(width: w, height: h, worldCopies: worldCopies)
            let cameras = frames.map { CameraLimitOptions.limit($0.camera, by: cameraLimits).camera }
            let counts: [(tiles: Int, load: Int, drop: Int)]
            do { counts = try CameraTransition.tileCounts(cameras, options: view.coverOptions(limits)) } catch { fail("\(error)") }
            let convention = limits.zoomConvention
            var csv = "frame,time_s,longitude,latitude,zoom,bearing,pitch,event,tiles,load,drop\n"
            for (k, f) in frames.enumerated() {
                let c = cameras[k]
                csv += "\(k)," + String(format: "%.4f,%.7f,%.7f,%.4f,%.2f,%.2f,", f.time, c.longitude, c.latitude,
                                        convention.zoom(fromMapLibre: c.zoom), c.bearing, c.pitch)
                    + "\(f.event),\(counts[k].tiles),\(counts[k].load),\(counts[k].drop)\n"
            }
            do { try FileIO.writeText(output, csv) } catch { fail("cannot write \(output): \(error)") }
            let lowest = cameras.map(\.zoom).min() ?? end.camera.zoom
            let loaded = counts.map(\.load).reduce(0, +), most = counts.map(\.load).max() ?? 0
            let zoomOut = lowest < min(start.camera.zoom, end.camera.zoom) - 1e-9
            print("""
                \(limits.state(end, worldCopies: worldCopies))
                from \(limits.state(start, worldCopies: worldCopies))
                \(animation.rawValue): \(frames.count) frame\(frames.count == 1 ? "" : "s") over \(viewportText(animation == .none ? 0 : duration)) s, \
                \(zoomOut ? "zooming out to \(String(format: "%.4g", convention.zoom(fromMapLibre: lowest))), " + String(format: "%.3g", min(start.camera.zoom, end.camera.zoom) - lowest) + " below the ends' lower zoom" : "no zoom below the ends'")
                tiles loaded over the transition: \(loaded) (the first frame's \(counts.first?.load ?? 0) included); at most \(most) in one frame -> \(output)
                """)
        }
    }
}

extension CameraTransition.Animation: ExpressibleByArgument {}
