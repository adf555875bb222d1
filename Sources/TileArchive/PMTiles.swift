#if canImport(Glibc)
import Glibc
#endif
import PBF
import TileCover

/// PMTiles version 3 archives (protomaps/PMTiles `spec/v3/spec.md`): a 127-byte header, a
/// root directory in the first 16 KiB, JSON metadata, leaf directories and tile data.
/// Directory entries are addressed by the Hilbert tile id, delta-coded and stored as
/// columns of varints.
public enum PMTiles {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notPMTiles
        case unsupportedVersion(UInt8)
        case unsupportedCompression(UInt8)
        case truncated(section: String, offset: Int)
        case malformedDirectory(String, offset: Int)
        case io(String)
        public var description: String {
            switch self {
            case .notPMTiles: return "not a PMTiles archive (no PMTiles magic)"
            case .unsupportedVersion(let v): return "PMTiles version \(v) is not supported (only 3)"
            case .unsupportedCompression(let c): return "PMTiles compression \(c) is not supported (none, gzip, brotli and zstd are)"
            case .truncated(let s, let o): return "PMTiles \(s) runs past the end of the file (at byte \(o))"
            case .malformedDirectory(let m, let o): return "PMTiles directory at byte \(o): \(m)"
            case .io(let m): return "PMTiles: \(m)"
            }
        }
    }

    /// Compression values of the header.
    public enum Compression: UInt8, Sendable { case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4 }

    /// Tile type values of the header (PMTiles v3 §3.1).
    public enum TileType: UInt8, Sendable { case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5 }

    /// A header compression byte by its name (`gzip`), or `unknown (9)` for a value the
    /// specification does not define.
    public static func compressionName(_ value: UInt8) -> String {
        Compression(rawValue: value).map { "\($0)" + ($0 == .unknown ? " (0)" : "") } ?? "undefined (\(value))"
    }

    /// A header tile type byte by its name (`mvt`, `png`), or `undefined (9)`.
    public static func tileTypeName(_ value: UInt8) -> String {
        TileType(rawValue: value).map { "\($0)" + ($0 == .unknown ? " (0)" : "") } ?? "undefined (\(value))"
    }

    public struct Header: Equatable, Sendable {
        public var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
        public var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        public var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        public var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        public var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
        public var clustered = false
        public var internalCompression: UInt8 = 1, tileCompression: UInt8 = 1, tileType: UInt8 = 1
        public var minZoom: UInt8 = 0, maxZoom: UInt8 = 0
        public var minLonE7: Int32 = -1_800_000_000, minLatE7: Int32 = -850_511_287
        public var maxLonE7: Int32 = 1_800_000_000, maxLatE7: Int32 = 850_511_287
        public var centerZoom: UInt8 = 0, centerLonE7: Int32 = 0, centerLatE7: Int32 = 0
        public init() {}

        public static let size = 127

        public func encoded() -> [UInt8] {
            var b = Array("PMTiles".utf8) + [3]
            func u64(_ v: UInt64) { for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
            func i32(_ v: Int32) { let u = UInt32(bitPattern: v); for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: u >> (8 * i))) } }
            for v in [rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, dataOffset, dataLength,
                      addressedTiles, tileEntries, tileContents] { u64(v) }
            b += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
            i32(minLonE7); i32(minLatE7); i32(maxLonE7); i32(maxLatE7)
            b.append(centerZoom); i32(centerLonE7); i32(centerLatE7)
            return b
        }

        public init(decoding b: [UInt8]) throws(Error) {
            guard b.count >= Self.size, Array(b[0..<7]) == Array("PMTiles".utf8) else { throw .notPMTiles }
            guard b[7] == 3 else { throw .unsupportedVersion(b[7]) }
            func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
            func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }) }
            rootOffset = u64(8); rootLength = u64(16); metadataOffset = u64(24); metadataLength = u64(32)
            leafOffset = u64(40); leafLength = u64(48); dataOffset = u64(56); dataLength = u64(64)
            addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
            clustered = b[96] == 1; internalCompression = b[97]; tileCompression = b[98]; tileType = b[99]
            minZoom = b[100]; maxZoom = b[101]
            minLonE7 = i32(102); minLatE7 = i32(106); maxLonE7 = i32(110); maxLatE7 = i32(114)
            centerZoom = b[118]; centerLonE7 = i32(119); centerLatE7 = i32(123)
        }
    }

    /// A directory entry: `runLength` 0 points at a leaf directory.
    public struct Entry: Equatable, Sendable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32
        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }

    // MARK: Hilbert tile ids

    /// The tile id of z/x/y: the tiles of every lower zoom, then the position on zoom z's
    /// Hilbert curve.
    public static func tileID(z: Int, x: UInt32, y: UInt32) -> UInt64 {
        var base: UInt64 = 0
        for i in 0..<z { base += UInt64(1) << UInt64(2 * i) }
        var d: UInt64 = 0
        var px = UInt64(x), py = UInt64(y)
        var s = UInt64(1) << UInt64(max(z, 1) - 1)
        if z == 0 { return 0 }
        while s > 0 {
            let rx: UInt64 = (px & s) != 0 ? 1 : 0
            let ry: UInt64 = (py & s) != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { px = s &* 2 &- 1 &- px; py = s &* 2 &- 1 &- py }
                swap(&px, &py)
            }
            s >>= 1
        }
        return base + d
    }

    /// z/x/y of a tile id (nil beyond z30).
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

    /// The largest tile id, the last tile of z30: (4^31 − 1) / 3 − 1.
    public static let maxTileID: UInt64 = ((1 << 62) - 1) / 3 - 1

    public static func tile(id: UInt64) -> TileID? {
        var z = 0
        var base: UInt64 = 0
        while true {
            guard z <= Int(TileCover.TileID.maxZoom) else { return nil }
            let count = UInt64(1) << UInt64(2 * z)
            if id < base + count { break }
            base += count
            z += 1
        }
        var d = id - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (d / 2)
            let ry = 1 & (d ^ rx)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            d /= 4
            s *= 2
        }
        return TileCover.TileID(z: z, x: Int(x), y: Int(y))
    }

    // MARK: Directories

    public static func encodeDirectory(_ entries: [Entry]) -> [UInt8] {
        var w = PBFWriter()
        w.writeVarint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { w.writeVarint(e.tileID - last); last = e.tileID }
        for e in entries { w.writeVarint(UInt64(e.runLength)) }
        for e in entries { w.writeVarint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) { w.writeVarint(0) }
            else { w.writeVarint(e.offset + 1) }
        }
        return w.bytes
    }

    /// Decodes a directory; `base` is its byte offset in the archive, for error messages.
    public static func decodeDirectory(_ bytes: [UInt8], base: Int = 0) throws(Error) -> [Entry] {
        do {
            return try bytes.withUnsafeBytes { raw throws(PBFError) -> [Entry] in
                var r = PBFReader(bytes: raw)
                let n = try r.readVarint()
                // Each entry takes at least four bytes: a count beyond that is a lie.
                guard n > 0, n <= UInt64(raw.count) else { throw PBFError.truncated(offset: 0) }
                var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(n))
                var id: UInt64 = 0
                for i in 0..<Int(n) { id = id &+ (try r.readVarint()); entries[i].tileID = id }
                for i in 0..<Int(n) { entries[i].runLength = UInt32(truncatingIfNeeded: try r.readVarint()) }
                for i in 0..<Int(n) { entries[i].length = UInt32(truncatingIfNeeded: try r.readVarint()) }
                for i in 0..<Int(n) {
                    let v = try r.readVarint()
                    if v == 0 {
                        guard i > 0 else { throw PBFError.truncated(offset: r.offset) }
                        let (next, over) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                        guard !over else { throw PBFError.truncated(offset: r.offset) }
                        entries[i].offset = next
                    } else {
                        entries[i].offset = v - 1
                    }
                }
                return entries
            }
        } catch {
            throw .malformedDirectory("\(error)", offset: base)
        }
    }
}

