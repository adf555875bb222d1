import Foundation
import SwiftProtobuf

/// Full decode of a vector tile with swift-protobuf's generated classes: parse the whole
/// message tree, then walk every layer, key, value, feature, tag and geometry command, as
/// the protozero adapter does, folding every number into a checksum.
public enum SwiftProtobufPeer {
    public static func decode(_ data: Data) -> Int64 {
        guard let tile = try? VectorTile_Tile(serializedBytes: data) else { return 1 }
        var sum: Int64 = 0
        for layer in tile.layers {
            sum &+= Int64(layer.name.utf8.count) &+ Int64(layer.version) &+ Int64(layer.extent)
            for k in layer.keys { sum &+= Int64(k.utf8.count) }
            for v in layer.values {
                if v.hasStringValue { sum &+= Int64(v.stringValue.utf8.count) }
                if v.hasFloatValue { sum &+= Int64(v.floatValue) }
                if v.hasDoubleValue { sum &+= Int64(v.doubleValue) }
                if v.hasIntValue { sum &+= v.intValue }
                if v.hasUintValue { sum &+= Int64(truncatingIfNeeded: v.uintValue) }
                if v.hasSintValue { sum &+= v.sintValue }
                if v.hasBoolValue { sum &+= v.boolValue ? 1 : 0 }
            }
            for f in layer.features {
                sum &+= Int64(truncatingIfNeeded: f.id) &+ Int64(f.type.rawValue)
                for t in f.tags { sum &+= Int64(t) }
                let g = f.geometry
                var i = 0, x: Int64 = 0, y: Int64 = 0
                while i < g.count {
                    let command = g[i]; i += 1
                    let id = command & 7
                    var count = command >> 3
                    if id == 1 || id == 2 {
                        while count > 0 && i + 1 < g.count {
                            x &+= Int64((Int32(bitPattern: g[i] >> 1)) ^ -Int32(bitPattern: g[i] & 1))
                            y &+= Int64((Int32(bitPattern: g[i + 1] >> 1)) ^ -Int32(bitPattern: g[i + 1] & 1))
                            sum &+= x ^ y
                            i += 2; count -= 1
                        }
                    } else if id == 7 {
                        sum &+= 1
                    } else {
                        break
                    }
                }
            }
        }
        return sum
    }

    /// The tile in the canonical text form of the `mvt-fixtures` conformance suite (layer,
    /// keys, values, then each feature's id, type, raw tags and raw geometry), from the
    /// generated classes; throws what swift-protobuf throws.
    public static func canonical(_ data: Data) throws -> String {
        let tile = try VectorTile_Tile(serializedBytes: data)
        var out = ""
        for l in tile.layers {
            out += "layer \(l.name) v\(l.version) extent \(l.extent)\n"
            out += "keys " + l.keys.map { "\"\($0)\"" }.joined(separator: " ") + "\n"
            out += "values " + l.values.map { v -> String in
                if v.hasStringValue { return "string:\"\(v.stringValue)\"" }
                if v.hasFloatValue { return "float:\(v.floatValue)" }
                if v.hasDoubleValue { return "double:\(v.doubleValue)" }
                if v.hasIntValue { return "int:\(v.intValue)" }
                if v.hasUintValue { return "uint:\(v.uintValue)" }
                if v.hasSintValue { return "sint:\(v.sintValue)" }
                if v.hasBoolValue { return "bool:\(v.boolValue)" }
                return "none:?"
            }.joined(separator: " ") + "\n"
            for f in l.features {
                let tags = f.tags.map(String.init).joined(separator: ",")
                let geom = f.geometry.map(String.init).joined(separator: ",")
                out += "feature \(f.hasID ? "id \(f.id)" : "no-id") type \(f.type.rawValue) tags [\(tags)] geometry [\(geom)]\n"
            }
        }
        return out
    }
}
