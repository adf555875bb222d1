import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel
import TileArchive
import TileCover
import VectorTile

/// `graticule profile`: stream a large dataset and report what is in it.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Profile a large dataset: GeoJSON (collection, RFC 8142 sequence, newline-delimited), a folder of .mvt/.pbf tiles, an MBTiles or a PMTiles v3 archive.",
        discussion: """
        Streams the data with bounded memory and prints throughput, peak memory, counts by \
        geometry type (and by zoom and layer for tiles), vertex and property statistics, tile \
        size distribution, validation findings with their locations, and the coverage of the data \
        at --zoom. --csv (or --output) writes the figures as CSV; --heatmap writes the coverage \
        as GeoJSON tile polygons with a `count` property; --html writes a page with charts. \
        Exit status: 0 read to the end (findings do not change it), 2 unreadable input.
        """)

    @Argument(help: "GeoJSON file, tile folder, .mbtiles or .pmtiles.")
    var path: String

    @Option(help: "Zoom of the coverage heat-map.")
    var zoom = 6

    @Option(name: [.customLong("csv"), .customLong("output")], help: "Write the figures as CSV (section,key,value).")
    var csv: String?

    @Option(help: "Write the coverage heat-map as GeoJSON.")
    var heatmap: String?

    @Option(help: "Write an HTML page with the figures and charts.")
    var html: String?

    @Option(help: "Findings to print (all are counted).")
    var findings = 20

    @Flag(help: "Show the progress bar even when standard error is not a terminal.")
    var progress = false

    @Flag(help: "Tiles: skip MVT validation (faster; no findings).")
    var noValidate = false

    func validate() throws {
        guard (0...16).contains(zoom) else { throw ValidationError("--zoom must be 0...16") }
    }

    func run() throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { fail("\(path): no such file or folder") }
        var s = ProfileStats(zoom: zoom, keep: findings)
        let start = Date()
        do {
            if isDir.boolValue { try profileFolder(&s) }
            else if path.hasSuffix(".mbtiles") { try profileMBTiles(&s) }
            else if path.hasSuffix(".pmtiles") || Self.hasPMTilesMagic(path) { try profilePMTiles(&s) }
            else if path.hasSuffix(".mvt") || path.hasSuffix(".pbf") {
                s.format = "tile"
                guard let d = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
                s.sourceBytes = d.count
                [UInt8](d).withUnsafeBytes { s.addTile(TileID(z: 0, x: 0, y: 0)!, stored: $0, validate: !noValidate) }
            } else { try profileGeoJSON(&s) }
        } catch let e as ExitCode { throw e } catch { fail("\(path): \(error)") }
        s.seconds = Date().timeIntervalSince(start)
        s.peakResident = GeoJSONCommand.peakResidentBytes() ?? 0
        print(s.summary())
        let rows = s.rows()
        if let csv { writeOrFail(csv, "section,key,value\n" + rows.map { $0.map(CSV.escape).joined(separator: ",") }.joined(separator: "\n") + "\n") }
        if let heatmap { writeOrFail(heatmap, s.heatmapGeoJSON()) }
        if let html { writeOrFail(html, s.html(title: path)) }
    }

    func writeOrFail(_ p: String, _ text: String) {
        do { try FileIO.writeText(p, text) } catch { fail("cannot write \(p): \(error)") }
        print("wrote \(p)")
    }

    static func hasPMTilesMagic(_ p: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: p) else { return false }
        defer { try? h.close() }
        return h.readData(ofLength: 7) == Data("PMTiles".utf8)
    }

    // MARK: sources

    func profileGeoJSON(_ s: inout ProfileStats) throws {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch { fail("\(error)") }
        s.sourceBytes = source.size ?? 0
        var bar = GeoJSONCommand.Progress(total: source.size, force: progress)
        if GeoJSONCommand.isSequence(path, format: .auto) {
            s.format = "GeoJSON sequence"
            let reader = GeoJSONSequenceReader(source: source)
            while let o = try reader.next() {
                switch o {
                case .geometry(let g): s.addFeature(GeoFeature(geometry: g, properties: nil))
                case .feature(let f): s.addFeature(f)
                case .featureCollection(let fs): fs.forEach { s.addFeature($0) }
                }
                if s.features & 255 == 0 { bar.update(reader.bytesConsumed, features: s.features) }
            }
            s.format = reader.format == .rfc8142 ? "GeoJSON text sequence (RFC 8142)" : "newline-delimited GeoJSON"
            for b in reader.broken { s.finding(error: true, "element \(b.index): \(b.error)") }
        } else {
            s.format = "GeoJSON FeatureCollection"
            let reader = GeoJSONFeatureReader(source: source, onInvalidFeature: .skip)
            var reported = 0
            while let f = try reader.next() {
                s.addFeature(f)
                if s.features & 255 == 0 { bar.update(reader.bytesConsumed, features: s.features) }
                while reported < reader.skipped.count {
                    let k = reader.skipped[reported]
                    s.finding(error: true, "feature \(k.index) at \(k.location): \(k.error)")
                    reported += 1
                }
            }
            for k in reader.skipped.dropFirst(reported) { s.finding(error: true, "feature \(k.index) at \(k.location): \(k.error)") }
        }
        bar.finish()
    }

    func profileFolder(_ s: inout ProfileStats) throws {
        s.format = "tile folder"
        guard let e = FileManager.default.enumerator(atPath: path) else { fail("cannot list \(path)") }
        var files: [(TileID, String)] = []
        while let f = e.nextObject() as? String {
            guard f.hasSuffix(".mvt") || f.hasSuffix(".pbf") else { continue }
            let parts = f.split(separator: "/")
            let stem = parts.last!.split(separator: ".").first!
            if parts.count >= 3, let z = Int(parts[parts.count - 3]), let x = Int(parts[parts.count - 2]), let y = Int(stem),
               let t = TileID(z: z, x: x, y: y) {
                files.append((t, f))
            } else {
                s.finding(error: false, "\(f): not under z/x/y; profiled without a tile id")
                files.append((TileID(z: 0, x: 0, y: 0)!, f))
            }
        }
        var bar = GeoJSONCommand.Progress(total: files.count, force: progress, unit: "tiles")
        for (i, (t, f)) in files.enumerated() {
            guard let d = FileManager.default.contents(atPath: path + "/" + f) else { s.finding(error: true, "\(f): unreadable"); continue }
            s.sourceBytes += d.count
            [UInt8](d).withUnsafeBytes { s.addTile(t, stored: $0, validate: !noValidate) }
            if i & 255 == 0 { bar.update(i, features: i) }
        }
        bar.finish()
    }

    func profileMBTiles(_ s: inout ProfileStats) throws {
        s.format = "MBTiles"
        let r = try MBTilesReader(path: path)
        let total = try r.count()
        s.sourceBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        for (k, v) in try r.metadata() where ["name", "format", "minzoom", "maxzoom", "bounds"].contains(k) { s.metadata.append((k, v)) }
        var bar = GeoJSONCommand.Progress(total: total, force: progress, unit: "tiles")
        var n = 0
        try r.forEachTile(invalid: { s.finding(error: true, "tiles row with \($0): not a tile") }) { t, bytes in
            s.addTile(t, stored: bytes, validate: !noValidate)
            n += 1
            if n & 1023 == 0 { bar.update(n, features: n) }
            return true
        }
        bar.finish()
    }

    func profilePMTiles(_ s: inout ProfileStats) throws {
        s.format = "PMTiles v3"
        let r = try PMTilesReader(path: path)
        s.sourceBytes = r.fileSize
        let h = r.header
        s.metadata += [("addressed tiles", "\(h.addressedTiles)"), ("tile entries", "\(h.tileEntries)"),
                       ("tile contents", "\(h.tileContents)"), ("clustered", "\(h.clustered)"),
                       ("zooms", "\(h.minZoom)–\(h.maxZoom)"), ("tile compression", "\(h.tileCompression)"),
                       ("tile type", "\(h.tileType)")]
        var bar = GeoJSONCommand.Progress(total: Int(h.addressedTiles), force: progress, unit: "tiles")
        var n = 0
        try r.forEachEntry { t, e in
            let data = try r.tileData(e)
            data.withUnsafeBytes { s.addTile(t, stored: $0, validate: !noValidate) }
            n += 1
            if n & 1023 == 0 { bar.update(n, features: n) }
            return true
        }
        bar.finish()
    }
}

