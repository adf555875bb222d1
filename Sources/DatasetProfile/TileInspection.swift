import GeoJSON
import GeoModel
import TileCover
import VectorTile

/// One vector tile inspected, as `graticule mvt inspect` shows it: a summary per layer and
/// every validation finding (MVT 2.1), for the whole tile or one source layer.
public struct TileInspection: Sendable {
    /// The layers summarised (the one named, when a layer is asked for).
    public let layers: [LayerSummary]
    /// The findings: the tile's own and those of the layers summarised.
    public let findings: [MVTFinding]

    /// Why a tile cannot be inspected as asked.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The tile has no layer of this name (its layers are listed).
        case noSuchLayer(String, layers: [String])

        public var description: String {
            switch self {
            case .noSuchLayer(let name, let layers): return "no layer '\(name)' (layers: \(layers.joined(separator: ", ")))"
            }
        }
    }

    /// Inspects `bytes` (an uncompressed tile), layer by layer in bounded memory; with
    /// `layer`, that source layer alone (the findings about other layers are left out).
    ///
    /// - Throws: `Failure.noSuchLayer` when `layer` names none of the tile's layers (a tile
    ///   whose layers cannot be listed is inspected whole, its findings saying why).
    public init(bytes: [UInt8], layer: String? = nil) throws(Failure) {
        var result: Result<([MVTFinding], [LayerSummary]), Failure>!
        bytes.withUnsafeBytes { raw in
            let tile = VectorTile(bytes: raw)
            var shown: Int?
            if let layer, let names = tile.layerNames() {
                guard let i = names.firstIndex(of: layer) else { result = .failure(.noSuchLayer(layer, layers: names)); return }
                shown = i
            }
            var findings: [MVTFinding] = []
            MVTValidator.validate(tile, storage: LayerStorage()) { f in
                if shown == nil || f.layer == nil || f.layer == shown { findings.append(f) }
            }
            result = .success((findings, LayerSummary.all(in: tile, named: layer) ?? []))
        }
        (findings, layers) = try result.get()
    }

    /// Whether the tile is valid: no finding but warnings.
    public var isValid: Bool { findings.allSatisfy { $0.severity == .warning } }

    /// The inspection as one JSON object (schema `graticule-mvt-inspect/1`): `{"schema",
    /// "file", "tile", "bytes", "layers": [{name, version, extent, features, points, lines,
    /// polygons, unknown, bad_type, keys, values}], "findings": [{severity, rule, message,
    /// offset, layer, feature}]}`, with a line end.
    public func json(file: String, tile: TileID?, bytes: Int) -> String {
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
            ("tile", tile.map { .string($0.description) } ?? .null), ("bytes", int(bytes)),
            ("layers", .array(layerValues)), ("findings", .array(findingValues)),
        ]))
        return GeoJSONWriter.value(doc) + "\n"
    }
}
