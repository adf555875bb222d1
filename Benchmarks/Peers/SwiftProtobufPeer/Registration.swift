import BenchKit
import Foundation
import SwiftProtobuf
import Workloads

extension SwiftProtobufPeer {
    /// Adds the swift-protobuf peer to `implementations`: `mvt.decode` (mode `tolerant`) on
    /// every tile dataset, checked against graticule's digest first, and its canonical form
    /// of each tile for the `mvt-fixtures` conformance suite. The `graticule` executable adds
    /// it; a package that embeds `GraticuleTool` does not link swift-protobuf unless it
    /// calls this.
    public static func register(in implementations: inout Implementations) throws {
        try implementations.add(peer: "swift-protobuf", register: registerDecode,
                                canonicalTile: { try canonical(Data($0)) })
    }

    /// `mvt.decode` by swift-protobuf's generated classes: the whole message tree is parsed,
    /// then walked like the protozero adapter walks it.
    static func registerDecode(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "mvt-tiles" {
            suite.add("mvt.decode", implementation: "swift-protobuf", dataset: d, parameters: ["mode": "tolerant"],
                      check: { d in try digest(d) }) { d in
                let tiles = try MVTBenchmarks.tiles(d).map { Data($0) }
                return Workload { n in
                    for _ in 0..<n {
                        var sum: Int64 = 0
                        for t in tiles { sum &+= decode(t) }
                        blackHole(sum)
                    }
                }
            }
        }
    }

    /// The digest of what swift-protobuf's generated classes read: every layer, feature,
    /// vertex (MoveTo and LineTo points, after the zigzag deltas; ClosePath adds none) and
    /// tag, with values as the digest defines them (integers and floats as doubles).
    static func digest(_ d: Dataset) throws -> ResultCheck {
        ResultCheck(digest: try digest(d, recording: false).digest,
                    locatedElements: { try digest(d, recording: true).located })
    }

    static func digest(_ d: Dataset, recording: Bool) throws -> MVTDigest {
        var digest = MVTDigest(recording: recording)
        for t in try MVTBenchmarks.tiles(d) {
            let tile = try VectorTile_Tile(serializedBytes: Data(t))
            for layer in tile.layers {
                digest.layer()
                func value(_ v: VectorTile_Tile.Value) -> DigestValue {
                    if v.hasStringValue { return .string(v.stringValue) }
                    if v.hasFloatValue { return .number(Double(v.floatValue)) }
                    if v.hasDoubleValue { return .number(v.doubleValue) }
                    if v.hasIntValue { return .number(Double(v.intValue)) }
                    if v.hasUintValue { return .number(Double(v.uintValue)) }
                    if v.hasSintValue { return .number(Double(v.sintValue)) }
                    if v.hasBoolValue { return .bool(v.boolValue) }
                    return .null
                }
                for f in layer.features {
                    var xy: [(Int64, Int64)] = []
                    let g = f.geometry
                    var i = 0, x: Int64 = 0, y: Int64 = 0
                    commands: while i < g.count {
                        let command = g[i]; i += 1
                        var count = command >> 3
                        switch command & 7 {
                        case 1, 2:
                            while count > 0 && i + 1 < g.count {
                                x &+= Int64(Int32(bitPattern: g[i] >> 1) ^ -Int32(bitPattern: g[i] & 1))
                                y &+= Int64(Int32(bitPattern: g[i + 1] >> 1) ^ -Int32(bitPattern: g[i + 1] & 1))
                                xy.append((x, y))
                                i += 2; count -= 1
                            }
                        case 7: continue
                        default: break commands
                        }
                    }
                    digest.feature(layer: layer.name, id: f.hasID ? f.id : nil, type: UInt8(truncatingIfNeeded: f.type.rawValue),
                                   vertices: xy.count)
                    for (x, y) in xy { digest.vertex(x: x, y: y) }
                    var k = 0
                    while k + 1 < f.tags.count {
                        let key = Int(f.tags[k]), val = Int(f.tags[k + 1])
                        if key < layer.keys.count && val < layer.values.count {
                            digest.property(layer: layer.name, key: layer.keys[key], value: value(layer.values[val]))
                        }
                        k += 2
                    }
                }
            }
        }
        return digest
    }
}
