#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A map camera over a flat Web Mercator map: what a map view shows.
///
/// The model is the one map SDKs with a 512-px world tile use (MapLibre, Mapbox): the world
/// is `512 · 2^zoom` points wide, the camera looks at `center` from a distance of
/// `0.5 · height / tan(fieldOfView / 2)` points, tilted by `pitch` from straight down and
/// turned by `bearing` (the compass direction at the top of the screen).
public struct Camera: Sendable, Equatable {
    /// The point at the centre of the viewport (degrees). Latitude is clamped to the
    /// Mercator limit (±85.0511287798066°).
    public var longitude: Double
    public var latitude: Double
    /// Map zoom; fractional zooms are allowed (0...30).
    public var zoom: Double
    /// Degrees clockwise from north of the direction at the top of the screen; any value,
    /// taken modulo 360.
    public var bearing: Double
    /// Degrees from straight down (0...85).
    public var pitch: Double
    /// Viewport size in points.
    public var width: Double
    public var height: Double
    /// Vertical field of view in degrees (0 < fov < 180). The default is MapLibre's,
    /// 2·atan(1/3) ≈ 36.87°, so the camera stands 1.5 viewport heights from the centre.
    public var fieldOfView: Double

    public static let defaultFieldOfView = 2 * atan(1.0 / 3.0) * 180 / .pi

    public init(longitude: Double, latitude: Double, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                width: Double, height: Double, fieldOfView: Double = Camera.defaultFieldOfView)
    {
        self.longitude = longitude
        self.latitude = latitude
        self.zoom = zoom
        self.bearing = bearing
        self.pitch = pitch
        self.width = width
        self.height = height
        self.fieldOfView = fieldOfView
    }
}

/// How a tile source asks for tiles (the source-side options of a camera cover).
public struct CameraCoverOptions: Sendable, Equatable {
    /// The source's tile size in points: 512 matches the map zoom, 256 loads one zoom
    /// deeper (zoom + log2(512 / tileSize)).
    public var tileSize: Int
    /// Image pixels per point of a tile (1...4): a raster tile layer on a high-density
    /// screen asks for `tileSize · tileScale`-pixel images of the same z/x/y tiles. Unlike
    /// `tileSize`, it never changes which tiles are needed, only how many pixels each has.
    public var tileScale: Int
    /// Tiles below `minZoom` are not loaded (and not replaced by parents).
    public var minZoom: Int
    /// The deepest zoom the source has; deeper views overscale its tiles.
    public var maxZoom: Int
    /// Round the target zoom instead of flooring it (what raster sources do).
    public var roundZoom: Bool
    /// Tiles at `maxZoom` carry the zoom they are drawn at as `overscaledZ` (vector sources).
    public var reparseOverscaled: Bool
    /// Search the world copies east and west of the main one (wrap −3...3).
    public var renderWorldCopies: Bool

    public init(tileSize: Int = 512, tileScale: Int = 1, minZoom: Int = 0, maxZoom: Int = 22, roundZoom: Bool = false,
                reparseOverscaled: Bool = true, renderWorldCopies: Bool = true)
    {
        self.tileSize = tileSize
        self.tileScale = tileScale
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.roundZoom = roundZoom
        self.reparseOverscaled = reparseOverscaled
        self.renderWorldCopies = renderWorldCopies
    }

    /// The side of one tile image in pixels: `tileSize · tileScale`.
    public var tilePixels: Int { tileSize * tileScale }
}

/// A tile a camera needs: the source tile, the world copy it is drawn in, and the zoom it
/// is drawn at (deeper than `tile.z` only for overscaled tiles at the source's max zoom).
public struct CameraTile: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let tile: TileID
    /// 0 for the main world, −1 for the copy to the west, +1 east, and so on.
    public let wrap: Int
    public let overscaledZ: Int

    public init(tile: TileID, wrap: Int = 0, overscaledZ: Int? = nil) {
        self.tile = tile
        self.wrap = wrap
        self.overscaledZ = overscaledZ ?? Int(tile.z)
    }

    public var description: String {
        var s = tile.description
        if overscaledZ != Int(tile.z) { s += "@\(overscaledZ)" }
        if wrap != 0 { s += " wrap \(wrap)" }
        return s
    }

    public static func < (a: CameraTile, b: CameraTile) -> Bool {
        (a.overscaledZ, a.wrap, a.tile) < (b.overscaledZ, b.wrap, b.tile)
    }
}

/// Why a camera cover cannot be computed.
public enum CameraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A camera or option value outside its documented range (the name says which).
    case outOfRange(String, Double)
    /// A maximum tilt profile that cannot be read or breaks a rule (the text says which).
    case invalidTiltProfile(String)

    public var description: String {
        switch self {
        case .outOfRange(let name, let value): return "\(name) \(value) is outside its allowed range"
        case .invalidTiltProfile(let why): return "invalid maximum tilt profile: \(why)"
        }
    }
}

