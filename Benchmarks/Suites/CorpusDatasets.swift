import BenchKit
import CorpusGenerators
import Foundation

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
        }
        return out
    }
}