/// What `profile` accumulates; memory is bounded (histograms, capped key tables, the
/// coverage grid at one zoom, tile sizes as 4 bytes per tile).
struct ProfileStats {
    let zoom: Int
    let keep: Int
    var format = ""
    var sourceBytes = 0
    var seconds = 0.0
    var peakResident = 0
    var metadata: [(String, String)] = []

    var features = 0
    var byType: [String: Int] = [:]
    var vertices = Log2Histogram()
    var properties = Log2Histogram()
    var keyCounts: [String: Int] = [:]
    var otherKeys = 0
    var coverage: [UInt64: Int] = [:]
    var coverageSkipped = 0

    var tiles = 0
    var tileSizes: [Int: [UInt32]] = [:]
    var rawBytes: [Int: Int] = [:]
    var layers: [String: (features: Int, tiles: Int)] = [:]

    var errors = 0, warnings = 0
    var shown: [String] = []

    init(zoom: Int, keep: Int) { self.zoom = zoom; self.keep = keep }

    mutating func finding(error: Bool, _ text: String) {
        if error { errors += 1 } else { warnings += 1 }
        if shown.count < keep { shown.append((error ? "error: " : "warning: ") + text) }
    }

    mutating func key(_ k: String) {
        if keyCounts[k] != nil || keyCounts.count < 10_000 { keyCounts[k, default: 0] += 1 } else { otherKeys += 1 }
    }