/// Reads a PMTiles archive from a file with positioned reads; memory holds one directory at
/// a time plus the tile being visited.
public final class PMTilesReader {
    public let header: PMTiles.Header
    public let fileSize: Int
    private let fd: Int32
    public let path: String

    public init(path: String) throws(PMTiles.Error) {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io("cannot open \(path)") }
        var st = stat()
        fstat(fd, &st)
        fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: PMTiles.Header.size)
        guard pread(fd, &head, head.count, 0) == head.count else { close(fd); throw .notPMTiles }
        do { header = try PMTiles.Header(decoding: head) } catch { close(fd); throw error }
        for c in [header.internalCompression, header.tileCompression] where !(0...4).contains(c) {
            close(fd); throw .unsupportedCompression(c)
        }
    }

    deinit { close(fd) }

    /// Reads `length` bytes at `offset`.
    public func read(offset: UInt64, length: Int, section: String) throws(PMTiles.Error) -> [UInt8] {
        guard offset <= UInt64(fileSize), UInt64(length) <= UInt64(fileSize) - offset else {
            throw .truncated(section: section, offset: Int(clamping: offset))
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
        let perFile = UInt64(max(fileSize, 1)).multipliedReportingOverflow(by: Self.maxTilesPerByte)
        var state = WalkState(budget: min(header.addressedTiles == 0 ? .max : header.addressedTiles,
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
        guard depth < 8 else { throw PMTiles.Error.malformedDirectory("leaf directories nest deeper than 8", offset: 0) }
        for e in entries {
            let (entryOffset, over) = (e.runLength == 0 ? header.leafOffset : header.dataOffset).addingReportingOverflow(e.offset)
            guard !over else {
                throw PMTiles.Error.malformedDirectory("entry for tile id \(e.tileID): offset \(e.offset) overflows", offset: 0)
            }
            if e.runLength == 0 {
                guard state.leaves.insert(entryOffset).inserted else {
                    throw PMTiles.Error.malformedDirectory("the leaf directory at byte \(entryOffset) is referenced twice", offset: Int(clamping: entryOffset))
                }
                guard e.tileID >= state.nextID else {
                    throw PMTiles.Error.malformedDirectory("tile id \(e.tileID) comes after \(state.nextID) (entries must be in tile id order)", offset: 0)
                }
                let leaf = try internalBytes(offset: entryOffset, length: UInt64(e.length), section: "leaf directory")
                if try !walk(PMTiles.decodeDirectory(leaf, base: Int(clamping: entryOffset)), depth: depth + 1, &state, body) { return false }
                continue
            }
            guard e.tileID >= state.nextID else {
                throw PMTiles.Error.malformedDirectory("tile id \(e.tileID) comes before \(state.nextID) (entries must be in tile id order, runs must not overlap)", offset: 0)
            }
            let (end, endOver) = e.tileID.addingReportingOverflow(UInt64(e.runLength))
            guard !endOver, end - 1 <= PMTiles.maxTileID else {
                throw PMTiles.Error.malformedDirectory("tile ids \(e.tileID)+\(e.runLength) go beyond z30", offset: 0)
            }
            let (addressed, countOver) = state.addressed.addingReportingOverflow(UInt64(e.runLength))
            state.addressed = addressed
            guard !countOver, addressed <= state.budget else {
                throw PMTiles.Error.malformedDirectory("the directories address more than \(state.budget) tiles (the header's addressed_tiles, "
                    + "or \(Self.maxTilesPerByte) per byte of a \(fileSize)-byte file)", offset: 0)
            }
            state.nextID = end
            if !state.expandRuns {
                guard let first = PMTiles.tile(id: e.tileID) else {
                    throw PMTiles.Error.malformedDirectory("tile id \(e.tileID) is beyond z30", offset: 0)
                }
                if try !body(first, e) { return false }
                continue
            }
            for k in 0..<UInt64(e.runLength) {
                guard let t = PMTiles.tile(id: e.tileID + k) else {
                    throw PMTiles.Error.malformedDirectory("tile id \(e.tileID + k) is beyond z30", offset: 0)
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
        var entries = try PMTiles.decodeDirectory(try internalBytes(offset: header.rootOffset, length: header.rootLength,
                                                                      section: "root directory"),
                                                  base: Int(clamping: header.rootOffset))
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
                let (end, over) = e.tileID.addingReportingOverflow(UInt64(e.runLength))
                return !over && id < end ? e : nil
            }
            let (offset, over) = header.leafOffset.addingReportingOverflow(e.offset)
            guard !over else { throw .malformedDirectory("leaf offset \(e.offset) overflows", offset: 0) }
            entries = try PMTiles.decodeDirectory(try internalBytes(offset: offset, length: UInt64(e.length), section: "leaf directory"),
                                                  base: Int(clamping: offset))
        }
        throw .malformedDirectory("leaf directories nest deeper than 8", offset: 0)
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
        guard !over else { throw .truncated(section: "tile data", offset: Int(clamping: header.dataOffset)) }
        return try read(offset: offset, length: Int(e.length), section: "tile data")
    }
}

/// Writes a PMTiles v3 archive in one pass: tiles are appended to the data section as they
/// come (any order; identical consecutive tile ids are not allowed), then the directories
/// are written after the data and the header and root directory go into the first 16 KiB.
/// Memory: 24 bytes per tile entry.
public final class PMTilesWriter {
    private let fd: Int32
    private var entries: [PMTiles.Entry] = []
    private var dataLength: UInt64 = 0
    private let reserved = 16_384
    public var header = PMTiles.Header()
    public let path: String
    /// Entries per leaf directory.
    public var leafSize = 4096

    /// - Parameters:
    ///   - path: the archive to write (created or replaced).
    ///   - tileCompression: what the tiles given to `add` are compressed with (they are
    ///     stored as given); directories and metadata are written gzip-compressed.
    ///   - minZoom: the header's min zoom.
    ///   - maxZoom: the header's max zoom.
    public init(path: String, tileCompression: PMTiles.Compression, minZoom: Int, maxZoom: Int) throws(PMTiles.Error) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .io("cannot create \(path)") }
        header.tileCompression = tileCompression.rawValue
        header.internalCompression = PMTiles.Compression.gzip.rawValue
        header.minZoom = UInt8(minZoom); header.maxZoom = UInt8(maxZoom)
        header.dataOffset = UInt64(reserved)
    }

    deinit { if fd >= 0 { close(fd) } }

    private func write(_ bytes: [UInt8], at offset: UInt64) throws(PMTiles.Error) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else { throw .io("write failed at byte \(offset)") }
            done += n
        }
    }

    /// Appends one tile's (already compressed) bytes.
    public func add(_ tile: TileID, data: [UInt8]) throws(PMTiles.Error) {
        precondition(!data.isEmpty, "PMTiles entries have a length above zero")
        try write(data, at: UInt64(reserved) + dataLength)
        entries.append(PMTiles.Entry(tileID: PMTiles.tileID(z: Int(tile.z), x: tile.x, y: tile.y),
                                     offset: dataLength, length: UInt32(data.count), runLength: 1))
        dataLength += UInt64(data.count)
    }

    /// Writes the directories, metadata and header.
    public func finish(metadataJSON: String) throws(PMTiles.Error) {
        let clustered = zip(entries, entries.dropFirst()).allSatisfy { $0.tileID < $1.tileID }
        if !clustered { entries.sort { $0.tileID < $1.tileID } }
        for (a, b) in zip(entries, entries.dropFirst()) where a.tileID == b.tileID {
            throw .malformedDirectory("tile id \(a.tileID) added twice", offset: 0)
        }
        var cursor = UInt64(reserved) + dataLength
        header.dataLength = dataLength
        header.addressedTiles = UInt64(entries.count)
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(entries.count)
        header.clustered = clustered

        var root = Gzip.compress(PMTiles.encodeDirectory(entries))
        var leaves: [UInt8] = []
        if PMTiles.Header.size + root.count > reserved || entries.count > leafSize {
            var rootEntries: [PMTiles.Entry] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafSize, entries.count)])
                let leaf = Gzip.compress(PMTiles.encodeDirectory(chunk))
                rootEntries.append(PMTiles.Entry(tileID: chunk[0].tileID, offset: UInt64(leaves.count),
                                                 length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            root = Gzip.compress(PMTiles.encodeDirectory(rootEntries))
            guard PMTiles.Header.size + root.count <= reserved else {
                throw .malformedDirectory("root directory of \(rootEntries.count) leaves exceeds 16 KiB; raise leafSize", offset: 0)
            }
        }
        header.leafOffset = cursor
        header.leafLength = UInt64(leaves.count)
        try write(leaves, at: cursor)
        cursor += UInt64(leaves.count)
        let meta = Gzip.compress(Array(metadataJSON.utf8))
        header.metadataOffset = cursor
        header.metadataLength = UInt64(meta.count)
        try write(meta, at: cursor)
        header.rootOffset = UInt64(PMTiles.Header.size)
        header.rootLength = UInt64(root.count)
        try write(header.encoded() + root, at: 0)
    }
}