/// The tiles a map camera needs, with the semantics of MapLibre GL's `coveringTiles` for a
/// flat Mercator map without terrain (`../shared/specs/tilecover.md` §4):
///
/// - Target zoom `floor(zoom + log2(512 / tileSize))` (or rounded), clamped to
///   `0...maxZoom`; tiles under `minZoom` are skipped.
/// - Visibility is the exact intersection of a tile's square with the camera's footprint
///   on the ground (the frustum cut by the ground plane; far plane where the top edge of
///   the view, or a ray 89.25° from straight down when the view reaches the horizon, meets
///   the ground, plus 1%). A tile that only touches the footprint's edge is not visible.
///   MapLibre tests a tile's box against the frustum with a conservative test, and adds
///   up to 500 m of culling height near the horizon; it may return a few more tiles at the
///   footprint's corners.
/// - Above the pitch threshold `clamp(78.5° − fov/2, 0, 60)` each tile's zoom comes from
///   its distance to the camera (MapLibre's default heuristic: at most ≈ 9.3 zoom levels
///   on screen), so far tiles are shallower and the result mixes zooms.
/// - Overscaled ids at `maxZoom`, world copies with `wrap` in −3...3.
/// - Order: by the distance from the map centre to the tile's centre, measured in tiles
///   of the target zoom and across world copies, then by `CameraTile` order. (MapLibre
///   measures with the tile's own x/y whatever its zoom and ignores wrap; for tiles at the
///   target zoom in the main world the two orders agree.)
///
/// - Complexity: at one target zoom (pitch at or below the threshold), O(rows · log(row
///   width) + tiles): each row of the footprint is a run of tiles found by a short search.
///   With per-tile zooms, O(visible tiles · 4 + the quadtree nodes on the footprint's
///   boundary). The order is a counting (one zoom) or radix sort plus an insertion pass
///   over ties.
///   Nothing is allocated per tile except the output.
public enum CameraCoverage {
    /// The tiles `camera` needs from a source with `options`.
    ///
    /// - Throws: `CameraError.outOfRange` for a non-finite value, a pitch outside 0...85,
    ///   a zoom outside 0...30, a viewport side ≤ 0, a field of view outside (0, 180), a
    ///   tile size other than 256 or 512, a tile scale outside 1...4, or zooms outside 0...30 with min > max.
    public static func tiles(for camera: Camera, options: CameraCoverOptions = .init()) throws(CameraError)
        -> [CameraTile]
    {
        let view = try _CameraView(camera, options)
        return view.cover()
    }

    /// The tiles to load and to drop when the view moves from `old` to `new` (as returned
    /// by `tiles(for:options:)`): `load` keeps `new`'s order, `drop` keeps `old`'s.
    public static func delta(from old: [CameraTile], to new: [CameraTile]) -> (load: [CameraTile], drop: [CameraTile]) {
        let before = Set(old), after = Set(new)
        return (new.filter { !before.contains($0) }, old.filter { !after.contains($0) })
    }
}

/// A camera's position and axes in Mercator units (the world is [0, 1]², y south, z up).
struct _CameraFrame {
    let centerX: Double, centerY: Double
    /// Camera to centre distance.
    let distance: Double
    let cam: (Double, Double, Double)
    /// Forward (towards the centre), screen up and screen right, unit vectors.
    let f: (Double, Double, Double), u: (Double, Double, Double), r: (Double, Double, Double)
    /// Tangents of the half fields of view, vertical and horizontal.
    let tanV: Double, tanH: Double
    let width: Double, height: Double

    init(_ camera: Camera) {
        centerX = WebMercator.x(longitude: camera.longitude)
        centerY = WebMercator.y(latitude: camera.latitude)
        let worldSize = 512 * exp2(camera.zoom)
        let halfFov = camera.fieldOfView * .pi / 360
        distance = 0.5 * camera.height / tan(halfFov) / worldSize
        let p = camera.pitch * .pi / 180
        let b = camera.bearing.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (sinP, cosP, sinB, cosB) = (sin(p), cos(p), sin(b), cos(b))
        cam = (centerX - distance * sinP * sinB, centerY + distance * sinP * cosB, distance * cosP)
        f = (sinP * sinB, -sinP * cosB, -cosP)
        u = (sinB * cosP, -cosB * cosP, sinP)
        r = (cosB, sinB, 0.0)
        tanV = tan(halfFov)
        tanH = tanV * camera.width / camera.height
        width = camera.width
        height = camera.height
    }
}

extension Camera {
    /// The longitude/latitude seen at viewport point (x, y) (origin top-left, in points),
    /// or nil when that ray passes above the horizon. Longitudes are not wrapped (a point
    /// in the world copy east of ±180 has a longitude above 180).
    public func unproject(x: Double, y: Double) -> (longitude: Double, latitude: Double)? {
        let fr = _CameraFrame(self)
        let sx = (2 * x / width - 1) * fr.tanH, sy = (1 - 2 * y / height) * fr.tanV
        let d = (fr.f.0 + sx * fr.r.0 + sy * fr.u.0, fr.f.1 + sx * fr.r.1 + sy * fr.u.1, fr.f.2 + sx * fr.r.2 + sy * fr.u.2)
        guard d.2 < 0 else { return nil }
        let t = -fr.cam.2 / d.2
        let gx = fr.cam.0 + t * d.0, gy = fr.cam.1 + t * d.1
        return (WebMercator.longitude(x: gx), WebMercator.latitude(y: gy))
    }

