#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PBF
import TileCover

extension PMTiles {
    /// Whether the regular file at `path` starts with PMTiles' magic number. Only regular
    /// files are sniffed: reading from a pipe would consume bytes its reader needs.
    public static func hasMagic(path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        var magic = [UInt8](repeating: 0, count: 7)
        let n = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 7, 0) }
        return n == 7 && magic == Array("PMTiles".utf8)
    }
}

/// Reads a PMTiles archive from a file with positioned reads; memory holds one directory at
/// a time plus the tile being visited.
public final class PMTilesReader {
    public let header: PMTiles.Header
    public let fileSize: Int
    private let fd: Int32
    public let path: String
    /// Directories decoded by `entry(for:)`, by their byte offset (so `entry(for:)` is for one
    /// thread at a time; the walks and `tileData` may run on several).
    private var directoryCache: [UInt64: [PMTiles.Entry]] = [:]

    /// Opens `path` and reads its header.
    ///
    /// - Parameters:
    ///   - path: the archive's file.
    ///   - checkingCompressions: refuse a header whose compressions are not defined
    ///     (`verify` reports them as findings instead).
    /// - Throws: `PMTiles.Error`: not PMTiles, empty, another version, a header cut short.
    public init(path: String, checkingCompressions: Bool = true) throws(PMTiles.Error) {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io("cannot open \(path)") }
        var st = stat()
        fstat(fd, &st)
        fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: PMTiles.Header.size)
        let got = pread(fd, &head, head.count, 0)
        guard got >= 0 else { close(fd); throw .io("cannot read \(path)") }
        if got == 0 { close(fd); throw .empty }
        do { header = try PMTiles.Header(decoding: Array(head.prefix(got))) } catch { close(fd); throw error }
        for c in [header.internalCompression, header.tileCompression] where checkingCompressions && !(0...4).contains(c) {
            close(fd); throw .unsupportedCompression(c)
        }
    }

    deinit { close(fd) }

    /// Reads `length` bytes at `offset`.
    public func read(offset: UInt64, length: Int, section: String) throws(PMTiles.Error) -> [UInt8] {
        guard offset <= UInt64(fileSize), UInt64(length) <= UInt64(fileSize) - offset else {
            throw .truncated(section: section, offset: offset)
        }
        var b = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let n = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, length - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw .io("read failed at byte \(offset + UInt64(done))") }
            done += n
        }
        return b
    }

    func internalBytes(offset: UInt64, length: UInt64, section: String) throws(PMTiles.Error) -> [UInt8] {
        let raw = try read(offset: offset, length: Int(clamping: length), section: section)
        // 0 (unknown) is read as none, as the reference reader does for directories.
        guard header.internalCompression > 1 else { return raw }
        do { return try ArchiveCompression.decompress(raw, compression: header.internalCompression, limit: 256 << 20) } catch {
            throw .malformedDirectory("\(error)", offset: Int(clamping: offset))
        }
    }

    /// The JSON metadata, decompressed.
    public func metadata() throws(PMTiles.Error) -> [UInt8] {
        try internalBytes(offset: header.metadataOffset, length: header.metadataLength, section: "metadata")
    }

    /// Visits every tile entry in tile-id order, leaf directories included, with run
    /// lengths expanded: `body(tile, entry)` gets each addressed tile's id and its entry
    /// (the bytes are read on demand with `tileData(_:)`). Return false to stop.
    ///
    /// The walk is bounded by the archive's bytes, whatever its directories claim: each leaf
    /// directory is read at most once (a second reference, or a cycle, is malformed), tile
    /// ids must increase from entry to entry (the spec's order), and the tiles addressed
    /// may not exceed the header's `addressed_tiles` when it gives one, nor
    /// `maxTilesPerByte` per byte of the file. Every offset sum is checked for overflow.
    ///
    /// - Throws: `PMTiles.Error` for a malformed or truncated directory, or an archive
    ///   that breaks one of those bounds; or what `body` throws.
    public func forEachEntry(_ body: (TileID, PMTiles.Entry) throws -> Bool) throws {
        try walkRoot(expandingRuns: true, body)
    }

    /// Visits every tile entry (not every tile: a run is one call, with its first tile) in
    /// tile-id order, leaf directories included, under the bounds of `forEachEntry`.
    public func forEachTileEntry(_ body: (TileID, PMTiles.Entry) throws -> Bool) throws {
        try walkRoot(expandingRuns: false, body)
    }

    private func walkRoot(expandingRuns: Bool, _ body: (TileID, PMTiles.Entry) throws -> Bool) throws {
        let root = try internalBytes(offset: header.rootOffset, length: header.rootLength, section: "root directory")
        // Expanding runs costs a call per tile, so the tiles walked are bounded by the
        // header and the file's size; a walk of entries costs one call per entry, bounded by
        // the directory bytes already, and takes any run length.
        let perFile = UInt64(max(fileSize, 1)).multipliedReportingOverflow(by: Self.maxTilesPerByte)
        var state = WalkState(budget: !expandingRuns ? .max : min(header.addressedTiles == 0 ? .max : header.addressedTiles,
                                                                   perFile.overflow ? .max : perFile.partialValue))
        state.expandRuns = expandingRuns
        _ = try walk(PMTiles.decodeDirectory(root, base: Int(clamping: header.rootOffset)), depth: 0, &state, body)
    }

    /// The most tiles an archive may address per byte of its file (a run length may address
    /// many tiles with one entry, but not without bound: an 843-byte archive claiming 2^32
    /// tiles is refused rather than walked for hours).
    public static let maxTilesPerByte: UInt64 = 1 << 16

    struct WalkState {
        var budget: UInt64
        var addressed: UInt64 = 0
        /// The first tile id the next entry may have.
        var nextID: UInt64 = 0
        var leaves: Set<UInt64> = []
        var expandRuns = true
    }

    private func walk(_ entries: [PMTiles.Entry], depth: Int, _ state: inout WalkState,
                      _ body: (TileID, PMTiles.Entry) throws -> Bool) throws -> Bool {
        guard depth < 8 else { throw PMTiles.Error.malformedDirectory("leaf directories nest deeper than 8", offset: 0, rule: "PM17") }
        for e in entries {
            let (entryOffset, over) = (e.runLength == 0 ? header.leafOffset : header.dataOffset).addingReportingOverflow(e.offset)
            guard !over else {
                throw PMTiles.Error.malformedDirectory("entry for tile id \(e.tileID): offset \(e.offset) overflows", offset: 0, rule: "PM15")
            }
            if e.runLength == 0 {
                guard state.leaves.insert(entryOffset).inserted else {
                    throw PMTiles.Error.malformedDirectory("the leaf directory at byte \(entryOffset) is referenced twice", offset: Int(clamping: entryOffset),
                                                           rule: "PM15")
                }
                guard e.tileID >= state.nextID else {
                    throw PMTiles.Error.malformedDirectory("the leaf directory of tile id \(e.tileID) comes after tile id \(state.nextID) (leaf directories must be in tile id order)", offset: 0, rule: "PM17")
                }
                // A leaf's entries start at the tile id its entry gives (PM15, PM16).
                state.nextID = e.tileID
                let leaf = try internalBytes(offset: entryOffset, length: e.length, section: "leaf directory")
                if try !walk(PMTiles.decodeDirectory(leaf, base: Int(clamping: entryOffset)), depth: depth + 1, &state, body) { return false }
                continue
            }
            guard e.tileID >= state.nextID else {
                throw PMTiles.Error.malformedDirectory("tile id \(e.tileID) comes before \(state.nextID) (entries must be in tile id order, runs must not overlap)", offset: 0, rule: "PM16")
            }
            let (end, endOver) = e.tileID.addingReportingOverflow(e.runLength)
            guard !endOver, end - 1 <= PMTiles.maxTileID else {
                throw PMTiles.Error.malformedDirectory("tile ids \(e.tileID)+\(e.runLength) go beyond z30", offset: 0, rule: "PM10")
            }
            let (addressed, countOver) = state.addressed.addingReportingOverflow(e.runLength)
            state.addressed = addressed
            guard !countOver, addressed <= state.budget else {
                throw PMTiles.Error.malformedDirectory("the directories address more than \(state.budget) tiles (the header's addressed_tiles, "
                    + "or \(Self.maxTilesPerByte) per byte of a \(fileSize)-byte file)", offset: 0, rule: "PM6")
            }
            state.nextID = end
            if !state.expandRuns {
                guard let first = PMTiles.tile(id: e.tileID) else {
                    throw PMTiles.Error.malformedDirectory("tile id \(e.tileID) is beyond z30", offset: 0, rule: "PM10")
                }
                if try !body(first, e) { return false }
                continue
            }
            for k in 0..<e.runLength {
                guard let t = PMTiles.tile(id: e.tileID + k) else {
                    throw PMTiles.Error.malformedDirectory("tile id \(e.tileID + k) is beyond z30", offset: 0, rule: "PM10")
                }
                if try !body(t, e) { return false }
            }
        }
        return true
    }

    /// The entry that addresses tile `t` (directly or through a run), nil when the archive
    /// does not have it: a search of the root directory, then of at most a few leaf
    /// directories down (depth 8 at most, as the walk).
    ///
    /// - Throws: `PMTiles.Error` for a malformed or truncated directory on the way.
    public func entry(for t: TileID) throws(PMTiles.Error) -> PMTiles.Entry? {
        let id = PMTiles.tileID(z: Int(t.z), x: t.x, y: t.y)
        var entries = try directory(at: header.rootOffset, length: header.rootLength, section: "root directory")
        for _ in 0..<8 {
            // The last entry whose first tile id is at or before the one asked for.
            var lo = 0, hi = entries.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if entries[mid].tileID <= id { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return nil }
            let e = entries[lo - 1]
            if e.runLength > 0 {
                let (end, over) = e.tileID.addingReportingOverflow(e.runLength)
                return !over && id < end ? e : nil
            }
            let (offset, over) = header.leafOffset.addingReportingOverflow(e.offset)
            guard !over else { throw .malformedDirectory("leaf offset \(e.offset) overflows", offset: 0) }
            entries = try directory(at: offset, length: e.length, section: "leaf directory")
        }
        throw .malformedDirectory("leaf directories nest deeper than 8", offset: 0, rule: "PM17")
    }

    /// A directory decoded, from the cache of the last directories looked up (at most 64,
    /// so lookups of nearby tiles decode each directory once).
    func directory(at offset: UInt64, length: UInt64, section: String) throws(PMTiles.Error) -> [PMTiles.Entry] {
        if let d = directoryCache[offset] { return d }
        let d = try PMTiles.decodeDirectory(try internalBytes(offset: offset, length: length, section: section), base: Int(clamping: offset))
        if directoryCache.count >= 64 { directoryCache.removeAll(keepingCapacity: true) }
        directoryCache[offset] = d
        return d
    }

    /// A tile's bytes decompressed as the header's tile compression says (gzip, brotli or
    /// zstd; at most `limit` bytes).
    ///
    /// - Throws: `ArchiveCompression.Error` for a tile that does not decompress.
    public func decodedTile(_ stored: [UInt8], limit: Int = 64 << 20) throws(ArchiveCompression.Error) -> [UInt8] {
        header.tileCompression > 1
            ? try ArchiveCompression.decompress(stored, compression: header.tileCompression, limit: limit) : stored
    }

    /// A tile's stored bytes (still compressed when the archive's tiles are).
    public func tileData(_ e: PMTiles.Entry) throws(PMTiles.Error) -> [UInt8] {
        let (offset, over) = header.dataOffset.addingReportingOverflow(e.offset)
        guard !over else { throw .truncated(section: "tile data", offset: header.dataOffset) }
        return try read(offset: offset, length: Int(clamping: e.length), section: "tile data")
    }
}
