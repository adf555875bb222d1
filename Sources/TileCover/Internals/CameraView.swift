#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        try check("zoom", camera.zoom, camera.zoom >= CameraLimits.lowestZoom && camera.zoom <= 30)
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
}
