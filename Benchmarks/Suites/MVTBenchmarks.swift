import BenchKit
import CorpusGenerators
import GeoModel
import PBF
import VectorTile

/// `mvt.decode`: full decode of every tile of a dataset — every layer, key, value, feature,
/// tag and geometry command. `mode=tolerant` skips what the spec lets a decoder skip;
/// `mode=validating` runs the validator on every MUST rule (errors; the SHOULD-level
/// warnings, a lint with its own cost, are left out).
///
/// Tile datasets (kind `mvt-tiles`) hold several tiles, each preceded by its length as a
/// varint (the container `TileSet.pack` writes), so one operation decodes them all.
package enum MVTBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            for mode in ["tolerant", "validating"] {
                suite.add("mvt.decode", implementation: "graticule", dataset: d, parameters: ["mode": mode],
                          check: { d in try graticuleDigest(d, validating: mode == "validating") }) { d in
                    let bytes = try d.bytes()
                    let ranges = try TileSet.unpack(bytes)
                    let validating = mode == "validating"
                    // One storage for the dataset's tiles, as a pipeline decoding a stream
                    // of tiles keeps one.
                    let storage = LayerStorage()
                    return Workload { n in
                        for _ in 0..<n {
                            bytes.withUnsafeBytes { raw in
                                var sink = Checksum()
                                for r in ranges {
                                    let tile = VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r]))
                                    if validating {
                                        sink.total &+= Int64(MVTValidator.validate(tile, warnings: false, storage: storage).count)
                                    } else {
                                        decodeTolerant(tile, storage: storage, into: &sink)
                                    }
                                }
                                blackHole(sink.total)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `mvt.decode [layer=NAME]`: the tolerant decode of one source layer of every tile, as
    /// a map style reading one source layer does; the other layers are passed over by
    /// their names (`VectorTile.forEachLayer(named:storage:_:)`). `layers` names the layers
    /// asked for on every tile dataset; the generated tiles' `roads` layer is always in the
    /// full suite. A dataset none of whose tiles has the layer fails the case with a message.
    static func registerLayers(_ layers: [String], in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            var names = layers
            if d.name.hasPrefix("generated/tiles-") && !names.contains("roads") { names.append("roads") }
            for layer in names {
                suite.add("mvt.decode", implementation: "graticule", dataset: d,
                          parameters: ["mode": "tolerant", "layer": layer], quick: layers.contains(layer)) { d in
                    let bytes = try d.bytes()
                    let ranges = try TileSet.unpack(bytes)
                    let storage = LayerStorage()
                    let found = try bytes.withUnsafeBytes { raw in
                        try ranges.reduce(0) { n, r in
                            var count = 0
                            try VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r])).forEachLayer(named: layer, storage: storage) { _ in
                                count += 1
                            }
                            return n + count
                        }
                    }
                    guard found > 0 else {
                        throw MVTLayerMissing(layer: layer, dataset: d.name)
                    }
                    return Workload { n in
                        for _ in 0..<n {
                            bytes.withUnsafeBytes { raw in
                                var sink = Checksum()
                                for r in ranges {
                                    let tile = VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r]))
                                    decodeTolerant(tile, layer: layer, storage: storage, into: &sink)
                                }
                                blackHole(sink.total)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A `layer=` case on a dataset whose tiles do not have that layer.
    struct MVTLayerMissing: Error, CustomStringConvertible {
        let layer: String, dataset: String
        var description: String { "no tile of \(dataset) has a layer named '\(layer)'" }
    }

    /// `mvt.encode`: encode every feature of the dataset's tiles again (decoded to GeoModel
    /// geometries and properties in the untimed setup), one tile at a time.
    static func registerEncode(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            suite.add("mvt.encode", implementation: "graticule", dataset: d) { d in
                typealias Item = (layer: String, extent: UInt32, id: UInt64?, geometry: Geometry,
                                  properties: [(key: String, value: PropertyValue)])
                let bytes = try d.bytes()
                var tiles: [[Item]] = []
                for r in try TileSet.unpack(bytes) {
                    var items: [Item] = []
                    try bytes.withUnsafeBytes { raw in
                        for l in try VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r])).layers() {
                            try l.forEachFeature { (f: Feature) throws(MVTError) in
                                var props: [(key: String, value: PropertyValue)] = []
                                try f.forEachTag { k, v in
                                    props.append((String(decoding: l.keys[k], as: UTF8.self), l.values[v].propertyValue))
                                }
                                if let g = try f.geometry(extent: l.extent, mode: .tolerant) {
                                    items.append((l.name, l.extent, f.hasID ? f.id : nil, g, props))
                                }
                            }
                        }
                    }
                    tiles.append(items)
                }
                return Workload { n in
                    for _ in 0..<n {
                        for items in tiles {
                            var enc = MVTEncoder()
                            for it in items {
                                try? enc.addFeature(layer: it.layer, extent: it.extent, id: it.id,
                                                    geometry: it.geometry, properties: it.properties)
                            }
                            blackHole(enc.encode())
                        }
                    }
                }
            }
        }
    }

    /// The tiles of a dataset, one array each.
    package static func tiles(_ d: Dataset) throws -> [[UInt8]] {
        let bytes = try d.bytes()
        return try TileSet.unpack(bytes).map { Array(bytes[$0]) }
    }

    /// graticule's tolerant decode of every tile of the dataset, as an `MVTDigest`; with
    /// `validating`, the tiles the validator finds an error in are counted as rejected and
    /// the others digested.
    static func graticuleDigest(_ d: Dataset, validating: Bool = false) throws -> ResultCheck {
        ResultCheck(digest: try graticuleDigest(d, validating: validating, recording: false).digest,
                    locatedElements: { try graticuleDigest(d, validating: validating, recording: true).located })
    }

    static func graticuleDigest(_ d: Dataset, validating: Bool, recording: Bool) throws -> MVTDigest {
        var digest = MVTDigest(validating: validating, recording: recording)
        for tile in try tiles(d) {
            try tile.withUnsafeBytes { raw in
                if validating && MVTValidator.validate(VectorTile(bytes: raw), warnings: false).contains(where: { $0.severity != .warning }) {
                    digest.rejected()
                    return
                }
                for layer in try VectorTile(bytes: raw).layers() {
                    digest.layer()
                    let name = layer.name
                    try layer.forEachFeature { (f: Feature) throws(MVTError) in
                        var v = VertexList()
                        try f.decodeGeometry(into: &v, mode: .tolerant)
                        digest.feature(layer: name, id: f.hasID ? f.id : nil, type: UInt8(truncatingIfNeeded: f.rawType ?? 0),
                                       vertices: v.xy.count)
                        for (x, y) in v.xy { digest.vertex(x: x, y: y) }
                        try f.forEachTag { k, value in
                            digest.property(layer: name, key: String(decoding: layer.keys[k], as: UTF8.self),
                                            value: DigestValue(layer.values[value].propertyValue))
                        }
                    }
                }
            }
        }
        return digest
    }

    /// Another implementation's `mvt.decode` (mode `tolerant`) on every tile dataset, its
    /// digest checked against graticule's first.
    static func registerDecoder<D: VectorTileDecoding>(_ decoder: D, name: String, in suite: inout BenchmarkSuite,
                                                      datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            suite.add("mvt.decode", implementation: name, dataset: d, parameters: ["mode": "tolerant"],
                      check: { d in
                          func digest(_ recording: Bool) throws -> MVTDigest {
                              var digest = MVTDigest(recording: recording)
                              for t in try tiles(d) { decoder.digest(try decoder.decode(t), into: &digest) }
                              return digest
                          }
                          return ResultCheck(digest: try digest(false).digest, locatedElements: { try digest(true).located })
                      }) { d in
                let tiles = try tiles(d)
                return Workload { n in
                    for _ in 0..<n { for t in tiles { blackHole(try? decoder.decode(t)) } }
                }
            }
        }
    }

    /// Folds every decoded number into one sum so no part of the decode can be skipped.
    struct Checksum: GeometryHandler {
        var total: Int64 = 0
        mutating func point(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func linePoint(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func ringPoint(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func ringEnd(_ kind: RingKind) { total &+= kind == .exterior ? 1 : 2 }
    }

    static func decodeTolerant(_ tile: VectorTile, storage: LayerStorage, into sink: inout Checksum) {
        do throws(MVTError) {
            try tile.forEachLayer(storage: storage) { layer in decodeTolerant(layer, into: &sink) }
        } catch {
            sink.total &+= 1
        }
    }

    /// The tolerant decode of the layers named `layer` only.
    static func decodeTolerant(_ tile: VectorTile, layer name: String, storage: LayerStorage, into sink: inout Checksum) {
        do throws(MVTError) {
            try tile.forEachLayer(named: name, storage: storage) { layer in decodeTolerant(layer, into: &sink) }
        } catch {
            sink.total &+= 1
        }
    }

    @inline(__always)
    static func decodeTolerant(_ layer: Layer, into sink: inout Checksum) {
        sink.total &+= Int64(layer.keys.count &+ layer.values.count)
        layer.forEachFeature { (f: Feature) in
            sink.total &+= Int64(truncatingIfNeeded: f.id)
            do throws(MVTError) {
                try f.forEachTag { k, v in sink.total &+= Int64(k &* 31 &+ v) }
                try f.decodeGeometry(into: &sink, mode: .tolerant)
            } catch {
                sink.total &+= 1
            }
        }
    }
}

