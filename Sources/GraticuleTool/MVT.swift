import GraticuleSupport
import ArgumentParser
import BenchKit
import DatasetProfile
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

        @OptionGroup var at: TileAddressArguments

        var address: [Int] { at.address }
        func tileID() -> TileID? { at.tileID() }

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
            let inspection: TileInspection
            do { inspection = try TileInspection(bytes: bytes, layer: layer) } catch { fail("\(file): \(error)") }
            let (findings, layers) = (inspection.findings, inspection.layers)
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
            if let json {
                do { try FileIO.writeText(json, inspection.json(file: file, tile: tileID(), bytes: bytes.count)) } catch {
                    fail("cannot write \(json): \(error)")
                }
            }
            if inspection.isValid {
                print(findings.isEmpty ? "valid: no findings" : "valid, with \(findings.count) warning(s)")
            } else {
                throw ExitCode(1)
            }
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
