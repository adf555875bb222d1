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

    /// The tile type the archive declares, by name: the PMTiles header's tile type
    /// (`mvt`, `png`, `jpeg`, `webp`, `avif`, `mlt`, `unknown (0)`), or the MBTiles
    /// `format` row (`pbf`, `png`, `jpg`, …); nil when it declares none.
    public static func declaredType(path: String) throws -> String? {
        if path.hasSuffix(".mbtiles") {
            return try MBTilesReader(path: path).metadata().first { $0.0 == "format" }?.1
        }
        return PMTiles.tileTypeName(try PMTilesReader(path: path).header.tileType)
    }

    /// Whether a declared type (`declaredType`) names image tiles of `format`.
    public static func declares(_ declared: String, image format: TileContent.Format) -> Bool {
        switch declared.lowercased() {
        case "png": return format == .png
        case "jpg", "jpeg": return format == .jpeg
        case "webp": return format == .webp
        case "avif": return format == .avif
        default: return false
        }
    }
}
