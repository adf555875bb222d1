import GraticuleSupport
import ArgumentParser
import BenchKit
import GeoJSON
import GeoModel
import TileArchive
import TileCover
import Foundation
import VectorTile

struct MVT: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mvt",
        abstract: "Vector tile tools.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a tile's layers, feature counts by type, and validation findings.",
            discussion: """
                A gzip-compressed tile (as tiles are served and stored in archives) is detected by its \
                magic number and inflated first (at most 64 MiB). With --layer, only that source layer \
                is listed, validated and printed. Exit status: 0 valid (warnings allowed), 1 the \
                validator found errors, 2 unreadable file or no such layer.
                """)

        @Argument(help: "A .mvt/.pbf file, uncompressed or gzip-compressed; or an .mbtiles or .pmtiles archive, with Z X Y.")
        var file: String

        @Argument(help: "Z X Y: the tile to read from an archive (XYZ, north at row 0); after a tile file, its address (as --z --x --y).")
        var address: [Int] = []

        @Option(help: "Only this source layer.")
        var layer: String?

        @Option(help: "Also write the layers and findings as one JSON object (schema 'graticule-mvt-inspect/1'; every finding).")
        var json: String?

        @Option(help: "Findings to print (all are counted, by rule, and all go to --json).")
        var findings = 20
        @Option(help: "Layer rows to print (all are counted, and all go to --json).")
        var maxRows = 1000

        @Flag(help: "Print the tile as a GeoJSON FeatureCollection instead (each feature's layer in the `layer` property).")
        var geojson = false

        @Option(help: "Tile zoom, for longitude/latitude output (with --x and --y).")
        var z: Int?
        @Option(help: "Tile column.")
        var x: Int?
        @Option(help: "Tile row (XYZ, north at 0).")
        var y: Int?

        /// The tile named by `Z X Y` (or `--z --x --y`), checked against the grid; nil when
        /// none is given.
        func tileID() -> TileID? {
            if !address.isEmpty {
                guard address.count == 3, z == nil, x == nil, y == nil else { fail("give the tile once, as Z X Y (or --z --x --y)") }
                guard let t = TileID(z: address[0], x: address[1], y: address[2]) else {
                    fail("\(address.map(String.init).joined(separator: "/")) is not a tile of the 2^z grid (z 0-30)")
                }
                return t
            }
            guard z != nil || x != nil || y != nil else { return nil }
            guard let z, let x, let y, let t = TileID(z: z, x: x, y: y) else {
                fail("--z, --x and --y go together and must name a tile of the 2^z grid")
            }
            return t
        }

        /// Whether `file` is a tile archive (by extension, or PMTiles' magic number).
        var isArchive: Bool { TileArchiveFile.isArchive(path: file) }

        /// One tile's stored bytes from an archive, brotli and zstd decoded (gzip is
        /// inflated by the caller, as for a tile file).
        func archiveTile(_ t: TileID) -> [UInt8] {
            let bytes: [UInt8]?
            do { bytes = try TileArchiveFile.tile(t, path: file) } catch { fail("\(file): \(error)") }
            guard let bytes else { fail("\(file): no tile \(t)") }
            return bytes
        }

        /// The tile's bytes, inflated when gzip-compressed, and a note saying so.
        func tileBytes() -> (bytes: [UInt8], note: String) {
            let raw: [UInt8]
            if isArchive {
                guard let t = tileID(), !address.isEmpty else { fail("\(file) is an archive: name the tile, mvt inspect \(file) Z X Y") }
                raw = archiveTile(t)
            } else {
                do { raw = try FileIO.readAll(file) } catch { fail("\(error)") }
            }
            guard raw.withUnsafeBytes({ Gzip.isGzip($0) }) else { return (raw, "") }
            do {
                let inflated = try Gzip.decompress(raw, limit: 64 << 20)
                return (inflated, " (gzip: \(raw.count) bytes inflated to \(inflated.count))")
            } catch {
                fail("\(file): a gzip-compressed tile that cannot be inflated: \(error)")
            }
        }

        /// A tile that is an image, or a MapLibre tile by its archive's declaration, is
        /// described, not decoded as MVT: exit 0 when it is what the archive declares, 1 when
        /// its bytes contradict the declaration (PM21) or a tile file is an image.
        func describeIfNotMVT(_ bytes: [UInt8], note: String) throws {
            let declared: String?
            do { declared = isArchive ? try TileArchiveFile.declaredType(path: file) : nil } catch { fail("\(file): \(error)") }
            let name = isArchive ? "\(file) \(address.map(String.init).joined(separator: "/"))" : file
            if declared == "mlt" {
                print("\(name): \(bytes.count) bytes\(note), a MapLibre Vector Tile (tile type mlt): not decoded")
                throw ExitCode.success
            }
            let format = TileContent.format(of: bytes)
            switch format {
            case .png, .jpeg, .webp, .avif:
                let size = TileContent.imageSize(bytes).map { "\($0)" } ?? "no dimensions (header cut short)"
                print("\(name): \(bytes.count) bytes\(note), a \(format) image, \(size)")
                if let declared, TileArchiveFile.declares(declared, image: format) {
                    print("the archive declares \(declared) tiles: not a vector tile, nothing to decode")
                    throw TileContent.imageSize(bytes) != nil ? ExitCode.success : ExitCode(1)
                }
                print(declared.map { "[PM21] the archive declares \($0) tiles, but this tile is a \(format) image" }
                      ?? "not a vector tile")
                throw ExitCode(1)
            default:
                if let declared, ["png", "jpg", "jpeg", "webp", "avif"].contains(declared.lowercased()) {
                    print("\(name): \(bytes.count) bytes\(note): [PM21] the archive declares \(declared) tiles, but this tile is not an image of a known format")
                    throw ExitCode(1)
                }
            }
        }

        /// The index of the layer --layer names; exits 2 when the tile has no such layer.
        func checkLayer(_ tile: VectorTile) -> Int? {
            guard let layer, let names = tile.layerNames() else { return nil }
            guard let i = names.firstIndex(of: layer) else {
                fail("\(file): no layer '\(layer)' (layers: \(names.joined(separator: ", ")))")
            }
            return i
        }

        func run() throws {
            guard findings >= 0 else { fail("--findings must be 0 or more, got \(findings)") }
            if geojson { return try printGeoJSON() }
            let (bytes, note) = tileBytes()
            try describeIfNotMVT(bytes, note: note)
            let (findings, layers): ([MVTFinding], [LayerSummary]) = bytes.withUnsafeBytes { raw in
                let tile = VectorTile(bytes: raw)
                let shown = checkLayer(tile)
                var findings: [MVTFinding] = []
                MVTValidator.validate(tile, storage: LayerStorage()) { f in
                    if shown == nil || f.layer == nil || f.layer == shown { findings.append(f) }
                }
                return (findings, LayerSummary.all(in: tile, named: layer) ?? [])
            }
            guard maxRows >= 0 else { fail("--max-rows must be 0 or more, got \(maxRows)") }
            // Rows for the layers shown only: a tile of a million layers costs a count each.
            let rows = layers.prefix(maxRows).map { l in
                [l.name, String(l.version), String(l.extent), String(l.features), String(l.points), String(l.lines),
                 String(l.polygons), String(l.unknown), String(l.badType), String(l.keys), String(l.values)]
            }
            let name = isArchive ? "\(file) \(address.map(String.init).joined(separator: "/"))" : file
            print("\(name): \(bytes.count) bytes\(note), \(layers.count) \(layers.count == 1 ? "layer" : "layers")"
                  + (layer.map { " (--layer \($0))" } ?? ""))
            print(TextTable.render(header: ["layer", "version", "extent", "features", "points", "lines",
                                              "polygons", "unknown", "bad type", "keys", "values"], rows: rows), terminator: "")
            if layers.count > maxRows { print("... and \(layers.count - maxRows) more layers (--max-rows N prints more)") }
            print()
            for f in findings.prefix(self.findings) { print(f) }
            if findings.count > self.findings {
                print("... and \(findings.count - self.findings) more (--findings N prints more)")
            }
            if findings.count > 1 {
                print("findings by rule: " + MVTFinding.countsByRule(findings)
                    .map { "\($0.rule) \($0.count) \($0.severity.rawValue)" }.joined(separator: ", "))
            }
            if let json { writeJSON(json, bytes: bytes.count, layers: layers, findings: findings) }
            if findings.allSatisfy({ $0.severity == .warning }) {
                print(findings.isEmpty ? "valid: no findings" : "valid, with \(findings.count) warning(s)")
            } else {
                throw ExitCode(1)
            }
        }

        /// The layers and findings as JSON: `{"schema", "file", "tile", "bytes", "layers":
        /// [{name, version, extent, features, points, lines, polygons, unknown, bad_type,
        /// keys, values}], "findings": [{severity, rule, message, offset, layer, feature}]}`.
        func writeJSON(_ path: String, bytes: Int, layers: [LayerSummary], findings: [MVTFinding]) {
            func int(_ v: Int) -> PropertyValue { .int(Int64(v)) }
            let layerValues: [PropertyValue] = layers.map { l in
                .object(PropertyList([
                    ("name", .string(l.name)), ("version", int(l.version)), ("extent", int(l.extent)),
                    ("features", int(l.features)), ("points", int(l.points)), ("lines", int(l.lines)),
                    ("polygons", int(l.polygons)), ("unknown", int(l.unknown)), ("bad_type", int(l.badType)),
                    ("keys", int(l.keys)), ("values", int(l.values)),
                ]))
            }
            let findingValues: [PropertyValue] = findings.map { f in
                .object(PropertyList([
                    ("severity", .string(f.severity.rawValue)), ("rule", .string(f.rule)), ("message", .string("\(f.error)")),
                    ("offset", int(f.error.offset)), ("layer", f.layer.map(int) ?? .null), ("feature", f.feature.map(int) ?? .null),
                ]))
            }
            let doc = PropertyValue.object(PropertyList([
                ("schema", .string("graticule-mvt-inspect/1")), ("file", .string(file)),
                ("tile", tileID().map { .string($0.description) } ?? .null), ("bytes", int(bytes)),
                ("layers", .array(layerValues)), ("findings", .array(findingValues)),
            ]))
            do { try FileIO.writeText(path, GeoJSONWriter.value(doc) + "\n") } catch { fail("cannot write \(path): \(error)") }
        }

        func printGeoJSON() throws {
            let address = tileID().map { TileAddress(z: Int($0.z), x: Int($0.x), y: Int($0.y)) }
            let bytes = tileBytes().bytes
            var features: [String] = []
            var problems: [String] = []
            bytes.withUnsafeBytes { raw in
                let layers: [Layer]
                do throws(MVTError) { layers = try VectorTile(bytes: raw).layers() } catch {
                    problems.append("\(error)"); return
                }
                _ = checkLayer(VectorTile(bytes: raw))
                for layer in layers where self.layer == nil || layer.name == self.layer {
                    let decoded = layer.geoFeatures(in: address) { index, error in
                        problems.append("layer \(layer.name) feature \(index): \(error) (skipped)")
                    }
                    for f in decoded {
                        var w = GeoJSONWriter()
                        w.writeFeature(f)
                        features.append(String(decoding: w.bytes, as: UTF8.self))
                    }
                }
            }
            print("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}")
            for p in problems { printErr(p) }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
