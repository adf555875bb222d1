import GeoModel
import TileCover
import Workloads

/// A deliberately wrong tile cover: right at every zoom but 12, where each geometry's cover
/// leaves out its greatest tile (the southernmost of its easternmost column). The runner must report it `wrong`.
struct OneTileShortCover: TileCovering {
    func tiles(for geometry: Geometry, zoom: Int) throws -> [TileID] {
        var tiles = TileCoverage.tiles(for: geometry, zoom: zoom)
        if zoom == 12, let last = tiles.max() { tiles.removeAll { $0 == last } }
        return tiles
    }
}
