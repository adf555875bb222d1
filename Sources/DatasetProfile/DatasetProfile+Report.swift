import Foundation
import GeoJSON
import GeoModel
import GraticuleSupport
import TileCover

extension DatasetProfile {
    /// min, p50, p90, p99 and max of `v` (nearest rank below).
    /// The figures as `section, key, value` rows, in a fixed order (the CSV of `profile`).
    public func rows() -> [[String]] {
        var r: [[String]] = [["source", "format", format], ["source", "bytes", "\(sourceBytes)"],
                             ["run", "seconds", String(format: "%.3f", seconds)],
                             ["run", "mb_per_s", String(format: "%.1f", Double(sourceBytes) / 1e6 / max(seconds, 1e-9))],
                             ["run", "peak_resident_bytes", "\(peakResident)"]]
        for (k, v) in metadata { r.append(["metadata", k, v]) }
        r.append(["count", "features", "\(features)"])
        if tiles > 0 { r.append(["count", "tiles", "\(tiles)"]) }
        for (k, v) in byType.sorted(by: { $0.key < $1.key }) { r.append(["geometry_type", k, "\(v)"]) }
        for (name, h) in [("vertices", vertices), ("properties", properties)] {
            r += [[name, "total", "\(h.total)"], [name, "mean", String(format: "%.2f", h.mean)], [name, "max", "\(h.max)"],
                  [name, "p50_at_most", "\(h.quantileUpperBound(0.5))"], [name, "p99_at_most", "\(h.quantileUpperBound(0.99))"]]
        }
        for (k, v) in keyCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(25) { r.append([keySection, k, "\(v)"]) }
        for (k, v) in tileContents.sorted(by: { $0.key < $1.key }) { r.append(["tile_content_tiles", k, "\(v)"]) }
        for z in tileSizes.keys.sorted() {
            let q = tileSizes[z]!.quantiles()
            r += [["zoom_\(z)", "tiles", "\(tileSizes[z]!.count)"], ["zoom_\(z)", "stored_bytes", "\(tileSizes[z]!.total)"],
                  ["zoom_\(z)", "raw_bytes", "\(rawBytes[z] ?? 0)"], ["zoom_\(z)", "size_min", "\(q.min)"],
                  ["zoom_\(z)", "size_p50", "\(q.p50)"], ["zoom_\(z)", "size_p90", "\(q.p90)"],
                  ["zoom_\(z)", "size_p99", "\(q.p99)"], ["zoom_\(z)", "size_max", "\(q.max)"]]
        }
        for (k, v) in layers.sorted(by: { $0.key < $1.key }) { r += [["layer", k + ".features", "\(v.features)"], ["layer", k + ".tiles", "\(v.tiles)"]] }
        r += [["coverage", "zoom", "\(zoom)"], ["coverage", "tiles", "\(coverage.count)"],
              ["coverage", "max_features_per_tile", "\(coverage.values.max() ?? 0)"]]
        r += [["findings", "errors", "\(errors)"], ["findings", "warnings", "\(warnings)"]]
        for (i, f) in shown.enumerated() { r.append(["finding", "\(i + 1)", f]) }
        return r
    }

    /// The CSV section of the property keys, saying what a key's count counts.
    var keySection: String { tiles > 0 ? "property_key_layers" : "property_key_features" }

