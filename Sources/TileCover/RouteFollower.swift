import GeoModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Simulates a device moving along a route while a map view follows it, and reports per
/// location update the camera and the tiles to load and drop: what a navigation or
/// tracking screen asks of its tile sources.
public struct RouteFollower {
    /// How the camera reacts to the location (the auto-pan modes of map SDKs).
    public enum Mode: Sendable, Equatable {
        /// The camera stays where it started; the location may leave the view.
        case off
        /// The camera recentres on the location when it leaves the wander extent: the
        /// centred rectangle of `factor` times the viewport (0 recentres on every update,
        /// 1 only when the location leaves the view).
        case recenter(factor: Double)
        /// Heading-up: the bearing follows the direction of travel and the location is
        /// pinned on the vertical centre line at `heightFactor` of the viewport's height
        /// measured from the **bottom** edge: 0 is the bottom edge, 1 the top, 0.5 the centre
        /// (the navigation point height factor of the map SDKs' location displays, whose
        /// default is 0.125: near the bottom, so the view shows the route ahead).
        case navigation(heightFactor: Double)
        /// Compass navigation: the camera's bearing is the device's compass heading at the
        /// location (``RouteFollower/headings``), not the direction of travel, so the map
        /// turns when the device turns, even standing still; the location is pinned at
        /// `heightFactor` of the viewport's height from the bottom edge as in navigation
        /// mode (0.5, the default, centres it).
        case compass(heightFactor: Double = 0.5)
    }

    /// A change of the viewport from an update on, as an interface orientation change
    /// makes it: the location symbol is placed again by the mode's rule.
    public struct ViewportChange: Sendable, Equatable {
        public var update: Int
        public var width: Double
        public var height: Double
        public init(update: Int, width: Double, height: Double) {
            self.update = update
            self.width = width
            self.height = height
        }
    }

    /// Where the location updates come from.
    public enum Sampling: Sendable, Equatable {
        /// One update per route vertex.
        case vertices
        /// A device moving at `metresPerSecond`, reporting `hertz` times a second (the last
        /// vertex is always reported).
        case speed(metresPerSecond: Double, hertz: Double)
    }

    /// One location update.
    public struct Update: Sendable {
        public let index: Int
        /// Seconds since the start (vertex updates count one second each).
        public let time: Double
        public let longitude: Double
        public let latitude: Double
        public let camera: Camera
        /// Whether the camera moved for this update.
        public let moved: Bool
        /// Whether auto-pan was on for this update (off from the user's pan onwards).
        public let autoPan: Bool
        public let tiles: Int
        public let load: [CameraTile]
        public let drop: [CameraTile]
    }

    public let route: [GeoPosition]
    /// The camera's zoom, pitch, viewport and field of view; its centre and bearing are
    /// set by the simulation.
    public let template: Camera
    public let options: CameraCoverOptions
    public let mode: Mode
    public let sampling: Sampling
    /// The device's compass heading at each route vertex, in degrees clockwise from north
    /// (``Mode/compass(heightFactor:)`` needs one per vertex; an update between vertices uses the heading
    /// of the vertex it left).
    public let headings: [Double]?
    /// The update at which the user pans the map. As in the map SDKs, a viewpoint change by
    /// the user switches auto-pan off: from this update on the camera stays where it is
    /// and the location may leave the view.
    public let panAt: Int?
    /// Viewport changes in update order (at most one per update).
    public let viewportChanges: [ViewportChange]

    /// - Throws: `CameraError.outOfRange` for an empty route, a factor outside 0...1, a
    ///   non-positive speed or rate, compass mode without one finite heading per route
    ///   vertex, a negative pan index, or a template camera the camera cover rejects.
    public init(route: [GeoPosition], template: Camera, options: CameraCoverOptions = .init(),
                mode: Mode, sampling: Sampling = .vertices, headings: [Double]? = nil,
                panAt: Int? = nil, viewportChanges: [ViewportChange] = []) throws(CameraError)
    {
        guard !route.isEmpty else { throw .outOfRange("route points", 0) }
        switch mode {
        case .off: break
        case .recenter(let f): if !(0...1).contains(f) { throw .outOfRange("wander factor", f) }
        case .navigation(let h): if !(0...1).contains(h) { throw .outOfRange("height factor", h) }
        case .compass(let h):
            if !(0...1).contains(h) { throw .outOfRange("height factor", h) }
            guard let headings, headings.count == route.count else {
                throw .outOfRange("compass headings (one per route vertex)", Double(headings?.count ?? 0))
            }
            if let bad = headings.first(where: { !$0.isFinite }) { throw .outOfRange("compass heading", bad) }
        }
        if let panAt, panAt < 0 { throw .outOfRange("pan update", Double(panAt)) }
        self.headings = headings
        self.panAt = panAt
        if case .speed(let v, let hz) = sampling {
            if !(v > 0 && v.isFinite) { throw .outOfRange("speed", v) }
            if !(hz > 0 && hz.isFinite) { throw .outOfRange("update rate", hz) }
        }
        _ = try CameraCoverage.tiles(for: template, options: options)
        var last = -1
        for v in viewportChanges {
            if v.update <= last { throw .outOfRange("viewport change update (changes in increasing update order)", Double(v.update)) }
            last = v.update
            var c = template
            c.width = v.width
            c.height = v.height
            _ = try CameraCoverage.tiles(for: c, options: options)
        }
        self.viewportChanges = viewportChanges
        self.route = route
        self.template = template
        self.options = options
        self.mode = mode
        self.sampling = sampling
    }