    /// The viewport point (origin top-left, in points) where a longitude/latitude
    /// appears, or nil when it is behind the camera. The point may lie outside the
    /// viewport.
    public func project(longitude: Double, latitude: Double) -> (x: Double, y: Double)? {
        let fr = _CameraFrame(self)
        let v = (WebMercator.x(longitude: longitude) - fr.cam.0, WebMercator.y(latitude: latitude) - fr.cam.1, -fr.cam.2)
        let depth = v.0 * fr.f.0 + v.1 * fr.f.1 + v.2 * fr.f.2
        guard depth > 0 else { return nil }
        let sx = (v.0 * fr.r.0 + v.1 * fr.r.1 + v.2 * fr.r.2) / depth / fr.tanH
        let sy = (v.0 * fr.u.0 + v.1 * fr.u.1 + v.2 * fr.u.2) / depth / fr.tanV
        return ((sx + 1) / 2 * width, (1 - sy) / 2 * height)
    }
}

/// A line a·x + b·y + c = 0 of the ground plane; points with a·x + b·y + c ≥ 0 are inside.
@usableFromInline
struct _HalfPlane {
    var a: Double, b: Double, c: Double

    @inline(__always)
    func value(_ x: Double, _ y: Double) -> Double { a * x + b * y + c }
}

/// The camera resolved into Mercator units (the world is [0, 1]², y south, z up).
struct _CameraView {
    let options: CameraCoverOptions
    /// Zoom of the source's tiles at the centre, before flooring or rounding.
    let sourceZoom: Double
    let desiredZ: Int
    let nominalZ: Int
    let maxZoom: Int
    let variableZoom: Bool
    let fovDegrees: Double
    let centerX: Double, centerY: Double
    let cameraX: Double, cameraY: Double, cameraHeight: Double
    let distanceToCenter3D: Double
    /// The half-planes whose intersection with the search box is the footprint.
    var planes: (_HalfPlane, _HalfPlane, _HalfPlane, _HalfPlane, _HalfPlane)
    /// The footprint's bounding box; empty (minX > maxX) when nothing is visible.
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    /// Wrap range searched.
    let wraps: ClosedRange<Int>

    /// The horizon limit of a Mercator map view: no ray is followed further than this angle
    /// from straight down.
    static let horizonDegrees = 89.25

    init(_ camera: Camera, _ options: CameraCoverOptions) throws(CameraError) {
        func check(_ name: String, _ v: Double, _ ok: Bool) throws(CameraError) {
            if !v.isFinite || !ok { throw .outOfRange(name, v) }
        }
        try check("longitude", camera.longitude, true)
        try check("latitude", camera.latitude, true)
        try check("zoom", camera.zoom, camera.zoom >= 0 && camera.zoom <= 30)
        try check("bearing", camera.bearing, true)
        try check("pitch", camera.pitch, camera.pitch >= 0 && camera.pitch <= 85)
        try check("width", camera.width, camera.width > 0)
        try check("height", camera.height, camera.height > 0)
        try check("fieldOfView", camera.fieldOfView, camera.fieldOfView > 0 && camera.fieldOfView < 180)
        try check("tileSize", Double(options.tileSize), options.tileSize == 256 || options.tileSize == 512)
        try check("tileScale", Double(options.tileScale), (1...4).contains(options.tileScale))
        try check("minZoom", Double(options.minZoom), (0...30).contains(options.minZoom))
        try check("maxZoom", Double(options.maxZoom), (0...30).contains(options.maxZoom) && options.maxZoom >= options.minZoom)
        self.options = options
        self.maxZoom = options.maxZoom
        self.fovDegrees = camera.fieldOfView
        self.wraps = options.renderWorldCopies ? -3...3 : 0...0

        sourceZoom = camera.zoom + log2(512 / Double(options.tileSize))
        desiredZ = max(0, Int(options.roundZoom ? sourceZoom.rounded(.toNearestOrAwayFromZero) : sourceZoom.rounded(.down)))
        nominalZ = min(desiredZ, options.maxZoom)
        let threshold = min(max(78.5 - camera.fieldOfView / 2, 0), 60)
        variableZoom = camera.pitch > threshold

        let frame = _CameraFrame(camera)
        centerX = frame.centerX
        centerY = frame.centerY
        cameraX = frame.cam.0
        cameraY = frame.cam.1
        cameraHeight = frame.cam.2
        distanceToCenter3D = frame.distance
        let (f, u, r, tanV, tanH) = (frame.f, frame.u, frame.r, frame.tanV, frame.tanH)
        let p = camera.pitch * .pi / 180
        let halfFov = camera.fieldOfView * .pi / 360

        // Far plane: where the top edge of the view meets the ground, or a ray at the
        // horizon limit when the top edge is above it; 1% beyond (§4 of the checklist).
        let top = p + halfFov
        let horizon = Self.horizonDegrees * .pi / 180
        let far: Double
        if top < horizon {
            far = cameraHeight / cos(top) * cos(halfFov) * 1.01
        } else {
            far = cameraHeight / cos(horizon) * cos(horizon - p) * 1.01
        }

        // A ground point P is visible when v = P − camera satisfies
        //   |r·v| ≤ tanH (f·v),  |u·v| ≤ tanV (f·v),  f·v ≤ far.
        // Each is linear in P, so on the ground (z = 0) it is a half-plane.
        let cam = frame.cam
        func plane(_ n: (Double, Double, Double), _ offset: Double) -> _HalfPlane {
            // n·(P − cam) + offset ≥ 0 with P.z = 0.
            _HalfPlane(a: n.0, b: n.1, c: offset - (n.0 * cam.0 + n.1 * cam.1 + n.2 * cam.2))
        }
        planes = (
            plane((tanH * f.0 - r.0, tanH * f.1 - r.1, tanH * f.2 - r.2), 0),
            plane((tanH * f.0 + r.0, tanH * f.1 + r.1, tanH * f.2 + r.2), 0),
            plane((tanV * f.0 - u.0, tanV * f.1 - u.1, tanV * f.2 - u.2), 0),
            plane((tanV * f.0 + u.0, tanV * f.1 + u.1, tanV * f.2 + u.2), 0),
            plane((-f.0, -f.1, -f.2), far)
        )
        computeBounds()
        if variableZoom { prepareHeuristic() }
    }

