import GraticuleSupport
import BenchKit
import GPX
import TileCover
import CorpusGenerators
import Foundation
import PBF

/// Datasets from a corpora folder laid out like ../shared/corpora (`graticule bench --data DIR`):
/// - `mvt-fixtures/real-world/AREA/*.mvt` → one `mvt-tiles` dataset per area
///   (`real-world/AREA`, items = tiles); the quick suite takes the two smallest areas;
/// - `geojson/*.json` → one `geojson` dataset per file (`geojson/NAME`, items = features);
///   the quick suite takes none (they are tens of megabytes).
enum CorpusDatasets {
    static func all(in root: String, quick: Bool) -> [Dataset] {
        let fm = FileManager.default
        var out: [Dataset] = []
        let realWorld = root + "/mvt-fixtures/real-world"
        var areas: [(name: String, files: [String], size: Int)] = []
        for area in ((try? fm.contentsOfDirectory(atPath: realWorld)) ?? []).sorted() {
            let dir = realWorld + "/" + area
            let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".mvt") }.sorted()
                .map { dir + "/" + $0 }
            guard !files.isEmpty else { continue }
            let size = files.reduce(0) { $0 + ((try? fm.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
            areas.append((area, files, size))
        }
        if quick { areas = Array(areas.sorted { $0.size < $1.size }.prefix(2)) }
        // The packed geometry and tag arrays of every real-world tile, concatenated: the
        // varint stream a tile decoder really reads (`pbf.varint.decode` on real data).
        let allFiles = areas.flatMap(\.files)
        if !allFiles.isEmpty {
            out.append(Dataset(name: "real-world/geometry-and-tags", kind: "pbf-varints") {
                var stream: [UInt8] = []
                var count = 0
                for f in allFiles {
                    let tile = try FileIO.readAll(f)
                    try PackedArrays.collect(tile, into: &stream, count: &count)
                }
                return (stream, count)
            })
        }
        for a in areas {
            out.append(Dataset(name: "real-world/\(a.name)", kind: "mvt-tiles") {
                let tiles = try a.files.map { try FileIO.readAll($0) }
                return (TileSet.pack(tiles), tiles.count)
            })
        }
        if !quick {
            let gj = root + "/geojson"
            for f in ((try? fm.contentsOfDirectory(atPath: gj)) ?? []).filter({ $0.hasSuffix(".json") }).sorted() {
                let path = gj + "/" + f
                out.append(Dataset(name: "geojson/" + f.replacingOccurrences(of: ".json", with: ""), kind: "geojson",
                                   path: path) { bytes in
                    // Count features with Foundation, once, at load.
                    let doc = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
                    return (doc?["features"] as? [Any])?.count ?? 1
                })
            }
            // The large data-source profile: 1M generated points (source.update at the scale
            // the targets name). Generated, not read from the corpora, but only run with
            // --data, whose runs already take minutes.
            out.append(Dataset(name: "generated/source-points-1000k", kind: "source-points") {
                PointsGeoJSON.generate(count: 1_000_000, seed: 1)
            })
            out.append(Dataset(name: "generated/source-polygons-1000k", kind: "source-polygons") {
                PolygonsGeoJSON.generate(count: 1_000_000, seed: 11)
            })
            // The longest sample track: a real drive for tilecover.follow.
            let gpx = root + "/gpx/gpxpy/korita-zbevnica.gpx"
            if fm.fileExists(atPath: gpx) {
                out.append(Dataset(name: "gpx/korita-zbevnica", kind: "gpx", path: gpx) { bytes in
                    (try? GPXReader.read(bytes).firstPath?.count) ?? 0
                })
            }
        }
        return out
    }
}

/// Extracts the packed `tags` and `geometry` payloads of every feature of a tile.
enum PackedArrays {
    static func collect(_ tile: [UInt8], into out: inout [UInt8], count: inout Int) throws {
        try tile.withUnsafeBytes { raw in
            var t = PBFReader(bytes: raw)
            while !t.isAtEnd {
                let (field, wire) = try t.readKey()
                guard field == 3, wire == .lengthDelimited else { try t.skip(wire); continue }
                var layer = try t.readLengthDelimited()
                while !layer.isAtEnd {
                    let (lf, lw) = try layer.readKey()
                    guard lf == 2, lw == .lengthDelimited else { try layer.skip(lw); continue }
                    var feature = try layer.readLengthDelimited()
                    while !feature.isAtEnd {
                        let (ff, fw) = try feature.readKey()
                        if (ff == 2 || ff == 4) && fw == .lengthDelimited {
                            var packed = try feature.readLengthDelimited()
                            out.append(contentsOf: packed.bytes)
                            while !packed.isAtEnd { _ = try packed.readVarint(); count += 1 }
                        } else {
                            try feature.skip(fw)
                        }
                    }
                }
            }
        }
    }
}
