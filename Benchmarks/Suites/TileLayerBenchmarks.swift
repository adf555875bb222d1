import BenchKit
import Foundation
import GPX
import TileArchive
import TileCover

/// `tiles.load`: a tile layer loading tiles from a PMTiles archive as a camera follows a
/// generated drive (navigation mode, z15, a 390×844 phone view at pitch 60°), with a
/// 64-tile LRU cache cleared half way (`graticule tiles load`). The archive is written in
/// setup with every tile the drive shows but one in ten (those answer "no tile"); the
/// covers are computed in setup too, so the timing is the layer's: cache lookups,
/// evictions, and each request's directory search in the archive. Items = updates.
enum TileLayerBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "gpx" {
            suite.add("tiles.load", implementation: "graticule", dataset: d,
                      parameters: ["zoom": "15", "pitch": "60", "cache_tiles": "64", "source": "pmtiles"]) { d in
                let views = try covers(d)
                let lookup = try archive(for: views)
                let clearAt = views.count / 2
                func simulate(_ answer: (TileID) throws -> TileLayerLoader.Answer) rethrows -> Int {
                    var layer = TileLayerLoader(capacity: .init(tiles: 64))
                    var requested = 0
                    for (k, tiles) in views.enumerated() {
                        let u = try layer.update(tiles, clear: k == clearAt, source: answer)
                        guard u.cachedTiles <= 64, u.requested == u.loaded + u.noTile + u.unavailable else { return -1 }
                        requested &+= u.requested
                    }
                    return requested
                }
                // Set-up pass: the lookups must not fail, and every update must balance.
                let expected = try simulate { t in try lookup.size(of: t).map { .tile(bytes: $0) } ?? .noTile }
                guard expected > 0 else { throw Unbalanced() }
                return Workload { n in
                    for _ in 0..<n {
                        blackHole(simulate { t in ((try? lookup.size(of: t)) ?? nil).map { .tile(bytes: $0) } ?? .noTile })
                    }
                }
            }
        }
    }

    struct Unbalanced: Error, CustomStringConvertible {
        var description: String { "tiles.load: an update's requests do not add up, or the cache outgrew its bound" }
    }

    struct NoRoute: Error {}

    /// The source tiles in view at each update of the drive.
    static func covers(_ d: Dataset) throws -> [[TileID]] {
        guard let route = try GPXReader.read(try d.bytes()).firstPath else { throw NoRoute() }
        let template = Camera(longitude: route[0].longitude, latitude: route[0].latitude, zoom: 15, pitch: 60, width: 390, height: 844)
        let follower = try RouteFollower(route: route, template: template, mode: .navigation(heightFactor: 0.125))
        var views: [[TileID]] = []
        follower.run { u in views.append((try? CameraCoverage.tiles(for: u.camera))?.map(\.tile) ?? []) }
        return views
    }

    /// A PMTiles archive of every tile in `views` but those with (x + y) % 10 == 0, each of
    /// 64–127 bytes, in the run's scratch folder; the file is removed once open (the reader
    /// keeps its descriptor).
    static func archive(for views: [[TileID]]) throws -> TileSizeLookup {
        let tiles = Set(views.joined()).filter { ($0.x + $0.y) % 10 != 0 }
            .sorted { PMTiles.tileID(z: Int($0.z), x: $0.x, y: $0.y) < PMTiles.tileID(z: Int($1.z), x: $1.x, y: $1.y) }
        // The run's scratch folder (unique to this run, under $TMPDIR), made here if missing.
        let dir = RunConfiguration().scratchDirectory
        try ScratchFolder.make(dir)
        let path = dir + "/tiles-load-\(UInt64.random(in: 0 ... .max)).pmtiles"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try PMTilesWriter(path: path, tileCompression: .none, minZoom: 0, maxZoom: 22)
        for t in tiles { try w.add(t, data: [UInt8](repeating: UInt8(t.x & 0xFF), count: 64 + Int(t.x % 64))) }
        try w.finish(metadataJSON: #"{"name":"tiles.load","vector_layers":[]}"#)
        return try TileSizeLookup(path: path)
    }
}
