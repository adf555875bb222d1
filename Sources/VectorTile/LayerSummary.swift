import GeoModel

/// One layer at a glance: name, version, extent, and how many features of each geometry type,
/// keys and values it holds (`graticule mvt inspect`'s table and JSON).
public struct LayerSummary: Equatable, Sendable {
    public var name: String
    public var version: Int
    public var extent: Int
    public var features: Int
    public var points = 0, lines = 0, polygons = 0
    /// Features of type UNKNOWN (0), and features whose type is none of the four.
    public var unknown = 0, badType = 0
    public var keys: Int
    public var values: Int

    /// Counts `layer`'s features by type (one pass over the feature records).
    public init(_ layer: Layer) {
        name = layer.name
        version = Int(layer.version)
        extent = Int(layer.extent)
        features = layer.featureCount
        keys = layer.keys.count
        values = layer.values.count
        layer.forEachFeature { (f: Feature) in
            switch f.type {
            case .point?: points += 1
            case .lineString?: lines += 1
            case .polygon?: polygons += 1
            case .unknown?: unknown += 1
            case nil: badType += 1
            }
        }
    }
}

extension MVTFinding {
    /// How many findings break each rule, with the rule's severity, sorted by rule id.
    public static func countsByRule(_ findings: [MVTFinding]) -> [(rule: String, severity: MVTError.Severity, count: Int)] {
        var byRule: [String: (severity: MVTError.Severity, count: Int)] = [:]
        for f in findings { byRule[f.rule, default: (f.severity, 0)].count += 1 }
        return byRule.sorted { $0.key < $1.key }.map { ($0.key, $0.value.severity, $0.value.count) }
    }
}

extension LayerSummary {
    /// The summaries of `tile`'s layers (only those named `name`, when given), in tile
    /// order, each layer read into one storage reused for the next, so a tile of many layers
    /// keeps its summaries only. Nil when a layer cannot be read.
    public static func all(in tile: VectorTile, named name: String? = nil) -> [LayerSummary]? {
        var out: [LayerSummary] = []
        do throws(MVTError) {
            try tile.forEachLayer(storage: LayerStorage()) { l in
                if name == nil || l.name == name { out.append(LayerSummary(l)) }
            }
        } catch { return nil }
        return out
    }
}

extension VectorTile {
    /// The names of the tile's layers, in order, each layer read into one reused storage;
    /// nil when a layer cannot be read.
    public func layerNames() -> [String]? {
        var names: [String] = []
        do throws(MVTError) { try forEachLayer(storage: LayerStorage()) { names.append($0.name) } } catch { return nil }
        return names
    }
}

extension Layer {
    /// Every feature of the layer as a GeoModel feature, in order: its id, its geometry
    /// (longitude and latitude when `address` names the tile, tile coordinates otherwise;
    /// decoded tolerantly) and its tags as properties after a first property `layer` holding
    /// the layer's name. A feature that cannot be decoded is left out and given to
    /// `skipped` with its index and error.
    public func geoFeatures(in address: TileAddress?, skipped: (_ index: Int, _ error: MVTError) -> Void) -> [GeoFeature] {
        var out: [GeoFeature] = []
        var index = 0
        forEachFeature { (f: Feature) in
            defer { index += 1 }
            do throws(MVTError) {
                var props = PropertyList()
                props.append(key: "layer", value: .string(name))
                try f.forEachTag { k, v in
                    props.append(key: String(decoding: keys[k], as: UTF8.self), value: values[v].propertyValue)
                }
                let g = try f.geometry(in: address, extent: extent, mode: .tolerant)
                out.append(GeoFeature(id: f.hasID ? .uint(f.id) : nil, geometry: g, properties: props))
            } catch {
                skipped(index, error)
            }
        }
        return out
    }
}
