import Foundation
import TileArchive
import TileCover

extension DatasetProfile {
    /// Profiles the tiles of a PMTiles archive with `jobs` threads: the tile entries are
    /// cut into `jobs` consecutive tile-id ranges holding about as many tiles each, every
    /// range is profiled by its own reader into its own profile, and the profiles are
    /// merged in range order, which gives exactly the figures of one pass
    /// (`merge(_:)`). `progress` gets the tiles done so far, from one thread at a time.
    ///
    /// The ranges come from two walks of the directories (the tile count, then the cut
    /// points), which also meet any malformed directory before a tile is read, as one pass
    /// would. A tile that cannot be read fails the run with the error of the earliest
    /// range that met one, the error one pass would have stopped at.
    mutating func profilePMTilesInParallel(_ path: String, reader r: PMTilesReader, validate: Bool, jobs: Int,
                                           progress: (Int) -> Void) throws {
        let ranges = try Self.pmtilesRanges(r, parts: jobs)
        let (zoom, keep) = (self.zoom, self.keep)
        let results = withoutActuallyEscaping(progress) { progress in
            let parts = _ProfileParts(count: ranges.count, progress: progress)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
                var part = DatasetProfile(zoom: zoom, keep: keep)
                do {
                    let reader = try PMTilesReader(path: path)
                    var n = 0
                    try part.addPMTilesTiles(reader, ids: ranges[i], validate: validate) { _ in
                        n += 1
                        if n & 1023 == 0 { parts.done(1024) }
                    }
                    parts.set(i, .success(part))
                } catch {
                    parts.set(i, .failure(error))
                }
            }
            return parts.results
        }
        for result in results {
            switch result {
            case .success(let p): merge(p)
            case .failure(let e): throw e
            }
        }
    }
}

extension DatasetProfile {
    /// `parts` consecutive tile-id ranges covering every tile entry of `r`, holding about
    /// as many tiles each (a range starts at the first entry after its share), from two
    /// walks of the directories: the tile count, then the cut points. Fewer entries than
    /// parts give empty ranges at the end; the cut depends only on the archive.
    static func pmtilesRanges(_ r: PMTilesReader, parts: Int) throws -> [Range<UInt64>] {
        var total: UInt64 = 0
        try r.forEachTileEntry { _, e in
            total += UInt64(e.runLength)
            return true
        }
        var cuts: [UInt64] = []
        var seen: UInt64 = 0
        try r.forEachTileEntry { _, e in
            if cuts.count < parts - 1, seen > 0, seen >= total / UInt64(parts) * UInt64(cuts.count + 1) {
                cuts.append(e.tileID)
            }
            seen += UInt64(e.runLength)
            return true
        }
        while cuts.count < parts - 1 { cuts.append(UInt64.max) }
        let bounds = [0] + cuts + [UInt64.max]
        return (0..<parts).map { bounds[$0]..<bounds[$0 + 1] }
    }
}

/// The profiles of the ranges, filled from several threads, and the shared tile count
/// reported to the caller's progress under the same lock.
private final class _ProfileParts: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<DatasetProfile, Error>?]
    private var tilesDone = 0
    private let progress: (Int) -> Void

    init(count: Int, progress: @escaping (Int) -> Void) {
        slots = Array(repeating: nil, count: count)
        self.progress = progress
    }

    func set(_ i: Int, _ r: Result<DatasetProfile, Error>) { lock.lock(); slots[i] = r; lock.unlock() }

    func done(_ n: Int) {
        lock.lock()
        tilesDone += n
        progress(tilesDone)
        lock.unlock()
    }

    var results: [Result<DatasetProfile, Error>] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}
