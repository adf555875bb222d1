import Foundation
import GraticuleSupport
import TileArchive
import TileCover

/// An archive of synthetic vector tiles (`SyntheticTiles`): the first `count` tiles in
/// PMTiles tile-id order (z0 first), written as PMTiles, MBTiles or a z/x/y.mvt folder.
/// Archives are whole or absent: they are built beside the target and renamed
/// (`OutputFile.build`), so a full disk leaves none.
public enum SyntheticArchive {
    public enum Format: String, Sendable, CaseIterable {
        case pmtiles, mbtiles, dir
    }

    /// What was written: the stored bytes of the tiles and the deepest zoom.
    public struct Written: Equatable, Sendable {
        public var tileBytes: Int
        public var maxZoom: Int
    }

    /// Writes the archive.
    ///
    /// - Parameters:
    ///   - compression: how tiles are stored; MBTiles and folders hold gzip or none only.
    ///   - progress: called every 1,024 tiles with the tiles written so far.
    /// - Throws: `FileIO.Failure` for a compression the format cannot hold; what writing
    ///   throws.
    public static func write(count: Int, format: Format, compression: PMTiles.Compression, seed: UInt64, density: Double,
                             to output: String, progress: (Int) -> Void = { _ in }) throws -> Written {
        guard count > 0 else { throw FileIO.Failure(path: output, reason: "an archive needs at least one tile") }
        guard format == .pmtiles || compression == .none || compression == .gzip else {
            throw FileIO.Failure(path: output, reason: "\(format.rawValue) holds gzip or uncompressed tiles only")
        }
        guard let last = PMTiles.tile(id: UInt64(count - 1)) else {
            throw FileIO.Failure(path: output, reason: "\(count) tiles are more than z30 holds")
        }
        var total = 0
        func generate(_ add: (TileID, [UInt8]) throws -> Void) throws {
            for id in 0..<UInt64(count) {
                guard let t = PMTiles.tile(id: id) else { break }
                let raw = SyntheticTiles.tile(z: Int(t.z), x: Int(t.x), y: Int(t.y), seed: seed, density: density)
                let data = ArchiveCompression.compress(raw, compression: compression.rawValue)
                try add(t, data)
                total += data.count
                if id % 1024 == 0 { progress(Int(id)) }
            }
        }
        let json = tileJSON(maxZoom: Int(last.z), compression: PMTiles.compressionName(compression.rawValue))
        switch format {
        case .pmtiles:
            try OutputFile.build(output) { path in
                let w = try PMTilesWriter(path: path, tileCompression: compression, minZoom: 0, maxZoom: Int(last.z))
                try generate(w.add)
                try w.finish(metadataJSON: json)
            }
        case .mbtiles:
            try OutputFile.build(output) { path in
                let w = try MBTilesWriter(path: path, metadata: [("name", "graticule generated"), ("format", "pbf"),
                                                                ("minzoom", "0"), ("maxzoom", "\(last.z)"), ("json", json)])
                try generate(w.add)
                try w.finish()
            }
        case .dir:
            // A new folder renamed into place: never mixed into one that holds files, never
            // left half written.
            try OutputFile.buildFolder(output) { root in
                try generate { t, data in
                    let dir = "\(root)/\(t.z)/\(t.x)"
                    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                    try FileIO.writeAll("\(dir)/\(t.y).mvt", data)
                }
            }
        }
        return Written(tileBytes: total, maxZoom: Int(last.z))
    }

    /// The archive's TileJSON metadata: the three layers `SyntheticTiles` writes, with their
    /// fields.
    public static func tileJSON(maxZoom: Int, compression: String) -> String {
        #"{"name":"graticule generated","format":"pbf","compression":"\#(compression)","minzoom":0,"maxzoom":\#(maxZoom),"vector_layers":[{"id":"poi","fields":{"class":"String","name":"String","rank":"Number"}},{"id":"roads","fields":{"class":"String","lanes":"Number"}},{"id":"buildings","fields":{"height":"Number"}}]}"#
    }
}