    /// The location updates: (seconds, longitude, latitude).
    /// How many updates `run` makes, computed without making them: one per vertex, or with
    /// `speed` sampling the route's length over the distance between updates, plus the
    /// first and last.
    public var estimatedUpdates: Double {
        switch sampling {
        case .vertices: return Double(route.count)
        case .speed(let v, let hz):
            var length = 0.0
            for k in route.indices.dropFirst() { length += Self.metres(route[k - 1], route[k]) }
            return (length / (v / hz)).rounded(.down) + 2
        }
    }

    public func locations() -> [(time: Double, longitude: Double, latitude: Double)] {
        locationsAndVertices().locations
    }

    /// The location updates, and for each the route vertex it is at or last passed.
    func locationsAndVertices() -> (locations: [(time: Double, longitude: Double, latitude: Double)], vertices: [Int]) {
        switch sampling {
        case .vertices:
            return (route.enumerated().map { (Double($0.offset), $0.element.longitude, $0.element.latitude) },
                    Array(route.indices))
        case .speed(let v, let hz):
            let step = v / hz
            var vertices = [0]
            var out: [(Double, Double, Double)] = [(0, route[0].longitude, route[0].latitude)]
            var travelled = 0.0        // metres from the start to route[k]
            var next = step            // distance of the next update
            for k in 1..<max(route.count, 1) {
                let a = route[k - 1], b = route[k]
                let len = Self.metres(a, b)
                while next <= travelled + len && len > 0 {
                    let t = (next - travelled) / len
                    out.append((next / v, a.longitude + t * (b.longitude - a.longitude), a.latitude + t * (b.latitude - a.latitude)))
                    vertices.append(t == 1 ? k : k - 1)
                    next += step
                }
                travelled += len
            }
            let last = route[route.count - 1], reported = out[out.count - 1]
            if route.count > 1 && (reported.1 != last.longitude || reported.2 != last.latitude) {
                out.append((travelled / v, last.longitude, last.latitude))
                vertices.append(route.count - 1)
            }
            return (out, vertices)
        }
    }

