import TileCover

/// A tile archive named by its path: MBTiles (by extension) or PMTiles (by extension or its
/// magic number), read one tile at a time.
public enum TileArchiveFile {
    /// Whether `path` names a tile archive: a `.mbtiles` or `.pmtiles` file, or a file that
    /// starts with PMTiles' magic number.
    public static func isArchive(path: String) -> Bool {
        path.hasSuffix(".mbtiles") || path.hasSuffix(".pmtiles") || PMTiles.hasMagic(path: path)
    }

    /// The stored bytes of tile `t`, with PMTiles' brotli and zstd tile compression decoded
    /// (gzip is left to the caller, as for a tile file); nil when the archive has no such
    /// tile. Throws what reading the archive throws.
    public static func tile(_ t: TileID, path: String) throws -> [UInt8]? {
        if path.hasSuffix(".mbtiles") {
            return try MBTilesReader(path: path).tile(t)
        }
        let reader = try PMTilesReader(path: path)
        guard let entry = try reader.entry(for: t) else { return nil }
        return try reader.decodedTile(try reader.tileData(entry))
    }
}
