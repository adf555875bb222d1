import BenchKit
import Foundation

/// `json.parse`: parse a whole GeoJSON document into memory.
///
/// Implementations here are the peers Swift users have today: Foundation's
/// `JSONSerialization` (untyped tree) and `JSONDecoder` into Codable GeoJSON types.
/// Python's `json` and `orjson` join through the external adapters in Benchmarks/Adapters.
/// Graticule's own parser registers here when the GeoJSON module has one.
enum JSONBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "geojson" {
            suite.add("json.parse", implementation: "foundation.jsonserialization", dataset: d) { d in
                let data = Data(try d.bytes())
                return Workload { n in
                    for _ in 0..<n {
                        blackHole(try? JSONSerialization.jsonObject(with: data))
                    }
                }
            }
            suite.add("json.parse", implementation: "foundation.jsondecoder", dataset: d) { d in
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
