#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    ///   a zoom outside −1...30 (−1 is Google's zoom 0), a viewport side ≤ 0, a field of view outside (0, 180), a
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
