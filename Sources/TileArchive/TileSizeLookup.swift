#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TileCover

/// Answers "does the source have tile z/x/y, and of how many bytes?" for a PMTiles or
/// MBTiles archive or a folder of z/x/y files: what a tile layer's request costs.
public final class TileSizeLookup {
    enum Source {
        case pmtiles(PMTilesReader)
        case mbtiles(MBTilesReader)
        case folder(String)
    }

    let source: Source
    public let path: String

    /// Opens `path`: an archive (`TileArchiveFile.isArchive`) or a folder of
    /// `z/x/y.{mvt,pbf,png,jpg,jpeg,webp,avif}` files.
    ///
    /// - Throws: the archive reader's error.
    public init(path: String) throws {
        self.path = path
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            source = .folder(path)
        } else if path.hasSuffix(".mbtiles") {
            source = .mbtiles(try MBTilesReader(path: path))
        } else {
            source = .pmtiles(try PMTilesReader(path: path))
        }
    }

    static let folderExtensions = ["mvt", "pbf", "png", "jpg", "jpeg", "webp", "avif"]

    /// The stored size of tile `t`, nil when the source does not have it.
    public func size(of t: TileID) throws -> Int? {
        switch source {
        case .pmtiles(let r):
            return try r.entry(for: t).map { Int(clamping: $0.length) }
        case .mbtiles(let r):
            return try r.tile(t)?.count
        case .folder(let dir):
            for ext in Self.folderExtensions {
                var st = stat()
                if stat("\(dir)/\(t.z)/\(t.x)/\(t.y).\(ext)", &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { return Int(st.st_size) }
            }
            return nil
        }
    }
}