    static func key(_ t: TileID) -> UInt64 { UInt64(t.x) << 32 | UInt64(t.y) }

    mutating func addFeature(_ f: GeoFeature) {
        features += 1
        let props = f.properties?.count ?? 0
        properties.add(props)
        if let p = f.properties { for k in p.keys { key(k) } }
        guard let g = f.geometry else { byType["null", default: 0] += 1; return }
        byType[g.kind.rawValue, default: 0] += 1
        vertices.add(Self.vertexCount(g))
        for t in TileCoverage.tiles(for: g, zoom: zoom) { coverage[Self.key(t), default: 0] += 1 }
    }

    static func vertexCount(_ g: Geometry) -> Int {
        g.kind == .geometryCollection ? g.geometries.reduce(0) { $0 + vertexCount($1) } : g.coordinates.count / max(g.dimensions, 1)
    }

    /// Counts vertices (the other callbacks keep the protocol's empty defaults).
    struct Counter: GeometryHandler {
        var n = 0
        mutating func point(x: Int64, y: Int64) { n += 1 }
        mutating func linePoint(x: Int64, y: Int64) { n += 1 }
        mutating func ringPoint(x: Int64, y: Int64) { n += 1 }
    }

    mutating func addTile(_ t: TileID, stored: UnsafeRawBufferPointer, validate: Bool) {
        tiles += 1
        tileSizes[Int(t.z), default: []].append(UInt32(clamping: stored.count))
        var inflated: [UInt8]?
        if Gzip.isGzip(stored) {
            do { inflated = try Gzip.decompress(stored, limit: 64 << 20) } catch {
                finding(error: true, "tile \(t): \(error)")
                return
            }
        }
        func body(_ raw: UnsafeRawBufferPointer) {
            rawBytes[Int(t.z), default: 0] += raw.count
            let tile = VectorTile(bytes: raw)
            if validate {
                for f in MVTValidator.validate(tile) {
                    finding(error: f.severity != .warning, "tile \(t): \(f)")
                }
            }
            let (ls, skipped) = tile.readableLayers()
            if !validate { for f in skipped { finding(error: true, "tile \(t): \(f)") } }
            var inTile = 0
            for l in ls {
                var entry = layers[l.name] ?? (0, 0)
                entry.features += l.featureCount
                entry.tiles += 1
                if layers[l.name] != nil || layers.count < 1000 { layers[l.name] = entry }
                for k in l.keys { key(String(decoding: k, as: UTF8.self)) }
                l.forEachFeature { (f: Feature) in
                    features += 1
                    inTile += 1
                    let type: String
                    switch f.type {
                    case .point?: type = "Point"
                    case .lineString?: type = "LineString"
                    case .polygon?: type = "Polygon"
                    default: type = "Unknown"
                    }
                    byType[type, default: 0] += 1
                    var c = Counter()
                    try? f.decodeGeometry(into: &c, mode: .tolerant)
                    vertices.add(c.n)
                    var tags = 0
                    try? f.forEachTag { _, _ in tags += 1 }
                    properties.add(tags)
                }
            }
            if Int(t.z) >= zoom {
                let p = TileID(z: zoom, x: Int(t.x >> (UInt32(t.z) - UInt32(zoom))), y: Int(t.y >> (UInt32(t.z) - UInt32(zoom))))!
                coverage[Self.key(p), default: 0] += inTile
            } else {
                coverageSkipped += 1
            }
        }
        if let inflated { inflated.withUnsafeBytes(body) } else { body(stored) }
    }

