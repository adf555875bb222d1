import BenchKit
import Foundation
import GeoJSON
import GeoModel

/// `geojson.parse`: read a GeoJSON document into memory, parameter `mode`:
/// - `whole`: the whole text in memory into a model (graticule: GeoModel);
/// - `stream-64k`: graticule's feature reader over 64 KiB reads of the same bytes (every
///   feature built, then dropped);
/// - `geometry-only`: graticule with properties skipped (validated, not built).
///
/// Peers (mode `whole`): Foundation's `JSONSerialization` (untyped tree, then every number
/// walked, as a consumer must) and `JSONDecoder` into Codable GeoJSON types; Python's `json`
/// and `orjson` and C++ simdjson through the external adapters in Benchmarks/Adapters.
enum GeoJSONBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "geojson" {
            suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: ["mode": "whole"],
                      check: { d in ResultCheck(digest: ResultDigests.geoJSON(try GeoJSONReader.read(try d.bytes()).object)) }) { d in
                let bytes = try d.bytes()
                _ = try GeoJSONReader.read(bytes)
                return Workload { n in
                    for _ in 0..<n { blackHole(try? GeoJSONReader.read(bytes)) }
                }
            }
            suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: ["mode": "stream-64k"]) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n {
                        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: 65_536))
                        while let f = try? reader.next() { blackHole(f) }
                    }
                }
            }
            suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: ["mode": "geometry-only"]) { d in
                let bytes = try d.bytes()
                var options = GeoJSONReadOptions()
                options.skipProperties = true
                return Workload { n in
                    for _ in 0..<n { blackHole(try? GeoJSONReader.read(bytes, options: options)) }
                }
            }
            // geojson.write: the model back to GeoJSON text (dataset bytes = the input file).
            suite.add("geojson.write", implementation: "graticule", dataset: d) { d in
                let doc = try GeoJSONReader.read(try d.bytes())
                var writer = GeoJSONWriter(capacity: try d.bytes().count)
                return Workload { n in
                    for _ in 0..<n {
                        writer.removeAll()
                        writer.write(doc.object, bbox: doc.bbox)
                        blackHole(writer.count)
                    }
                }
            }
            suite.add("geojson.write", implementation: "foundation.jsonserialization", dataset: d) { d in
                let tree = try JSONSerialization.jsonObject(with: Data(try d.bytes()))
                return Workload { n in
                    for _ in 0..<n { blackHole(try? JSONSerialization.data(withJSONObject: tree)) }
                }
            }
            suite.add("geojson.parse", implementation: "foundation.jsonserialization", dataset: d, parameters: ["mode": "whole"]) { d in
                let data = Data(try d.bytes())
                func walk(_ v: Any) -> Double {
                    if let n = v as? NSNumber { return n.doubleValue }
                    if let a = v as? [Any] { return a.reduce(0) { $0 + walk($1) } }
                    if let o = v as? [String: Any] { return o.values.reduce(0) { $0 + walk($1) } }
                    return 0
                }
                return Workload { n in
                    for _ in 0..<n {
                        if let tree = try? JSONSerialization.jsonObject(with: data) { blackHole(walk(tree)) }
                    }
                }
            }
            suite.add("geojson.parse", implementation: "foundation.jsondecoder", dataset: d, parameters: ["mode": "whole"]) { d in
                let data = Data(try d.bytes())
                let decoder = JSONDecoder()
                // Fail at setup, not in the loop, if the types do not fit the data.
                _ = try decoder.decode(CodableGeoJSON.FeatureCollection.self, from: data)
                return Workload { n in
                    for _ in 0..<n {
                        blackHole(try? decoder.decode(CodableGeoJSON.FeatureCollection.self, from: data))
                    }
                }
            }
        }
    }
}

extension GeoJSONBenchmarks {
    /// Another implementation's `geojson.parse` (mode `whole`) on every GeoJSON dataset, its
    /// digest checked against graticule's first.
    static func registerParser<P: GeoJSONParsing>(_ parser: P, name: String, in suite: inout BenchmarkSuite,
                                                  datasets: [Dataset]) {
        for d in datasets where d.kind == "geojson" {
            suite.add("geojson.parse", implementation: name, dataset: d, parameters: ["mode": "whole"],
                      check: { d in
                          var digest = GeoJSONDigest()
                          parser.digest(try parser.parse(try d.bytes()), into: &digest)
                          return ResultCheck(digest: digest.digest)
                      }) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n { blackHole(try? parser.parse(bytes)) }
                }
            }
        }
    }
}

/// Codable GeoJSON as Swift apps commonly write it: geometry with a type tag and nested
/// coordinate arrays, properties as a JSON value enum.
enum CodableGeoJSON {
    struct FeatureCollection: Decodable {
        var type: String
        var features: [Feature]
    }
    struct Feature: Decodable {
        var type: String
        var id: JSONValue?
        var geometry: Geometry?
        var properties: [String: JSONValue]?
    }
    enum Coordinates: Decodable {
        case position([Double])
        case nested([Coordinates])
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let p = try? c.decode([Double].self) { self = .position(p) }
            else { self = .nested(try c.decode([Coordinates].self)) }
        }
    }
    struct Geometry: Decodable {
        var type: String
        var coordinates: Coordinates?
        var geometries: [Geometry]?
    }
    enum JSONValue: Decodable {
        case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
            else { self = .object(try c.decode([String: JSONValue].self)) }
        }
    }
}