    /// Great-circle distance (haversine, mean Earth radius 6,371,008.8 m).
    static func metres(_ a: GeoPosition, _ b: GeoPosition) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, h.squareRoot()))
    }

    /// Runs the simulation, calling `body` with each update in order.
    ///
    /// - Complexity: one camera cover per update, plus a set difference with the previous
    ///   cover when the camera moved.
    public func run(_ body: (Update) -> Void) {
        let (locs, vertexOf) = locationsAndVertices()
        var changes = viewportChanges[...]
        /// The viewport change at update k, if any (consumed in order).
        func viewportChange(at k: Int) -> ViewportChange? {
            while let c = changes.first, c.update < k { changes.removeFirst() }
            guard let c = changes.first, c.update == k else { return nil }
            changes.removeFirst()
            return c
        }
        var camera = template
        if let v = viewportChange(at: 0) { camera.width = v.width; camera.height = v.height }
        camera.longitude = locs[0].longitude
        camera.latitude = locs[0].latitude
        var heading = template.bearing
        if case .navigation = mode { heading = headingAt(0, locs); camera.bearing = heading }
        if case .navigation(let h) = mode { camera = pinned(camera, at: locs[0], heightFactor: h) }
        if case .compass(let h) = mode {
            if let headings { camera.bearing = Self.normalised(headings[vertexOf[0]]) }
            if h != 0.5 { camera = pinned(camera, at: locs[0], heightFactor: h) }
        }
        var current: [CameraTile] = (try? CameraCoverage.tiles(for: camera, options: options)) ?? []
        body(Update(index: 0, time: locs[0].time, longitude: locs[0].longitude, latitude: locs[0].latitude,
                    camera: camera, moved: true, autoPan: panAt.map { $0 > 0 } ?? true,
                    tiles: current.count, load: current, drop: []))
        for k in 1..<max(locs.count, 1) {
            let loc = locs[k]
            var next = camera
            // An orientation change resizes the view whether or not auto-pan is on; the
            // mode's rule then places the location in the new view.
            if let v = viewportChange(at: k) { next.width = v.width; next.height = v.height }
            let autoPan = panAt.map { k < $0 } ?? true
            switch autoPan ? mode : .off {
            case .compass(let h):
                next.longitude = loc.longitude
                next.latitude = loc.latitude
                if let headings { next.bearing = Self.normalised(headings[vertexOf[k]]) }
                if h != 0.5 { next = pinned(next, at: loc, heightFactor: h) }
            case .off:
                break
            case .recenter(let factor):
                // `next` is the camera with this update's viewport.
                if let p = next.project(longitude: loc.longitude, latitude: loc.latitude) {
                    let dx = abs(p.x - next.width / 2), dy = abs(p.y - next.height / 2)
                    if dx > factor * next.width / 2 || dy > factor * next.height / 2 || factor == 0 {
                        next.longitude = loc.longitude
                        next.latitude = loc.latitude
                    }
                } else {
                    next.longitude = loc.longitude
                    next.latitude = loc.latitude
                }
            case .navigation(let h):
                let d = headingAt(k, locs)
                if !d.isNaN { heading = d }
                next.bearing = heading
                next = pinned(next, at: loc, heightFactor: h)
            }
            let moved = next != camera
            var load: [CameraTile] = [], drop: [CameraTile] = []
            if moved {
                let tiles = (try? CameraCoverage.tiles(for: next, options: options)) ?? []
                (load, drop) = CameraCoverage.delta(from: current, to: tiles)
                current = tiles
                camera = next
            }
            body(Update(index: k, time: loc.time, longitude: loc.longitude, latitude: loc.latitude,
                        camera: camera, moved: moved, autoPan: autoPan, tiles: current.count, load: load, drop: drop))
        }
    }

    /// A heading in 0..<360.
    static func normalised(_ d: Double) -> Double {
        let r = d.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }

    /// The direction of travel at update k (degrees clockwise from north, on the Mercator
    /// map): towards the next location that differs, or from the previous one at the end.
    func headingAt(_ k: Int, _ locs: [(time: Double, longitude: Double, latitude: Double)]) -> Double {
        func bearing(_ a: (time: Double, longitude: Double, latitude: Double), _ b: (time: Double, longitude: Double, latitude: Double)) -> Double {
            let dx = WebMercator.x(longitude: b.longitude) - WebMercator.x(longitude: a.longitude)
            let dy = WebMercator.y(latitude: b.latitude) - WebMercator.y(latitude: a.latitude)
            guard dx != 0 || dy != 0 else { return .nan }
            let deg = atan2(dx, -dy) * 180 / .pi
            return deg < 0 ? deg + 360 : deg
        }
        var j = k + 1
        while j < locs.count {
            let d = bearing(locs[k], locs[j])
            if !d.isNaN { return d }
            j += 1
        }
        var i = k - 1
        while i >= 0 {
            let d = bearing(locs[i], locs[k])
            if !d.isNaN { return d }
            i -= 1
        }
        return template.bearing
    }

    /// The camera with the same zoom, bearing and pitch whose viewport shows `loc` at the
    /// horizontal centre and `heightFactor` of the height from the bottom edge (screen y
    /// grows downwards, so that is y = (1 − heightFactor) × height).
    func pinned(_ camera: Camera, at loc: (time: Double, longitude: Double, latitude: Double), heightFactor: Double) -> Camera {
        var c = camera
        c.longitude = loc.longitude
        c.latitude = loc.latitude
        // With the centre on the location, the ground point at the pin's screen position
        // is offset from it by the same Mercator vector the centre must move by, reversed.
        guard let seen = c.unproject(x: c.width / 2, y: (1 - heightFactor) * c.height) else { return c }
        let dx = WebMercator.x(longitude: loc.longitude) - WebMercator.x(longitude: seen.longitude)
        let dy = WebMercator.y(latitude: loc.latitude) - WebMercator.y(latitude: seen.latitude)
        c.longitude = WebMercator.longitude(x: WebMercator.x(longitude: loc.longitude) + dx)
        c.latitude = WebMercator.latitude(y: min(max(WebMercator.y(latitude: loc.latitude) + dy, 0), 1))
        return c
    }
}
