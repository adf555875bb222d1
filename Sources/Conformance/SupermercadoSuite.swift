import Foundation
import GeoJSON
import GeoModel
import TileCover

/// mapbox/supermercado's test fixtures (../shared/corpora/supermercado): tile-set edges and
/// union, and polygon burns (a GeoJSON input with its expected tiles).
///
/// Case kinds, found by file name so further fixtures are picked up:
/// - `fixtures/edges.txt` → `expected/edges.txt`: the boundary tiles, compared as sets.
/// - `fixtures/union.txt` → `expected/union.txt` (one GeoJSON Feature per line): compared
///   by shape: the same number of polygons, and each polygon covering the same tiles
///   (minimal mode at the tiles' zoom), whatever their vertex order.
/// - `fixtures/NAME.geojson` (or `.json`) → `expected/NAME.txt` (tiles, one zoom): a burn,
///   whose output states the counts below. Upstream's own burn case keeps its layout:
///   `fixtures/shape.geojson` → `expected/burned.txt` (z9).
///   supermercado rasterises with GDAL's all-touched rule, which differs from the closed
///   square rule at tile edges, so like the tile-cover suite this checks what the closed
///   semantics make certain (tilecover.md §6.1): every expected tile touches the geometry
///   (lies in graticule's closed cover). Tiles the geometry's interior crosses that the
///   expectation leaves out, and tiles it only touches, are counted in the detail.
public struct SupermercadoSuite: ConformanceSuite {
    public let name = "supermercado"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        let fm = FileManager.default
        let fixtures = ((try? fm.contentsOfDirectory(atPath: directory + "/fixtures")) ?? []).sorted()
        var cases: [ConformanceCase] = []
        for f in fixtures {
            let stem = f.replacingOccurrences(of: ".geojson", with: "").replacingOccurrences(of: ".json", with: "")
                .replacingOccurrences(of: ".txt", with: "")
            var expectedCandidates = ["expected/\(stem).txt", "expected/\(stem).geojson", "expected/\(stem).json"]
            // Upstream's burn test reads fixtures/shape.geojson against expected/burned.txt.
            if let upstream = Self.upstreamExpectations[stem] { expectedCandidates.append("expected/\(upstream)") }
            guard let input = fm.contents(atPath: directory + "/fixtures/" + f),
                  let ePath = expectedCandidates.first(where: { fm.fileExists(atPath: directory + "/" + $0) }),
                  let expected = fm.contents(atPath: directory + "/" + ePath) else { continue }
            let kind: String
            let rule: String
            if stem == "edges" { kind = "edges"; rule = "SM-edges" }
            else if stem == "union" { kind = "union"; rule = "SM-union" }
            else if f.hasSuffix(".txt") { continue }          // another tile-set operation: not known here
            else { kind = "burn"; rule = "TC-6.1" }
            cases.append(ConformanceCase(id: stem, rule: rule,
                                         input: Array(kind.utf8) + [0] + [UInt8](input) + [0] + [UInt8](expected),
                                         expected: .accept(output: kind == "burn" ? nil : "match")))
        }
        return cases
    }

    /// Fixtures whose expectation upstream's tests name differently from the fixture.
    static let upstreamExpectations = ["shape": "burned.txt"]

    /// `[x, y, z]` lines (JSON arrays), read with Foundation.
    static func tiles(_ bytes: ArraySlice<UInt8>) -> [TileID] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let a = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [NSNumber], a.count == 3 else { return nil }
            return TileID(z: a[2].intValue, x: a[0].intValue, y: a[1].intValue)
        }
    }

    static func geometries(_ bytes: [UInt8]) throws -> [Geometry] {
        switch try GeoJSONReader.read(bytes).object {
        case .geometry(let g): return [g]
        case .feature(let f): return f.geometry.map { [$0] } ?? []
        case .featureCollection(let fs): return fs.compactMap(\.geometry)
        }
    }

    public static var graticule: ConformanceImplementation {
        ConformanceImplementation(name: "graticule") { c in
            let parts = c.input.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return .rejected(errorClass: "fixture", detail: "bad case") }
            let kind = String(decoding: parts[0], as: UTF8.self)
            do {
                switch kind {
                case "edges":
                    let ours = Set(TileSet.edges(tiles(parts[1]))), theirs = Set(tiles(parts[2]))
                    if ours == theirs { return .accepted(output: "match") }
                    return .rejected(errorClass: "mismatch",
                                     detail: "\(ours.subtracting(theirs).count) edge tiles only here, \(theirs.subtracting(ours).count) only expected")
                case "union":
                    let input = tiles(parts[1])
                    guard let z = input.first.map({ Int($0.z) }) else { return .rejected(errorClass: "fixture", detail: "no tiles") }
                    // A union polygon's vertices are tile corners: snapped to the grid in tile
                    // space (both sides compute latitudes in floating point), its tiles are
                    // the minimal cover.
                    func shape(_ g: Geometry) -> [UInt64] {
                        let n = Double(1 << z)
                        var coords: [Double] = []
                        for i in 0..<g.positionCount {
                            coords.append((WebMercator.x(longitude: g.x(i)) * n).rounded())
                            coords.append((WebMercator.y(latitude: g.y(i)) * n).rounded())
                        }
                        let snapped = Geometry(kind: g.kind, coordinates: coords, partStarts: g.partStarts, polygonStarts: g.polygonStarts)
                        return TileCoverage.tileKeys(tileSpace: snapped, zoom: z, mode: .minimal)
                    }
                    let ours = TileSet.union(input).map(shape)
                    var theirs: [[UInt64]] = []
                    for line in parts[2].split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                        theirs += try geometries(Array(line)).map(shape)
                    }
                    let a = ours.map { $0.map(String.init).joined(separator: " ") }.sorted()
                    let b = theirs.map { $0.map(String.init).joined(separator: " ") }.sorted()
                    if a == b { return .accepted(output: "match") }
                    return .rejected(errorClass: "mismatch", detail: "\(ours.count) polygons here, \(theirs.count) expected, or different shapes")
                default:
                    let expected = Set(tiles(parts[2]))
                    guard let z = expected.first.map({ Int($0.z) }) else { return .rejected(errorClass: "fixture", detail: "no expected tiles") }
                    let gs = try geometries(Array(parts[1]))
                    var closed = Set<TileID>(), interior = Set<TileID>()
                    for g in gs {
                        closed.formUnion(TileCoverage.tiles(for: g, zoom: z))
                        interior.formUnion(TileCoverage.tiles(for: g, zoom: z, mode: .minimal))
                    }
                    let outside = expected.subtracting(closed)
                    if !outside.isEmpty {
                        let names = outside.sorted().prefix(5).map(\.description).joined(separator: " ")
                        return .rejected(errorClass: "extra",
                                         detail: "\(outside.count) of \(expected.count) expected tiles at z\(z) do not touch the geometry (\(names))")
                    }
                    let missed = interior.subtracting(expected).count
                    let touchOnly = closed.subtracting(expected).count - missed
                    // The counts travel in the output (the case accepts any output; a
                    // rejection is the failure).
                    return .accepted(output: "consistent: \(expected.count) expected tiles at z\(z), all touched; "
                        + "expectation omits \(missed) crossed and \(touchOnly) touch-only tiles")
                }
            } catch {
                return .rejected(errorClass: "invalid", detail: "\(error)")
            }
        }
    }
}