    // MARK: output

    static func quantiles(_ v: [UInt32]) -> (min: UInt32, p50: UInt32, p90: UInt32, p99: UInt32, max: UInt32) {
        let s = v.sorted()
        func q(_ p: Double) -> UInt32 { s[min(s.count - 1, Int(Double(s.count - 1) * p))] }
        return (s.first ?? 0, q(0.5), q(0.9), q(0.99), s.last ?? 0)
    }

    func rows() -> [[String]] {
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
        for (k, v) in keyCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(25) { r.append(["property_key", k, "\(v)"]) }
        for z in tileSizes.keys.sorted() {
            let q = Self.quantiles(tileSizes[z]!)
            r += [["zoom_\(z)", "tiles", "\(tileSizes[z]!.count)"], ["zoom_\(z)", "stored_bytes", "\(tileSizes[z]!.reduce(0) { $0 + Int($1) })"],
                  ["zoom_\(z)", "raw_bytes", "\(rawBytes[z] ?? 0)"], ["zoom_\(z)", "size_min", "\(q.min)"],
                  ["zoom_\(z)", "size_p50", "\(q.p50)"], ["zoom_\(z)", "size_p90", "\(q.p90)"],
                  ["zoom_\(z)", "size_p99", "\(q.p99)"], ["zoom_\(z)", "size_max", "\(q.max)"]]
        }
        for (k, v) in layers.sorted(by: { $0.key < $1.key }) { r += [["layer", k + ".features", "\(v.features)"], ["layer", k + ".tiles", "\(v.tiles)"]] }
        r += [["coverage", "zoom", "\(zoom)"], ["coverage", "tiles", "\(coverage.count)"],
              ["coverage", "max_per_tile", "\(coverage.values.max() ?? 0)"]]
        r += [["findings", "errors", "\(errors)"], ["findings", "warnings", "\(warnings)"]]
        for (i, f) in shown.enumerated() { r.append(["finding", "\(i + 1)", f]) }
        return r
    }

    func summary() -> String {
        var out = "\(format): \(sourceBytes) bytes in \(String(format: "%.2f", seconds)) s, "
            + String(format: "%.1f MB/s", Double(sourceBytes) / 1e6 / max(seconds, 1e-9))
            + ", peak resident \(peakResident / (1 << 20)) MiB\n"
        for (k, v) in metadata { out += "  \(k): \(v)\n" }
        out += "features \(features)" + (tiles > 0 ? ", tiles \(tiles)" : "") + "\n"
        out += "by type: " + byType.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        out += String(format: "vertices per feature: mean %.1f, p50 ≤ %d, p99 ≤ %d, max %d (total %d)\n", vertices.mean,
                      vertices.quantileUpperBound(0.5), vertices.quantileUpperBound(0.99), vertices.max, vertices.total)
        out += String(format: "properties per feature: mean %.1f, max %d; %d distinct keys\n", properties.mean, properties.max, keyCounts.count)
        if !tileSizes.isEmpty {
            var t: [[String]] = []
            for z in tileSizes.keys.sorted() {
                let q = Self.quantiles(tileSizes[z]!)
                t.append(["\(z)", "\(tileSizes[z]!.count)", "\(q.min)", "\(q.p50)", "\(q.p90)", "\(q.p99)", "\(q.max)", "\(rawBytes[z] ?? 0)"])
            }
            out += SummaryTable.table(header: ["zoom", "tiles", "min B", "p50 B", "p90 B", "p99 B", "max B", "raw bytes"], rows: t) + "\n"
            out += "layers: " + layers.sorted(by: { $0.key < $1.key }).map { "\($0.key) (\($0.value.features) features in \($0.value.tiles) tiles)" }.joined(separator: ", ") + "\n"
        }
        out += "coverage at z\(zoom): \(coverage.count) tiles, up to \(coverage.values.max() ?? 0) features per tile"
            + (coverageSkipped > 0 ? " (\(coverageSkipped) tiles below z\(zoom) not counted)" : "") + "\n"
        out += "findings: \(errors) errors, \(warnings) warnings\n"
        for f in shown { out += "  " + f + "\n" }
        return out
    }

