import BenchKit
import Foundation
import GeoModel
import SourceDiff
import TileCover
@testable import Workloads
import XCTest

/// Minimal implementations of the `Workloads` protocols, written from the contract article
/// (Workloads.docc/ImplementationContract.md) without Graticule's readers: a GeoJSON parser
/// on Foundation's JSONDecoder, a vector tile decoder reading the protobuf by hand, a tile
/// cover that walks columns, and a data source that recomputes covers. Each must be `ok` on
/// the quick suite's datasets, so the article says enough to be right.
final class ContractTests: XCTestCase {
    // MARK: GeoJSON

    /// A JSON value as JSONDecoder reads it.
    indirect enum JSON: Decodable {
        case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])
        init(from decoder: Decoder) throws {
            if var a = try? decoder.unkeyedContainer() {
                var out: [JSON] = []
                while !a.isAtEnd { out.append(try a.decode(JSON.self)) }
                self = .array(out)
            } else if let o = try? decoder.container(keyedBy: Key.self) {
                var out: [String: JSON] = [:]
                for k in o.allKeys { out[k.stringValue] = try o.decode(JSON.self, forKey: k) }
                self = .object(out)
            } else {
                let c = try decoder.singleValueContainer()
                if c.decodeNil() { self = .null }
                else if let b = try? c.decode(Bool.self) { self = .bool(b) }
                else if let d = try? c.decode(Double.self) { self = .number(d) }
                else { self = .string(try c.decode(String.self)) }
            }
        }
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        var digestValue: DigestValue {
            switch self {
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .number(let d): return .number(d)
            case .string(let s): return .string(s)
            case .array(let a): return .array(a.map(\.digestValue))
            case .object(let o): return .object(o.map { ($0.key, $0.value.digestValue) })
            }
        }
        subscript(_ key: String) -> JSON? {
            if case .object(let o) = self { return o[key] }
            return nil
        }
    }

    struct MinimalGeoJSONParser: GeoJSONParsing {
        func parse(_ bytes: [UInt8]) throws -> JSON { try JSONDecoder().decode(JSON.self, from: Data(bytes)) }

        func digest(_ document: JSON, into digest: inout GeoJSONDigest) {
            /// Positions: arrays whose first element is a number; x and y are its first two.
            func positions(_ v: JSON?) {
                guard case .array(let a)? = v else { return }
                if case .number(let x)? = a.first, a.count >= 2, case .number(let y) = a[1] { digest.position(x, y); return }
                a.forEach(positions)
            }
            func geometry(_ g: JSON?) {
                guard let g, case .string(let type)? = g["type"] else { return }
                if type == "GeometryCollection" {
                    if case .array(let members)? = g["geometries"] { members.forEach(geometry) }
                } else {
                    positions(g["coordinates"])
                }
            }
            func feature(_ f: JSON) {
                digest.feature()
                geometry(f["geometry"])
                if case .object(let p)? = f["properties"] { for (k, v) in p { digest.property(k, v.digestValue) } }
            }
            switch document["type"] {
            case .string("FeatureCollection")?:
                if case .array(let fs)? = document["features"] { fs.forEach(feature) }
            case .string("Feature")?: feature(document)
            default: geometry(document)
            }
        }
    }

    // MARK: Vector tiles

    struct MinimalTileDecoder: VectorTileDecoding {
        struct Layer { var name = ""; var features: [Feature] = []; var keys: [String] = []; var values: [DigestValue] = [] }
        struct Feature { var id: UInt64?; var type: UInt8 = 0; var tags: [UInt32] = []; var geometry: [UInt32] = [] }
        struct Failure: Error {}

        /// A protobuf message's fields: (number, wire type, varint or fixed value, bytes).
        static func fields(_ b: ArraySlice<UInt8>) throws -> [(Int, Int, UInt64, ArraySlice<UInt8>)] {
            var i = b.startIndex, out: [(Int, Int, UInt64, ArraySlice<UInt8>)] = []
            func varint() throws -> UInt64 {
                var v: UInt64 = 0, shift: UInt64 = 0
                while true {
                    guard i < b.endIndex, shift < 64 else { throw Failure() }
                    let byte = b[i]; i += 1
                    v |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { return v }
                    shift += 7
                }
            }
            while i < b.endIndex {
                let key = try varint()
                let (number, wire) = (Int(key >> 3), Int(key & 7))
                switch wire {
                case 0: out.append((number, 0, try varint(), []))
                case 1, 5:
                    let n = wire == 1 ? 8 : 4
                    guard b.endIndex - i >= n else { throw Failure() }
                    var v: UInt64 = 0
                    for k in 0..<n { v |= UInt64(b[i + k]) << (8 * UInt64(k)) }
                    out.append((number, wire, v, [])); i += n
                case 2:
                    let n = Int(try varint())
                    guard n >= 0, b.endIndex - i >= n else { throw Failure() }
                    out.append((number, 2, 0, b[i..<i + n])); i += n
                default: throw Failure()
                }
            }
            return out
        }

        /// A repeated uint32 field, packed or not.
        static func append(_ f: (Int, Int, UInt64, ArraySlice<UInt8>), to list: inout [UInt32]) throws {
            if f.1 == 0 { list.append(UInt32(truncatingIfNeeded: f.2)); return }
            var i = f.3.startIndex
            while i < f.3.endIndex {
                var v: UInt64 = 0, shift: UInt64 = 0
                while true {
                    guard i < f.3.endIndex, shift < 64 else { throw Failure() }
                    let byte = f.3[i]; i += 1
                    v |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                list.append(UInt32(truncatingIfNeeded: v))
            }
        }

        func decode(_ bytes: [UInt8]) throws -> [Layer] {
            var layers: [Layer] = []
            for t in try Self.fields(bytes[...]) where t.0 == 3 && t.1 == 2 {
                var layer = Layer()
                for l in try Self.fields(t.3) {
                    switch (l.0, l.1) {
                    case (1, 2): layer.name = String(decoding: l.3, as: UTF8.self)
                    case (3, 2): layer.keys.append(String(decoding: l.3, as: UTF8.self))
                    case (4, 2):
                        var value = DigestValue.null
                        for v in try Self.fields(l.3) {
                            switch (v.0, v.1) {
                            case (1, 2): value = .string(String(decoding: v.3, as: UTF8.self))
                            case (2, 5): value = .number(Double(Float(bitPattern: UInt32(truncatingIfNeeded: v.2))))
                            case (3, 1): value = .number(Double(bitPattern: v.2))
                            case (4, 0): value = .number(Double(Int64(bitPattern: v.2)))
                            case (5, 0): value = .number(Double(v.2))
                            case (6, 0): value = .number(Double(Int64(bitPattern: (v.2 >> 1) ^ (0 &- (v.2 & 1)))))
                            case (7, 0): value = .bool(v.2 != 0)
                            default: break
                            }
                        }
                        layer.values.append(value)
                    case (2, 2):
                        var f = Feature()
                        for g in try Self.fields(l.3) {
                            switch g.0 {
                            case 1: f.id = g.2
                            case 2: try Self.append(g, to: &f.tags)
                            case 3: f.type = UInt8(truncatingIfNeeded: g.2)
                            case 4: try Self.append(g, to: &f.geometry)
                            default: break
                            }
                        }
                        layer.features.append(f)
                    default: break
                    }
                }
                layers.append(layer)
            }
            return layers
        }

        func digest(_ tile: [Layer], into digest: inout MVTDigest) {
            for layer in tile {
                digest.layer()
                for f in layer.features {
                    // MoveTo (1) and LineTo (2) move the cursor by zigzag deltas; each position
                    // reached is a vertex, a LineTo of (0, 0) none; ClosePath (7) adds none.
                    var xy: [(Int64, Int64)] = [], x: Int64 = 0, y: Int64 = 0, i = 0
                    commands: while i < f.geometry.count {
                        let c = f.geometry[i]; i += 1
                        switch c & 7 {
                        case 1, 2:
                            for _ in 0..<Int(c >> 3) {
                                guard i + 1 < f.geometry.count else { break commands }
                                let dx = Int64(Int32(bitPattern: f.geometry[i] >> 1) ^ -Int32(bitPattern: f.geometry[i] & 1))
                                let dy = Int64(Int32(bitPattern: f.geometry[i + 1] >> 1) ^ -Int32(bitPattern: f.geometry[i + 1] & 1))
                                i += 2
                                x += dx; y += dy
                                if c & 7 == 2 && dx == 0 && dy == 0 { continue }
                                xy.append((x, y))
                            }
                        case 7: continue
                        default: break commands
                        }
                    }
                    digest.feature(layer: layer.name, id: f.id, type: f.type, vertices: xy.count)
                    for (vx, vy) in xy { digest.vertex(x: vx, y: vy) }
                    var k = 0
                    while k + 1 < f.tags.count {
                        let (key, value) = (Int(f.tags[k]), Int(f.tags[k + 1]))
                        if key < layer.keys.count && value < layer.values.count {
                            digest.property(layer: layer.name, key: layer.keys[key], value: layer.values[value])
                        }
                        k += 2
                    }
                }
            }
        }
    }

    // MARK: Tile covers

    /// Closed squares, column by column: the tiles whose closed square the geometry touches.
    struct MinimalCover: TileCovering {
        func tiles(for geometry: Geometry, zoom: Int) throws -> [TileID] {
            let n = 1 << zoom
            var out = Set<TileID>()
            func unit(_ i: Int) -> (Double, Double) {
                let lat = min(max(geometry.y(i), -85.0511287798066), 85.0511287798066)
                let s = sin(lat * .pi / 180)
                return ((geometry.x(i) + 180) / 360 * Double(n), (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * Double(n))
            }
            /// The cells whose closed interval [k, k + 1] holds v: two on a grid line.
            func low(_ v: Double) -> Int { v == v.rounded(.down) ? Int(v) - 1 : Int(v.rounded(.down)) }
            func high(_ v: Double) -> Int { Int(v.rounded(.down)) }
            func add(_ xs: ClosedRange<Double>, _ ys: ClosedRange<Double>) {
                let (x0, x1, y0, y1) = (max(low(xs.lowerBound), 0), min(high(xs.upperBound), n - 1),
                                        max(low(ys.lowerBound), 0), min(high(ys.upperBound), n - 1))
                guard x0 <= x1, y0 <= y1 else { return }
                for x in x0...x1 { for y in y0...y1 { out.insert(TileID(z: zoom, x: x, y: y)!) } }
            }
            func segment(_ p: (Double, Double), _ q: (Double, Double)) {
                let (a, b) = p.0 <= q.0 ? (p, q) : (q, p)
                guard a.0 < b.0 else { return add(a.0...a.0, min(a.1, b.1)...max(a.1, b.1)) }
                for k in max(low(a.0), 0)...max(min(high(b.0), n - 1), 0) {
                    let xa = max(a.0, Double(k)), xb = min(b.0, Double(k + 1))
                    guard xa <= xb else { continue }
                    let ya = a.1 + (b.1 - a.1) * (xa - a.0) / (b.0 - a.0), yb = a.1 + (b.1 - a.1) * (xb - a.0) / (b.0 - a.0)
                    let (ylo, yhi) = (min(ya, yb), max(ya, yb))
                    let (r0, r1) = (max(low(ylo), 0), min(high(yhi), n - 1))
                    guard r0 <= r1 else { continue }
                    for y in r0...r1 { out.insert(TileID(z: zoom, x: k, y: y)!) }
                }
            }
            switch geometry.kind {
            case .point, .multiPoint:
                for i in 0..<geometry.positionCount { let p = unit(i); add(p.0...p.0, p.1...p.1) }
            case .lineString, .multiLineString:
                for part in geometry.parts where part.count > 1 {
                    for i in part.dropLast() { segment(unit(i), unit(i + 1)) }
                }
            default:
                throw CocoaError(.featureUnsupported)
            }
            return Array(out)
        }
    }

    // MARK: Data sources

    /// Features by key; every change touches the closed cover, at every indexed zoom, of what
    /// it changed.
    struct MinimalSource: SourceUpdating {
        struct Source { var features: [FeatureKey: GeoFeature] = [:]; var zooms: ClosedRange<Int> }

        func makeSource(_ features: [GeoFeature], indexZooms: ClosedRange<Int>) throws -> Source {
            var s = Source(zooms: indexZooms)
            for f in features { s.features[FeatureKey(f.id!)] = f }
            return s
        }

        func apply(_ diff: GeoJSONSourceDiff, to source: inout Source) throws -> Set<TileID> {
            var touched = Set<TileID>()
            func cover(_ g: Geometry?) {
                guard let g else { return }
                for z in source.zooms { touched.formUnion(TileCoverage.tiles(for: g, zoom: z)) }
            }
            if diff.removeAll {
                source.features.values.forEach { cover($0.geometry) }
                source.features = [:]
            }
            for k in diff.remove { cover(source.features.removeValue(forKey: k)?.geometry) }
            for f in diff.add {
                let k = FeatureKey(f.id!)
                cover(source.features[k]?.geometry)
                source.features[k] = f
                cover(f.geometry)
            }
            for u in diff.update {
                guard var f = source.features[u.id] else { continue }
                let before = f
                var p = f.properties ?? PropertyList()
                if u.removeAllProperties { p = PropertyList() }
                for k in u.removeProperties { p.remove(k) }
                for (k, v) in u.addOrUpdateProperties { p.set(k, v) }
                f.properties = p
                if let g = u.newGeometry { f.geometry = g }
                source.features[u.id] = f
                let samePropertyValues = p.count == (before.properties ?? PropertyList()).count
                    && p.allSatisfy { m in (before.properties?[m.key]).map { $0.sameJSONValue(as: m.value) } ?? false }
                if f.geometry != before.geometry {
                    cover(before.geometry)
                    cover(f.geometry)
                } else if !samePropertyValues {
                    cover(f.geometry)
                }
            }
            return touched
        }
    }

    // MARK: Running them

    func run(_ implementations: Implementations, filter: String) throws -> [String: MetricResult] {
        var out: [String: MetricResult] = [:]
        for r in try quickTimeResults(implementations, filter: filter) { out[r.key.implementation + " " + r.key.dataset] = r }
        return out
    }

    func assertOK(_ results: [String: MetricResult], _ prefix: String, count: Int) {
        let mine = results.filter { $0.key.hasPrefix(prefix + " ") }
        XCTAssertEqual(mine.count, count, "\(results.keys.sorted())")
        for (k, r) in mine { XCTAssertEqual(r.status, .ok, "\(k): \(r.detail)") }
    }

    func testMinimalGeoJSONParserIsOK() throws {
        var r = Implementations()
        try r.add(geoJSONParser: MinimalGeoJSONParser(), name: "minimal.geojson")
        assertOK(try run(r, filter: "geojson.parse|graticule|generated/points,geojson.parse|minimal.geojson"), "minimal.geojson", count: 1)
    }

    func testMinimalTileDecoderIsOK() throws {
        var r = Implementations()
        try r.add(tileDecoder: MinimalTileDecoder(), name: "minimal.mvt")
        assertOK(try run(r, filter: "mvt.decode|graticule|generated/tiles,mvt.decode|minimal.mvt"), "minimal.mvt", count: 1)
    }

    func testMinimalSourceIsOK() throws {
        var r = Implementations()
        try r.add(sourceUpdater: MinimalSource(), name: "minimal.source")
        let results = try run(r, filter: "source.update|graticule|generated/source-points-10k,source.update|minimal.source|generated/source-points-10k")
        XCTAssertFalse(results.filter { $0.key.hasPrefix("minimal.") }.isEmpty, "\(results.keys.sorted())")
        for (k, v) in results where k.hasPrefix("minimal.") { XCTAssertEqual(v.status, .ok, "\(k): \(v.detail)") }
    }

    func testMinimalCoverIsOKOnPointsAndLines() throws {
        var r = Implementations()
        try r.add(tileCover: MinimalCover(), name: "minimal.cover")
        let results = try run(r, filter: "tilecover.points|graticule,tilecover.points|minimal.cover,tilecover.lines|graticule|generated/random-walk,tilecover.lines|minimal.cover|generated/random-walk")
        let mine = results.filter { $0.key.hasPrefix("minimal.") }
        XCTAssertGreaterThanOrEqual(mine.count, 2, "\(results.keys.sorted())")
        for (k, v) in mine { XCTAssertEqual(v.status, .ok, "\(k): \(v.detail)") }
    }
}

private extension Geometry {
    /// The position index ranges of a line geometry's parts.
    var parts: [Range<Int>] {
        guard !partStarts.isEmpty else { return [0..<positionCount] }
        return partStarts.indices.map { partStarts[$0]..<($0 + 1 < partStarts.count ? partStarts[$0 + 1] : positionCount) }
    }
}
