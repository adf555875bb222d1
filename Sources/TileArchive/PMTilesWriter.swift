#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PBF
import TileCover

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
                                     offset: dataLength, length: UInt64(data.count), runLength: 1))
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
                                                 length: UInt64(leaf.count), runLength: 0))
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