    /// Clips the search box (the searched world copies, y in [0, 1]) by the half-planes and
    /// keeps the bounding box of what remains.
    mutating func computeBounds() {
        withUnsafeTemporaryAllocation(of: (Double, Double).self, capacity: 32) { buf in
            withUnsafeTemporaryAllocation(of: (Double, Double).self, capacity: 32) { tmp in
                var src = buf, dst = tmp
                let x0 = Double(wraps.lowerBound), x1 = Double(wraps.upperBound + 1)
                src[0] = (x0, 0); src[1] = (x1, 0); src[2] = (x1, 1); src[3] = (x0, 1)
                var n = 4
                withUnsafeBytes(of: planes) { raw in
                    let hp = raw.bindMemory(to: _HalfPlane.self)
                    for h in hp where n > 0 {
                        var m = 0
                        for i in 0..<n {
                            let a = src[i], b = src[(i + 1) % n]
                            let va = h.value(a.0, a.1), vb = h.value(b.0, b.1)
                            if va >= 0 { dst[m] = a; m += 1 }
                            if (va >= 0) != (vb >= 0) {
                                let t = va / (va - vb)
                                dst[m] = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)); m += 1
                            }
                        }
                        swap(&src, &dst)
                        n = m
                    }
                }
                for i in 0..<n {
                    minX = min(minX, src[i].0); maxX = max(maxX, src[i].0)
                    minY = min(minY, src[i].1); maxY = max(maxY, src[i].1)
                }
            }
        }
    }

    /// The square [x0, x1] × [y0, y1] against the footprint, testing only the half-planes
    /// in `mask`: nil when the square misses the footprint, else the half-planes whose lines
    /// still cross it (0: wholly inside).
    ///
    /// A half-plane's value is linear, so over the square it is largest at the corner its
    /// gradient points to and smallest at the opposite one; floating-point products and sums
    /// are monotone in each argument, so the computed values at those two corners are the
    /// largest and smallest of the four computed corner values too.
    @inline(__always)
    func visibility(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ mask: UInt8) -> UInt8? {
        if !(x1 > minX && x0 < maxX && y1 > minY && y0 < maxY) { return nil }
        var mask = mask
        func test(_ h: _HalfPlane, _ bit: UInt8) -> Bool {
            guard mask & bit != 0 else { return true }
            let hiX = h.a > 0 ? x1 : x0, loX = h.a > 0 ? x0 : x1
            let hiY = h.b > 0 ? y1 : y0, loY = h.b > 0 ? y0 : y1
            if h.value(hiX, hiY) <= 0 { return false }
            if h.value(loX, loY) >= 0 { mask &= ~bit }
            return true
        }
        guard test(planes.0, 1), test(planes.1, 2), test(planes.2, 4), test(planes.3, 8), test(planes.4, 16) else { return nil }
        return mask
    }

    /// The parts of MapLibre's default per-tile zoom heuristic (`maxZoomLevelsOnScreen`
    /// 9.314, `tileCountMaxMinRatio` 3) that do not depend on the tile.
    struct _ZoomHeuristic {
        var behaviour = 0.0
        /// sourceZoom − log2(max(0.5, cos(fov/2))) − the tile-count correction.
        var base = 0.0
    }
    var heuristic = _ZoomHeuristic()

    mutating func prepareHeuristic() {
        let maxLevels = 9.314, maxMinRatio = 3.0
        let horizon = Self.horizonDegrees
        let rad = Double.pi / 180
        let behaviour = 2 * ((maxLevels - 1) / log2(cos((horizon - fovDegrees) * rad) / cos(horizon * rad)) - 1)
        let centerPitch = acos(min(1, cameraHeight / distanceToCenter3D))
        func integral(_ power: Double, _ from: Double, _ to: Double) -> Double {
            // Midpoint rule with 10 steps, as the heuristic is defined.
            let dx = (to - from) / 10
            var sum = 0.0
            for i in 0..<10 { sum += dx * pow(cos(from + (Double(i) + 0.5) * dx), power) }
            return sum
        }
        let halfFov = fovDegrees / 2 * rad
        let countAtPitch0 = 2 * integral(behaviour - 1, 0, halfFov)
        let highest = min(horizon * rad, centerPitch + halfFov)
        let lowest = min(highest, centerPitch - halfFov)
        let count = integral(behaviour - 1, lowest, highest)
        heuristic.behaviour = behaviour
        heuristic.base = sourceZoom - log2(max(0.5, cos(halfFov))) - log2(max(1, count / countAtPitch0 / maxMinRatio)) / 2
    }

    /// The zoom a tile at `distance2D` (Mercator units, camera to the tile's nearest point)
    /// asks for: deeper when nearer than the centre, shallower when farther and seen at a
    /// grazing angle.
    @inline(__always)
    func tileZoom(distance2D: Double) -> Double {
        let h2 = distance2D * distance2D + cameraHeight * cameraHeight
        // log2(d_centre / d_tile) + behaviour · log2(cos(tile pitch)) / 2, with
        // cos(tile pitch) = height / d_tile.
        let distance3D = h2.squareRoot()
        return heuristic.base + log2(distanceToCenter3D / distance3D)
            + heuristic.behaviour * log2(cameraHeight / distance3D) / 2
    }

    func cover() -> [CameraTile] {
        variableZoom ? coverByQuadtree() : coverByRows()
    }

    /// The cover at one target zoom, row by row.
    ///
    /// The footprint is convex, so the tiles of one row that meet it are a run of
    /// consecutive columns. Each test of `visibility` is monotone in the column: the box's
    /// left edge and a half-plane whose `a` is positive ask for the column to be far enough
    /// east, the box's right edge and a negative `a` for it to be far enough west (the
    /// products and sums of a corner value are monotone in x). A row's run is therefore
    /// found by searching, from an estimate, for the first column that passes the
    /// east-going tests and the last that passes the west-going ones, with the very
    /// expressions `visibility` evaluates on every plane at once; no tile off the run is
    /// looked at. `coverByQuadtree` returns the same tiles (a test compares them).
    func coverByRows() -> [CameraTile] {
        let z = nominalZ
        guard minX <= maxX, z >= options.minZoom else { return [] }
        let over = z == maxZoom && options.reparseOverscaled ? max(z, desiredZ) : z
        let n = 1 << z
        let scale = Double(n)
        let inv = Double(sign: .plus, exponent: -z, significand: 1)
        // Columns of the searched world copies, and rows of the world.
        let lo = wraps.lowerBound * n, hi = (wraps.upperBound + 1) * n - 1
        func index(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
            // floor(v) clamped to lo...hi; NaN gives lo.
            guard v > Double(lo) else { return lo }
            guard v < Double(hi) else { return hi }
            return Int(v.rounded(.down))
        }
        let rowLo = index(minY * scale, 0, n - 1), rowHi = index(maxY * scale, 0, n - 1)

        return withUnsafeBytes(of: planes) { raw in
            let hp = raw.bindMemory(to: _HalfPlane.self)
            return withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: rowHi - rowLo + 1) { runs in
                var total = 0
                for j in rowLo...rowHi {
                    let y0 = Double(j) * inv, y1 = Double(j + 1) * inv
                    runs[j - rowLo] = (0, -1)
                    guard y1 > minY && y0 < maxY else { continue }
                    // Each plane's value at the row's extreme y (the corner `visibility` reads).
                    var east = Double(lo), west = Double(hi)
                    var rowOK = true
                    for h in hp {
                        let hiY = h.b > 0 ? y1 : y0
                        if h.a > 0 {
                            east = max(east, (-(h.b * hiY + h.c) / h.a) * scale - 1)
                        } else if h.a < 0 {
                            west = min(west, (-(h.b * hiY + h.c) / h.a) * scale)
                        } else if !(h.value(0, hiY) > 0) {
                            rowOK = false
                        }
                    }
                    guard rowOK else { continue }
                    @inline(__always)
                    func eastOK(_ i: Int) -> Bool {
                        let x1 = Double(i + 1) * inv
                        if !(x1 > minX) { return false }
                        for h in hp where h.a > 0 {
                            if !(h.value(x1, h.b > 0 ? y1 : y0) > 0) { return false }
                        }
                        return true
                    }
                    @inline(__always)
                    func westFails(_ i: Int) -> Bool {
                        let x0 = Double(i) * inv
                        if !(x0 < maxX) { return true }
                        for h in hp where h.a < 0 {
                            if !(h.value(x0, h.b > 0 ? y1 : y0) > 0) { return true }
                        }
                        return false
                    }
                    let first = _firstTrue(lo, hi, index(max(east, minX * scale - 1), lo, hi), eastOK)
                    let last = _firstTrue(lo, hi, index(min(west, maxX * scale), lo, hi) + 1, westFails) - 1
                    if first <= last {
                        runs[j - rowLo] = (first, last)
                        total += last - first + 1
                    }
                }
                guard total > 0 else { return [] }
                var iMin = Int.max, iMax = Int.min, dMax = 0.0
                // The distance from the view's centre to tile (i, j)'s centre, in target-zoom
                // tiles: the value `coverByQuadtree` computes (its distance2), term for term.
                @inline(__always)
                func distance2(_ i: Int, _ j: Int) -> Double {
                    let cx = ((Double(i) + 0.5) * inv - centerX) * scale
                    let cy = ((Double(j) + 0.5) * inv - centerY) * scale
                    return cx * cx + cy * cy
                }
                for j in rowLo...rowHi {
                    let (first, last) = runs[j - rowLo]
                    guard first <= last else { continue }
                    iMin = min(iMin, first)
                    iMax = max(iMax, last)
                    // Along a row the distance is convex, so its largest value is at an end.
                    dMax = max(dMax, distance2(first, j), distance2(last, j))
                }
                guard iMax - iMin < 1 << 32, dMax.isFinite else { return coverByQuadtree() }
                // The order: (distance, i, j), the quadtree's (distance, tile) order. Each tile
                // is one word, (i − iMin) << 32 | j, whose order is (i, j)'s. One counting pass
                // over count to 2·count buckets of round(d · 2^k) (2^k chosen as in
                // `_sortedByDistance`), then an insertion pass with the full comparison
                // between neighbours; only words move. Bunched distances (a bucket of more
                // than 32) and views of more than 2^16 tiles take the quadtree walk, which
                // returns the same tiles in the same order.
                let count = total
                let bits = max(Int.bitWidth - (count - 1).leadingZeroBitCount, 1)
                guard bits <= 16 else { return coverByQuadtree() }
                let buckets = 1 << bits
                // dMax · keyScale < 2^bits, and every distance is at most dMax.
                let keyScale = dMax > 0 ? Double(sign: .plus, exponent: min(bits - 1 - dMax.exponent, 1000), significand: 1) : 1
                return withUnsafeTemporaryAllocation(of: Int32.self, capacity: buckets) { h -> [CameraTile] in
                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * count) { words -> [CameraTile] in
                        withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { ds -> [CameraTile] in
                          withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { bucket -> [CameraTile] in
                            h.initialize(repeating: 0)
                            let w = words.baseAddress!, order = w + count
                            // Each tile's word and bucket.
                            var t = 0
                            for j in rowLo...rowHi {
                                let (first, last) = runs[j - rowLo]
                                guard first <= last else { continue }
                                let cy = ((Double(j) + 0.5) * inv - centerY) * scale
                                let dy2 = cy * cy
                                for i in first...last {
                                    let cx = ((Double(i) + 0.5) * inv - centerX) * scale
                                    // round(v) for 0 ≤ v ≤ 2^bits, from the low bits of v + 2^52
                                    // (no range checks): monotone in d, which is all a
                                    // bucket needs to be.
                                    let v = (cx * cx + dy2) * keyScale
                                    let key = min(Int(truncatingIfNeeded: (v + 0x1p52).bitPattern & 0xF_FFFF_FFFF_FFFF), buckets - 1)
                                    w[t] = UInt64(truncatingIfNeeded: i - iMin) << 32 | UInt64(truncatingIfNeeded: j)
                                    bucket[t] = Int32(truncatingIfNeeded: key)
                                    h[key] &+= 1
                                    t &+= 1
                                }
                            }
                            var sum: Int32 = 0, fullest: Int32 = 0
                            for b in 0..<buckets { let c = h[b]; h[b] = sum; sum &+= c; fullest = max(fullest, c) }
                            guard fullest <= 32 else { return coverByQuadtree() }
                            for t in 0..<count {
                                let key = Int(truncatingIfNeeded: bucket[t])
                                order[Int(truncatingIfNeeded: h[key])] = w[t]
                                h[key] &+= 1
                            }
                            // Tiles of different buckets are in distance order already.
                            for t in 0..<count {
                                let word = order[t]
                                let d = distance2(iMin + Int(truncatingIfNeeded: word >> 32), Int(truncatingIfNeeded: word & 0xFFFF_FFFF))
                                var k = t
                                while k > 0 && (d < ds[k - 1] || (d == ds[k - 1] && word < order[k - 1])) {
                                    order[k] = order[k - 1]
                                    ds[k] = ds[k - 1]
                                    k -= 1
                                }
                                order[k] = word
                                ds[k] = d
                            }
                            return [CameraTile](unsafeUninitializedCapacity: count) { out, filled in
                                for t in 0..<count {
                                    let word = order[t]
                                    let i = iMin + Int(truncatingIfNeeded: word >> 32)
                                    let tile = TileID(unchecked: z, x: UInt32(truncatingIfNeeded: i & (n - 1)),
                                                      y: UInt32(truncatingIfNeeded: word & 0xFFFF_FFFF))
                                    (out.baseAddress! + t).initialize(to: CameraTile(tile: tile, wrap: i >> z, overscaledZ: over))
                                }
                                filled = count
                            }
                          }
                        }
                    }
                }
            }
        }
    }

    /// The quadtree walk: every zoom policy, including the per-tile zooms of a pitched view.
    func coverByQuadtree() -> [CameraTile] {
        guard minX <= maxX else { return [] }
        // `mask`: the half-planes whose lines cross the node's square (bit k for plane k);
        // a child can only be cut by those, and none means the node is wholly visible.
        struct Entry { var z: Int; var x: Int; var y: Int; var wrap: Int; var mask: UInt8 }
        var stack: [Entry] = []
        stack.reserveCapacity(4 * 31 + 8)
        var out: [(tile: CameraTile, d: Double)] = []
        // The footprint's area in target-zoom tiles, a good first guess at the output size.
        let nominalScale = exp2(Double(nominalZ))
        // (Under variable zoom far tiles are shallower, so the guess would be far too big.)
        out.reserveCapacity(variableZoom ? 256 : min(4096, Int(((maxX - minX) * nominalScale + 2) * ((maxY - minY) * nominalScale + 2))))
        for w in wraps where w != 0 { stack.append(Entry(z: 0, x: 0, y: 0, wrap: w, mask: 0b11111)) }
        stack.append(Entry(z: 0, x: 0, y: 0, wrap: 0, mask: 0b11111))
        /// Squared distance, in nominal-zoom tiles, from the view's centre to a tile's centre
        /// (mx, my). A tile centre wrap + (x + ½)·2^−z is exact in binary (z ≤ 30, |wrap| ≤ 3),
        /// so however a caller forms it, one tile always gets one distance.
        @inline(__always)
        func distance2(_ mx: Double, _ my: Double) -> Double {
            let cx = (mx - centerX) * nominalScale, cy = (my - centerY) * nominalScale
            return cx * cx + cy * cy
        }
        while let e = stack.popLast() {
            // 2^−z is exact, so these products equal the quotients by 2^z.
            let inv = Double(sign: .plus, exponent: -e.z, significand: 1)
            let x0 = Double(e.wrap) + Double(e.x) * inv, x1 = Double(e.wrap) + Double(e.x + 1) * inv
            let y0 = Double(e.y) * inv, y1 = Double(e.y + 1) * inv
            var mask = e.mask
            if mask != 0 {
                guard let m = visibility(x0, y0, x1, y1, mask) else { continue }
                mask = m
            }
            let full = mask == 0
            // Below the pitch threshold every tile asks for the desired zoom (an integer
            // already, so rounding it changes nothing).
            var targetZ = desiredZ
            if variableZoom {
                let dx = max(x0 - cameraX, 0, cameraX - x1), dy = max(y0 - cameraY, 0, cameraY - y1)
                let target = tileZoom(distance2D: (dx * dx + dy * dy).squareRoot())
                targetZ = max(0, Int(options.roundZoom ? target.rounded(.toNearestOrAwayFromZero) : target.rounded(.down)))
            }
            let z = min(targetZ, maxZoom)
            if e.z >= z {
                if e.z < options.minZoom { continue }
                let over = e.z == maxZoom && options.reparseOverscaled ? max(e.z, targetZ) : e.z
                let tile = CameraTile(tile: TileID(unchecked: e.z, x: UInt32(e.x), y: UInt32(e.y)), wrap: e.wrap, overscaledZ: over)
                out.append((tile, distance2((x0 + x1) / 2, (y0 + y1) / 2)))
                continue
            }
            if full && !variableZoom {
                // Wholly inside the footprint, at one target zoom: every descendant at z is
                // in the cover, with nothing left to test.
                if z < options.minZoom { continue }
                let over = z == maxZoom && options.reparseOverscaled ? max(z, targetZ) : z
                let shift = z - e.z
                let invZ = Double(sign: .plus, exponent: -z, significand: 1)
                for ty in (e.y << shift)..<((e.y + 1) << shift) {
                    let my = (Double(ty) + 0.5) * invZ
                    for tx in (e.x << shift)..<((e.x + 1) << shift) {
                        let tile = CameraTile(tile: TileID(unchecked: z, x: UInt32(tx), y: UInt32(ty)), wrap: e.wrap, overscaledZ: over)
                        out.append((tile, distance2(Double(e.wrap) + (Double(tx) + 0.5) * invZ, my)))
                    }
                }
                continue
            }
            for i in 0..<4 {
                stack.append(Entry(z: e.z + 1, x: 2 * e.x + (i & 1), y: 2 * e.y + (i >> 1), wrap: e.wrap, mask: mask))
            }
        }
        return _sortedByDistance(out)
    }
}

