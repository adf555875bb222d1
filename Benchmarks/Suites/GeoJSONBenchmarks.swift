import JSON
import BenchKit
import Foundation
import GeoJSON
import GeoModel

/// `geojson.parse`: read a GeoJSON document into memory, parameter `mode`:
/// - `whole`: the whole text in memory into a model (graticule: GeoModel);
/// - `stream-64k`: graticule's feature reader over 64 KiB reads of the same bytes (every
///   feature built, then dropped);
/// - `geometry-only`: graticule with properties skipped (validated, not built);
/// - `columnar`: graticule's column batches (`GeoJSONBatchReader`, a reused batch), every
///   property value kept; `columnar-geometry-only`: the same with properties skipped,
///   parameter `skip`: `validated` (every skipped byte checked) or `structural`
///   (simdjson's contract, `GeoJSONReadOptions.SkipContract`). The simdjson adapters'
///   `whole` and `geometry-only` runs are their peers (simdjson skips structurally).
///
/// Peers (mode `whole`): Foundation's `JSONSerialization` (untyped tree, then every number
/// walked, as a consumer must) and `JSONDecoder` into Codable GeoJSON types; Python's `json`
/// and `orjson` and C++ simdjson through the external adapters in Benchmarks/Adapters.
enum GeoJSONBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "geojson" {
            suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: ["mode": "whole"],
                      check: { d in
                          ResultCheck(digest: ResultDigests.geoJSON(try GeoJSONReader.read(try d.bytes()).object),
                                      locatedElements: { ResultDigests.geoJSONLocated(try GeoJSONReader.read(try d.bytes()).object) })
                      }) { d in
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
            suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: ["mode": "geometry-only"],
                      check: { d in
                          var options = GeoJSONReadOptions()
                          options.skipProperties = true
                          return ResultCheck(digest: ResultDigests.geoJSON(try GeoJSONReader.read(try d.bytes(), options: options).object),
                                             locatedElements: {
                                                 ResultDigests.geoJSONLocated(try GeoJSONReader.read(try d.bytes(), options: options).object)
                                             })
                      }) { d in
                let bytes = try d.bytes()
                var options = GeoJSONReadOptions()
                options.skipProperties = true
                return Workload { n in
                    for _ in 0..<n { blackHole(try? GeoJSONReader.read(bytes, options: options)) }
                }
            }
            // Columnar batches (GeoJSONBatchReader): every feature into a reused batch of
            // flat columns, 8 MiB of input per batch; the digest is read from the columns.
            // Skipped properties are checked under either contract (`skip` parameter).
            let columnarModes: [(String, GeoJSONReadOptions.SkipContract?)] =
                [("columnar", nil), ("columnar-geometry-only", .validated), ("columnar-geometry-only", .structural)]
            for (mode, contract) in columnarModes {
                var options = GeoJSONReadOptions()
                options.skipProperties = contract != nil
                options.skipContract = contract ?? .validated
                var parameters = ["mode": mode]
                if let contract { parameters["skip"] = contract.rawValue }
                suite.add("geojson.parse", implementation: "graticule", dataset: d, parameters: parameters,
                          check: { d in
                              ResultCheck(digest: try ResultDigests.geoJSON(batchesOf: try d.bytes(), options: options),
                                          locatedElements: {
                                              try ResultDigests.geoJSONLocated(batchesOf: try d.bytes(), options: options)
                                          })
                          }) { d in
                    let bytes = try d.bytes()
                    var batch = GeoJSONFeatureBatch()
                    let first = GeoJSONBatchReader(bytes: bytes, options: options)
                    while try first.next(into: &batch) {}   // fail at setup; sizes the buffers
                    return Workload { n in
                        for _ in 0..<n {
                            let reader = GeoJSONBatchReader(bytes: bytes, options: options)
                            while (try? reader.next(into: &batch)) == true { blackHole(batch.count) }
                        }
                    }
                }
            }
            // geojson.write: the model back to GeoJSON text (dataset bytes = the input file).
            // The written text is read back by graticule's reader and digested: each writer's
            // output must hold the document's features, positions and properties.
            suite.add("geojson.write", implementation: "graticule", dataset: d, check: { d in
                let doc = try GeoJSONReader.read(try d.bytes())
                var writer = GeoJSONWriter(capacity: try d.bytes().count)
                writer.write(doc.object, bbox: doc.bbox)
                return try readBack(Array(writer.bytes))
            }) { d in
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
            suite.add("geojson.write", implementation: "foundation.jsonserialization", dataset: d, check: { d in
                let tree = try JSONSerialization.jsonObject(with: Data(try d.bytes()))
                return try readBack([UInt8](try JSONSerialization.data(withJSONObject: tree)))
            }) { d in
                let tree = try JSONSerialization.jsonObject(with: Data(try d.bytes()))
                return Workload { n in
                    for _ in 0..<n { blackHole(try? JSONSerialization.data(withJSONObject: tree)) }
                }
            }
            suite.add("geojson.parse", implementation: "foundation.jsonserialization", dataset: d, parameters: ["mode": "whole"],
                      check: { d in
                          func tree(_ recording: Bool) throws -> GeoJSONDigest {
                              FoundationDigests.tree(try JSONSerialization.jsonObject(with: Data(try d.bytes())), recording: recording)
                          }
                          return ResultCheck(digest: try tree(false).digest, locatedElements: { try tree(true).located })
                      }) { d in
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
            suite.add("geojson.parse", implementation: "foundation.jsondecoder", dataset: d, parameters: ["mode": "whole"],
                      check: { d in
                          func decoded(_ recording: Bool) throws -> GeoJSONDigest {
                              FoundationDigests.codable(try JSONDecoder().decode(CodableGeoJSON.FeatureCollection.self,
                                                                                 from: Data(try d.bytes())), recording: recording)
                          }
                          return ResultCheck(digest: try decoded(false).digest, locatedElements: { try decoded(true).located })
                      }) { d in
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
    /// The digest of GeoJSON text as graticule's reader reads it (a writer's output).
    static func readBack(_ bytes: [UInt8]) throws -> ResultCheck {
        ResultCheck(digest: ResultDigests.geoJSON(try GeoJSONReader.read(bytes).object),
                    locatedElements: { ResultDigests.geoJSONLocated(try GeoJSONReader.read(bytes).object) })
    }

    /// Another implementation's `geojson.parse` (mode `whole`) on every GeoJSON dataset, its
    /// digest checked against graticule's first.
    static func registerParser<P: GeoJSONParsing>(_ parser: P, name: String, in suite: inout BenchmarkSuite,
                                                  datasets: [Dataset]) {
        for d in datasets where d.kind == "geojson" {
            suite.add("geojson.parse", implementation: name, dataset: d, parameters: ["mode": "whole"],
                      check: { d in
                          func digest(_ recording: Bool) throws -> GeoJSONDigest {
                              var digest = GeoJSONDigest(recording: recording)
                              parser.digest(try parser.parse(try d.bytes()), into: &digest)
                              return digest
                          }
                          return ResultCheck(digest: try digest(false).digest, locatedElements: { try digest(true).located })
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

/// The GeoJSON digests of Foundation's two models, so the Foundation peers are checked
/// against graticule's result like any other parser.
enum FoundationDigests {
    /// `JSONSerialization`'s untyped tree.
    static func tree(_ root: Any, recording: Bool = false) -> GeoJSONDigest {
        var d = GeoJSONDigest(recording: recording)
        func value(_ v: Any) -> DigestValue {
            if v is NSNull { return .null }
            if let n = v as? NSNumber {
                // JSON's true and false come back as NSNumber's Boolean subclass; every
                // other number is a plain NSNumber.
                return type(of: n) == NSNumber.self ? .number(n.doubleValue) : .bool(n.boolValue)
            }
            if let s = v as? String { return .string(s) }
            if let a = v as? [Any] { return .array(a.map(value)) }
            if let o = v as? [String: Any] { return .object(o.map { ($0.key, value($0.value)) }) }
            return .null
        }
        func coordinates(_ c: Any) {
            guard let a = c as? [Any] else { return }
            if let x = a.first as? NSNumber, a.count >= 2, let y = a[1] as? NSNumber {
                d.position(x.doubleValue, y.doubleValue)
            } else {
                a.forEach(coordinates)
            }
        }
        func geometry(_ g: Any) {
            guard let o = g as? [String: Any] else { return }
            if let members = o["geometries"] as? [Any] { members.forEach(geometry) }
            if let c = o["coordinates"] { coordinates(c) }
        }
        func feature(_ f: Any) {
            guard let o = f as? [String: Any] else { return }
            d.feature()
            if let g = o["geometry"] { geometry(g) }
            if let p = o["properties"] as? [String: Any] { for (k, v) in p { d.property(k, value(v)) } }
        }
        if let o = root as? [String: Any] {
            switch o["type"] as? String {
            case "FeatureCollection": (o["features"] as? [Any] ?? []).forEach(feature)
            case "Feature": feature(o)
            default: geometry(o)
            }
        }
        return d
    }

    /// `JSONDecoder`'s Codable types.
    static func codable(_ fc: CodableGeoJSON.FeatureCollection, recording: Bool = false) -> GeoJSONDigest {
        var d = GeoJSONDigest(recording: recording)
        func value(_ v: CodableGeoJSON.JSONValue) -> DigestValue {
            switch v {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .number(let n): return .number(n)
            case .string(let s): return .string(s)
            case .array(let a): return .array(a.map(value))
            case .object(let o): return .object(o.map { ($0.key, value($0.value)) })
            }
        }
        func coordinates(_ c: CodableGeoJSON.Coordinates) {
            switch c {
            case .position(let p): if p.count >= 2 { d.position(p[0], p[1]) }
            case .nested(let n): n.forEach(coordinates)
            }
        }
        func geometry(_ g: CodableGeoJSON.Geometry) {
            g.geometries?.forEach(geometry)
            if let c = g.coordinates { coordinates(c) }
        }
        for f in fc.features {
            d.feature()
            if let g = f.geometry { geometry(g) }
            for (k, v) in f.properties ?? [:] { d.property(k, value(v)) }
        }
        return d
    }
}