    func heatmapGeoJSON() -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        var first = true
        for (k, n) in coverage.sorted(by: { $0.key < $1.key }) {
            let t = TileID(z: zoom, x: Int(k >> 32), y: Int(k & 0xFFFF_FFFF))!
            let b = t.bounds
            let ring = [(b.west, b.south), (b.east, b.south), (b.east, b.north), (b.west, b.north), (b.west, b.south)]
                .map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
            out += (first ? "" : ",\n") + "{\"type\":\"Feature\",\"properties\":{\"tile\":\"\(t)\",\"count\":\(n)},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}}"
            first = false
        }
        return out + "\n]}\n"
    }

    func html(title: String) -> String {
        var bars: [(String, Double)] = byType.sorted(by: { $0.key < $1.key }).map { ($0.key, Double($0.value)) }
        var page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Profile of \(HTMLReport.esc(title))</title>"
            + "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px}svg text{font-size:12px}</style></head><body>"
            + "<h1>Profile of \(HTMLReport.esc(title))</h1>\n<h2>Features by geometry type</h2>\n" + HTMLReport.simpleBars(bars, unit: "features")
        if !tileSizes.isEmpty {
            bars = tileSizes.keys.sorted().map { ("z\($0) tiles", Double(tileSizes[$0]!.count)) }
            page += "<h2>Tiles by zoom</h2>\n" + HTMLReport.simpleBars(bars, unit: "tiles")
            bars = tileSizes.keys.sorted().map { ("z\($0) median size", Double(Self.quantiles(tileSizes[$0]!).p50)) }
            page += "<h2>Median stored tile size by zoom</h2>\n" + HTMLReport.simpleBars(bars, unit: "B")
        }
        bars = vertices.buckets.enumerated().filter { $0.element > 0 }.map { ("≤ \($0.offset == 0 ? 0 : 1 << ($0.offset - 1)) vertices", Double($0.element)) }
        page += "<h2>Vertices per feature</h2>\n" + HTMLReport.simpleBars(bars, unit: "features")
        page += "<h2>All figures</h2>\n<table><tr><th>section</th><th>key</th><th>value</th></tr>\n"
        for r in rows() { page += "<tr>" + r.map { "<td>\(HTMLReport.esc($0))</td>" }.joined() + "</tr>\n" }
        return page + "</table></body></html>\n"
    }
}

/// Counts in power-of-two buckets: bucket 0 holds 0, bucket k holds 2^(k-1) ... 2^k - 1.
struct Log2Histogram {
    var buckets = [Int](repeating: 0, count: 65)
    var count = 0
    var total = 0
    var max = 0

    mutating func add(_ v: Int) {
        buckets[v <= 0 ? 0 : 64 - v.leadingZeroBitCount] += 1
        count += 1
        total += v
        if v > max { max = v }
    }

    var mean: Double { count == 0 ? 0 : Double(total) / Double(count) }

    /// The upper bound of the bucket holding quantile q.
    func quantileUpperBound(_ q: Double) -> Int {
        guard count > 0 else { return 0 }
        let target = Int((Double(count) * q).rounded(.up))
        var seen = 0
        for (i, b) in buckets.enumerated() {
            seen += b
            if seen >= target { return i == 0 ? 0 : Swift.min((1 << i) - 1, max) }
        }
        return max
    }
}
