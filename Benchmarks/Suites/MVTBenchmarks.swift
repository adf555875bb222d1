import BenchKit
import CorpusGenerators
import PBF
import VectorTile

/// `mvt.decode`: full decode of every tile of a dataset — every layer, key, value, feature,
/// tag and geometry command. `mode=tolerant` skips what the spec lets a decoder skip;
/// `mode=validating` runs the validator, which enforces every rule.
///
/// Tile datasets (kind `mvt-tiles`) hold several tiles, each preceded by its length as a
/// varint (the container `TileSet.pack` writes), so one operation decodes them all.
enum MVTBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            for mode in ["tolerant", "validating"] {
                suite.add("mvt.decode", implementation: "graticule", dataset: d, parameters: ["mode": mode]) { d in
                    let bytes = try d.bytes()
                    let ranges = try TileSet.unpack(bytes)
                    let validating = mode == "validating"
                    return Workload { n in
                        for _ in 0..<n {
                            bytes.withUnsafeBytes { raw in
                                var sink = Checksum()
                                for r in ranges {
                                    let tile = VectorTile(bytes: UnsafeRawBufferPointer(rebasing: raw[r]))
                                    if validating {
                                        sink.total &+= Int64(MVTValidator.validate(tile).count)
                                    } else {
                                        decodeTolerant(tile, into: &sink)
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

    /// Folds every decoded number into one sum so no part of the decode can be skipped.
    struct Checksum: GeometryHandler {
        var total: Int64 = 0
        mutating func point(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func linePoint(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func ringPoint(x: Int64, y: Int64) { total &+= x ^ y }
        mutating func ringEnd(_ kind: RingKind) { total &+= kind == .exterior ? 1 : 2 }
    }

    static func decodeTolerant(_ tile: VectorTile, into sink: inout Checksum) {
        guard let layers = try? tile.layers() else { sink.total &+= 1; return }
        for layer in layers {
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
}

