/// A tile layer run over a list of cameras: at each update the tiles the camera shows are
/// asked of a `TileLayerLoader`, whose source answers through `answer`; the per-update
/// figures, their totals and the cache's peak are kept, and written as the CSV and summary
/// lines `graticule tiles load` prints.
public struct TileLayerSimulation {
    /// The updates, one per camera.
    public private(set) var updates: [TileLayerLoader.Update] = []
    /// The sums of every update's counts (`cachedTiles` and `cachedBytes` are the peaks).
    public private(set) var total = TileLayerLoader.Update()
    /// How many updates cleared the cache first.
    public private(set) var clears = 0

    /// Runs `cameras` through a layer with `capacity`: update `k` clears the cache first when
    /// `clearAt` holds `k`; each tile that is not cached is asked of `answer` (the tile,
    /// "no tile", or "not available"), which may stop the run by throwing.
    ///
    /// - Throws: what `CameraCoverage.tiles(for:options:)` throws for a camera (wrapped with
    ///   its update in `Failure.camera`), or what `answer` throws (`Failure.source`).
    public init(cameras: [Camera], options: CameraCoverOptions, capacity: TileLayerLoader.Capacity,
                clearAt: Set<Int> = [], answer: (TileID, Int) throws -> TileLayerLoader.Answer) throws(Failure) {
        var layer = TileLayerLoader(capacity: capacity)
        updates.reserveCapacity(cameras.count)
        for (k, camera) in cameras.enumerated() {
            let needed: [CameraTile]
            do { needed = try CameraCoverage.tiles(for: camera, options: options) } catch { throw .camera(update: k, error) }
            let u: TileLayerLoader.Update
            do { u = try layer.update(needed.map(\.tile), clear: clearAt.contains(k)) { t in try answer(t, k) } } catch {
                throw .source(update: k, "\(error)")
            }
            updates.append(u)
            total.inView += u.inView
            total.fromCache += u.fromCache
            total.requested += u.requested
            total.loaded += u.loaded
            total.loadedBytes += u.loadedBytes
            total.noTile += u.noTile
            total.knownAbsent += u.knownAbsent
            total.unavailable += u.unavailable
            total.evicted += u.evicted
            total.cachedTiles = max(total.cachedTiles, u.cachedTiles)
            total.cachedBytes = max(total.cachedBytes, u.cachedBytes)
            if u.cleared { clears += 1 }
        }
    }

    /// Why a run stopped.
    public enum Failure: Error, CustomStringConvertible {
        /// The camera of this update is one the camera cover refuses.
        case camera(update: Int, CameraError)
        /// The source failed to answer during this update.
        case source(update: Int, String)

        public var description: String {
            switch self {
            case .camera(let k, let e): return "update \(k): \(e)"
            case .source(let k, let e): return "update \(k): \(e)"
            }
        }
    }

    /// The report's header line.
    public static let csvHeader =
        "update,cleared,in_view,from_cache,requested,loaded,loaded_bytes,no_tile,known_absent,unavailable,evicted,cache_tiles,cache_bytes"

    /// The report: the header, then one row per update.
    public var csv: String {
        var out = Self.csvHeader + "\n"
        for (k, u) in updates.enumerated() {
            out += "\(k),\(u.cleared),\(u.inView),\(u.fromCache),\(u.requested),\(u.loaded),\(u.loadedBytes),\(u.noTile),"
                + "\(u.knownAbsent),\(u.unavailable),\(u.evicted),\(u.cachedTiles),\(u.cachedBytes)\n"
        }
        return out
    }

    /// The totals as three lines: tiles in view and from the cache; what was requested and
    /// how the source answered; what was not asked again, evicted, and the cache's peak.
    public var totalLines: [String] {
        ["tiles in view: \(total.inView) over all updates; from the cache: \(total.fromCache)",
         "requested: \(total.requested) = loaded \(total.loaded) (\(total.loadedBytes) bytes) + no tile \(total.noTile) + not available \(total.unavailable)",
         "not requested again after \"no tile\": \(total.knownAbsent); evicted: \(total.evicted); cache at most \(total.cachedTiles) tiles, \(total.cachedBytes) bytes"]
    }
}
