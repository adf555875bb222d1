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
        try profilePartsInParallel(ranges.count, progress: progress) { i, part, tick in
            try part.addPMTilesTiles(try PMTilesReader(path: path), ids: ranges[i], validate: validate) { _ in tick() }
        }
    }

    /// Profiles an MBTiles archive with `jobs` threads over consecutive row ranges
    /// (`MBTilesReader.parts(_:)`, in the order one pass reads), merged in order: exactly
    /// the figures of one pass. An archive whose rows have no order that can be cut
    /// (`RowOrder.unordered`) is read by one thread.
    mutating func profileMBTilesInParallel(_ path: String, reader r: MBTilesReader, validate: Bool, jobs: Int,
                                           progress: (Int) -> Void) throws {
        let ranges = try r.parts(jobs)
        try profilePartsInParallel(ranges.count, progress: progress) { i, part, tick in
            try part.addMBTilesTiles(try MBTilesReader(path: path), range: ranges[i], validate: validate) { tick() }
        }
    }

    /// Runs `profilePart` for parts 0..<count on as many threads, each into a profile of
    /// its own, and merges the profiles in part order (`merge(_:)`). `tick` counts one
    /// item (a tile or a feature) for `progress`, which gets the items done so far, from one
    /// thread at a time.
    /// The first part (in order) that failed fails the run with its error, the error one
    /// pass would have stopped at.
    mutating func profilePartsInParallel(_ count: Int, progress: (Int) -> Void,
                                             _ profilePart: @Sendable (Int, inout DatasetProfile, () -> Void) throws -> Void) throws {
        let (zoom, keep) = (self.zoom, self.keep)
        let results = withoutActuallyEscaping(progress) { progress in
            withoutActuallyEscaping(profilePart) { profilePart in
                let parts = _ProfileParts<DatasetProfile>(count: count, progress: progress)
                DispatchQueue.concurrentPerform(iterations: count) { i in
                    var part = DatasetProfile(zoom: zoom, keep: keep)
                    var n = 0
                    parts.set(i, Result {
                        try profilePart(i, &part) {
                            n += 1
                            if n & 1023 == 0 { parts.done(1024) }
                        }
                        return part
                    })
                }
                return parts.results
            }
        }
        for result in results {
            let part = try result.get()
            merge(part)
            sourceBytes += part.sourceBytes      // a folder's parts count the bytes they read
        }
    }
}

extension DatasetProfile {
    /// `parts` consecutive tile-id ranges covering every tile entry of `r`, holding about
    /// as many tiles each (a range starts at the first entry after its share), from two
    /// walks of the directories: the tile count, then the cut points. Fewer entries than
    /// parts give empty ranges at the end; the cut depends only on the archive.
    static func pmtilesRanges(_ r: PMTilesReader, parts: Int) throws -> [Range<UInt64>] {
        let total = try addressedTiles(r)
        var cuts: [UInt64] = []
        var seen: UInt64 = 0
        try r.forEachTileEntry { _, e in
            if cuts.count < parts - 1, seen > 0, seen >= total / UInt64(parts) * UInt64(cuts.count + 1) {
                cuts.append(e.tileID)
            }
            seen &+= e.runLength
            return true
        }
        while cuts.count < parts - 1 { cuts.append(UInt64.max) }
        let bounds = [0] + cuts + [UInt64.max]
        return (0..<parts).map { bounds[$0]..<bounds[$0 + 1] }
    }
}

/// The profiles of the ranges, filled from several threads, and the shared count of items
/// (tiles or bytes) reported to the caller's progress under the same lock.
final class _ProfileParts<Part>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Part, Error>?]
    private var tilesDone = 0
    private let progress: (Int) -> Void

    init(count: Int, progress: @escaping (Int) -> Void) {
        slots = Array(repeating: nil, count: count)
        self.progress = progress
    }

    func set(_ i: Int, _ r: Result<Part, Error>) { lock.lock(); slots[i] = r; lock.unlock() }

    func done(_ n: Int) {
        lock.lock()
        tilesDone += n
        progress(tilesDone)
        lock.unlock()
    }

    var results: [Result<Part, Error>] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}