/// The first i in lo...hi + 1 where `pred` holds, for a `pred` false then true over
/// lo...hi (hi + 1 counts as true): a galloping search from `guess` (clamped to the range),
/// so a close guess costs a few calls.
@inline(__always)
func _firstTrue(_ lo: Int, _ hi: Int, _ guess: Int, _ pred: (Int) -> Bool) -> Int {
    var good: Int, bad: Int            // pred(good), !pred(bad), bad < good
    let g = min(max(guess, lo), hi + 1)
    if g > hi || pred(g) {
        good = g; bad = lo - 1
        var step = 1
        while good - step >= lo {
            let t = good - step
            if pred(t) { good = t; step &*= 2 } else { bad = t; break }
        }
    } else {
        bad = g; good = hi + 1
        var step = 1
        while bad + step <= hi {
            let t = bad + step
            if pred(t) { good = t; break } else { bad = t; step &*= 2 }
        }
    }
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2
        if pred(mid) { good = mid } else { bad = mid }
    }
    return good
}

/// The tiles of (tile, distance) pairs ordered by distance, then by tile on equal
/// distances.
///
/// Each distance becomes a 24-bit fixed-point key floor(d · 2^k), with 2^k the largest
/// power of two that keeps the largest distance below 2^24: scaling by a power of two is
/// exact and floor is monotone, so the keys order like the distances, up to ties. A stable
/// LSD radix sort (byte digits, all three histograms counted in one read, passes whose digit
/// is the same for every key skipped) orders the keys with no data-dependent branch; an
/// insertion pass with the full comparison then orders the pairs whose keys tie, which are
/// next to each other and few. A comparison sort spent most of its time on mispredicted
/// branches.
func _sortedByDistance(_ pairs: [(tile: CameraTile, d: Double)]) -> [CameraTile] {
    let count = pairs.count
    guard count > 1 else { return pairs.map(\.tile) }
    @inline(__always)
    func less(_ p: (tile: CameraTile, d: Double), _ q: (tile: CameraTile, d: Double)) -> Bool {
        p.d < q.d || (p.d == q.d && p.tile < q.tile)
    }
    var largest = 0.0
    for p in pairs where p.d > largest { largest = p.d }      // NaN never counts
    // 2^k with largest · 2^k < 2^24 (k may be negative); 1 when every distance is 0.
    // (Infinite or subnormal extremes give coarse keys; the insertion pass still orders.)
    let scale = largest > 0 && largest.isFinite ? Double(sign: .plus, exponent: min(23 - largest.exponent, 1000), significand: 1) : 1
    // key = floor(d · 2^k) << 32 | index
    var a = [UInt64](unsafeUninitializedCapacity: count) { buf, n in
        for i in 0..<count {
            let v = pairs[i].d * scale
            let key: UInt64 = v >= 0 && v < 16_777_216 ? UInt64(v) : (v >= 0 ? 0xFF_FFFF : 0)
            buf[i] = key << 32 | UInt64(i)
        }
        n = count
    }
    // Scratch for the passes: every slot is written before it is read.
    var b = [UInt64](unsafeUninitializedCapacity: count) { _, n in n = count }
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 256) { h in
                for i in 0..<(3 * 256) { h[i] = 0 }
                for v in pa {
                    h[Int((v >> 32) & 255)] &+= 1
                    h[256 + Int((v >> 40) & 255)] &+= 1
                    h[512 + Int((v >> 48) & 255)] &+= 1
                }
                var src = pa, dst = pb
                for pass in 0..<3 {
                    let base = 256 * pass, shift = UInt64(32 + 8 * pass)
                    if h[base + Int((src[0] >> shift) & 255)] == count { continue }   // one digit: order kept
                    var sum = 0
                    for i in base..<(base + 256) { let c = h[i]; h[i] = sum; sum &+= c }
                    for v in src {
                        let d = base + Int((v >> shift) & 255)
                        dst[h[d]] = v
                        h[d] &+= 1
                    }
                    swap(&src, &dst)
                }
                if src.baseAddress != pa.baseAddress { for i in 0..<count { pa[i] = src[i] } }
            }
        }
    }
    return pairs.withUnsafeBufferPointer { p in
        [CameraTile](unsafeUninitializedCapacity: count) { out, n in
            a.withUnsafeMutableBufferPointer { k in
                // Insertion pass over the index order with the full comparison, which only
                // runs between equal keys (the keys are in order already).
                var i = 1
                while i < count {
                    let v = k[i]
                    guard k[i - 1] >> 32 == v >> 32 else { i += 1; continue }
                    let pv = p[Int(truncatingIfNeeded: v & 0xFFFF_FFFF)]
                    var j = i
                    while j > 0 && k[j - 1] >> 32 == v >> 32 && less(pv, p[Int(truncatingIfNeeded: k[j - 1] & 0xFFFF_FFFF)]) {
                        k[j] = k[j - 1]
                        j -= 1
                    }
                    k[j] = v
                    i += 1
                }
                for i in 0..<count { (out.baseAddress! + i).initialize(to: p[Int(truncatingIfNeeded: k[i] & 0xFFFF_FFFF)].tile) }
            }
            n = count
        }
    }
}