    /// The rows as RFC 4180 CSV with the header `section,key,value`.
    public func csv() -> String {
        "section,key,value\n" + rows().map { $0.map(CSV.escape).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// The summary `profile` prints.
    public func summary() -> String {
        var out = "\(format): \(sourceBytes) bytes in \(String(format: "%.2f", seconds)) s, "
            + String(format: "%.1f MB/s", Double(sourceBytes) / 1e6 / max(seconds, 1e-9))
            + ", peak resident \(peakResident / (1 << 20)) MiB\n"
        for (k, v) in metadata { out += "  \(k): \(v)\n" }
        out += "features \(features)" + (tiles > 0 ? ", tiles \(tiles)" : "") + "\n"
        out += "features by geometry type: " + byType.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        out += String(format: "vertices per feature: mean %.1f, p50 ≤ %d, p99 ≤ %d, max %d (total %d)\n", vertices.mean,
                      vertices.quantileUpperBound(0.5), vertices.quantileUpperBound(0.99), vertices.max, vertices.total)
        out += String(format: "properties per feature: mean %.1f, max %d; %d distinct keys", properties.mean, properties.max, keyCounts.count)
            + (tiles > 0 ? " (a key is counted once per tile layer that has it)\n" : " (a key is counted once per feature that has it)\n")
        if !tileContents.isEmpty {
            out += "tiles not decoded as vector tiles: " + tileContents.sorted(by: { $0.key < $1.key }).map { "\($0.key): \($0.value) tiles" }
                .joined(separator: ", ") + "\n"
        }
        if !tileSizes.isEmpty {
            var t: [[String]] = []
            for z in tileSizes.keys.sorted() {
                let q = tileSizes[z]!.quantiles()
                t.append(["\(z)", "\(tileSizes[z]!.count)", "\(q.min)", "\(q.p50)", "\(q.p90)", "\(q.p99)", "\(q.max)", "\(rawBytes[z] ?? 0)"])
            }
            out += TextTable.render(header: ["zoom", "tiles", "min B", "p50 B", "p90 B", "p99 B", "max B", "raw bytes"], rows: t) + "\n"
            out += "layers: " + layers.sorted(by: { $0.key < $1.key }).map { "\($0.key) (\(counted($0.value.features, "feature")) in \(counted($0.value.tiles, "tile")))" }.joined(separator: ", ") + "\n"
        }
        out += "coverage at z\(zoom): \(counted(coverage.count, "tile")) with features, up to \(counted(coverage.values.max() ?? 0, "feature")) per tile"
            + (coverageSkipped > 0 ? " (\(coverageSkipped) tiles below z\(zoom) not counted)" : "") + "\n"
        out += "findings: \(counted(errors, "error")), \(counted(warnings, "warning"))\n"
        for f in shown { out += "  " + f + "\n" }
        return out
    }

    /// The coverage grid as a GeoJSON FeatureCollection of tile squares (`TileSquares`) with
    /// a `count` property: the features in each tile.
    public func heatmapGeoJSON() -> String {
        let features = coverage.sorted(by: { $0.key < $1.key }).map { k, n in
            TileSquares.feature(CameraTile(tile: TileID(z: zoom, x: Int(k >> 32), y: Int(k & 0xFFFF_FFFF))!),
                                extra: ["count": .int(Int64(n))])
        }
        return String(decoding: GeoJSONWriter.encode(GeoJSONDocument(object: .featureCollection(features))), as: UTF8.self) + "\n"
    }

    /// An HTML page with charts (features by type, tiles and median size by zoom, vertices
    /// per feature) and every figure.
    public func html(title: String) -> String {
        func bars(_ items: [(String, Double)], _ unit: String) -> String {
            HTML.barChart(items.map { HTML.Bar(label: $0.0, value: $0.1, low: $0.1, high: $0.1) }, unit: unit,
                          format: { String(Int($0.rounded())) })
        }
        var page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Profile of \(HTML.escape(title))</title>"
            + "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px}svg text{font-size:12px}</style></head><body>"
            + "<h1>Profile of \(HTML.escape(title))</h1>\n<h2>Features by geometry type</h2>\n"
            + bars(byType.sorted(by: { $0.key < $1.key }).map { ($0.key, Double($0.value)) }, "features")
        if !tileSizes.isEmpty {
            page += "<h2>Tiles by zoom</h2>\n" + bars(tileSizes.keys.sorted().map { ("z\($0) tiles", Double(tileSizes[$0]!.count)) }, "tiles")
            page += "<h2>Median stored tile size by zoom</h2>\n"
                + bars(tileSizes.keys.sorted().map { ("z\($0) median size", Double(tileSizes[$0]!.quantiles().p50)) }, "B")
        }
        let vertexBars = vertices.buckets.enumerated().filter { $0.element > 0 }
            .map { ("≤ \($0.offset == 0 ? 0 : 1 << ($0.offset - 1)) vertices", Double($0.element)) }
        page += "<h2>Vertices per feature</h2>\n" + bars(vertexBars, "features")
        page += "<h2>All figures</h2>\n<table><tr><th>section</th><th>key</th><th>value</th></tr>\n"
        for r in rows() { page += "<tr>" + r.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>\n" }
        return page + "</table></body></html>\n"
    }
}

extension DatasetProfile {
    /// The figures as one JSON object (schema `Benchmarks/Schemas/profile.schema.json`,
    /// `"schema": "graticule-profile/2"`): the same figures as `rows()`, typed and nested,
    /// with `units` saying what each count counts (features, tiles, tile layers),
    /// with the two histograms' log2 buckets (bucket k counts values in [2^(k−1), 2^k), 0
    /// counts zeros).
    public func json(path: String) -> String {
        func int(_ v: Int) -> PropertyValue { .int(Int64(v)) }
        func object(_ pairs: [(String, PropertyValue)]) -> PropertyValue { .object(PropertyList(pairs.map { (key: $0.0, value: $0.1) })) }
        func histogram(_ h: Log2Histogram) -> PropertyValue {
            var last = h.buckets.count - 1
            while last > 0 && h.buckets[last] == 0 { last -= 1 }
            return object([("count", int(h.count)), ("total", int(h.total)), ("mean", .double(h.mean)), ("max", int(h.max)),
                           ("p50_at_most", int(h.quantileUpperBound(0.5))), ("p99_at_most", int(h.quantileUpperBound(0.99))),
                           ("log2_buckets", .array(h.buckets[0...last].map(int)))])
        }
        var zooms: [(String, PropertyValue)] = []
        for z in tileSizes.keys.sorted() {
            let sizes = tileSizes[z]!, q = sizes.quantiles()
            zooms.append(("\(z)", object([("tiles", int(sizes.count)), ("stored_bytes", int(sizes.total)),
                                          ("raw_bytes", int(rawBytes[z] ?? 0)),
                                          ("size", object([("min", int(Int(q.min))), ("p50", int(Int(q.p50))), ("p90", int(Int(q.p90))),
                                                           ("p99", int(Int(q.p99))), ("max", int(Int(q.max)))]))])))
        }
        let units = object([
            ("counts.features", .string("features")), ("counts.tiles", .string("tiles")),
            ("geometry_types", .string("features")), ("vertices", .string("features, by vertices per feature")),
            ("properties", .string("features, by properties per feature")),
            ("property_keys", .string(tiles > 0 ? "tile layers that have the key" : "features that have the key")),
            ("tile_contents", .string("tiles")), ("zooms.tiles", .string("tiles")), ("zooms.stored_bytes", .string("bytes")),
            ("layers.features", .string("features")), ("layers.tiles", .string("tiles")),
            ("coverage.tiles", .string("tiles at the coverage zoom with features")),
            ("coverage.max_features_per_tile", .string("features")), ("findings", .string("findings")),
        ])
        let doc = object([
            ("schema", .string("graticule-profile/2")),
            ("units", units),
            ("source", object([("path", .string(path)), ("format", .string(format)), ("bytes", int(sourceBytes))])),
            ("run", object([("seconds", .double(seconds)), ("mb_per_s", .double(Double(sourceBytes) / 1e6 / max(seconds, 1e-9))),
                            ("peak_resident_bytes", int(peakResident))])),
            ("metadata", object(metadata.map { ($0.0, PropertyValue.string($0.1)) })),
            ("counts", object([("features", int(features)), ("tiles", int(tiles))])),
            ("geometry_types", object(byType.sorted { $0.key < $1.key }.map { ($0.key, int($0.value)) })),
            ("vertices", histogram(vertices)),
            ("properties", histogram(properties)),
            ("property_keys", object(keyCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(25).map { ($0.key, int($0.value)) })),
            ("tile_contents", object(tileContents.sorted { $0.key < $1.key }.map { ($0.key, int($0.value)) })),
            ("zooms", object(zooms)),
            ("layers", object(layers.sorted { $0.key < $1.key }.map { ($0.key, object([("features", int($0.value.features)), ("tiles", int($0.value.tiles))])) })),
            ("coverage", object([("zoom", int(zoom)), ("tiles", int(coverage.count)), ("max_features_per_tile", int(coverage.values.max() ?? 0))])),
            ("findings", object([("errors", int(errors)), ("warnings", int(warnings)), ("shown", .array(shown.map { .string($0) }))])),
        ])
        return GeoJSONWriter.value(doc) + "\n"
    }
}
