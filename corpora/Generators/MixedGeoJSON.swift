import GraticuleSupport

/// A map's worth of mixed GeoJSON features, streamed: clustered points (shops, stops),
/// road-like polylines (a heading that turns slowly, like a street), building-like
/// polygons (small rotated rectangles, some with a courtyard hole) and country-like
/// polygons (hundreds of vertices on a wobbly outline, with lakes as holes), each with the
/// property set such a feature typically carries.
///
/// Output goes to `sink` in pieces of about 64 KiB, so a file of any size can be written
/// with bounded memory. The same seed gives the same bytes on every machine: coordinates
/// are written with `PointsGeoJSON.fixed6` (integer arithmetic), and the only trigonometry
/// is `SeriesTrig`.
public enum MixedGeoJSON {
    public enum Format: String, Sendable, CaseIterable {
        /// One FeatureCollection.
        case featureCollection = "geojson"
        /// RFC 8142 text sequence: RS, feature, LF.
        case sequence = "seq"
        /// Newline-delimited features.
        case newlineDelimited = "ndjson"
    }

    /// Writes features until `count` features or `bytes` bytes (whichever comes first; a nil
    /// `count` or 0 `bytes` sets no limit; a `count` of 0 writes an empty collection or
    /// sequence) have been written. Returns (features, bytes).
    @discardableResult
    public static func generate(count: Int?, bytes: Int = 0, seed: UInt64 = 7, format: Format = .featureCollection,
                                sink: ([UInt8]) throws -> Void) rethrows -> (features: Int, bytes: Int) {
        var rng = SplitMix64(seed: seed)
        let cities = (0..<64).map { _ in (rng.uniform(-170, 170), rng.uniform(-55, 70), rng.uniform(0.02, 0.6)) }
        var out = [UInt8]()
        out.reserveCapacity(80_000)
        var total = 0
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        func flush(force: Bool) throws {
            if force || out.count >= 65_536 { total += out.count; try sink(out); out.removeAll(keepingCapacity: true) }
        }
        func coord(_ lon: Double, _ lat: Double) {
            put("["); put(PointsGeoJSON.fixed6(min(179.999999, max(-179.999999, lon))))
            put(","); put(PointsGeoJSON.fixed6(min(84.999999, max(-84.999999, lat)))); put("]")
        }
        func ring(_ pts: [(Double, Double)]) {
            put("[")
            for (i, p) in pts.enumerated() { if i > 0 { put(",") }; coord(p.0, p.1) }
            put(","); coord(pts[0].0, pts[0].1); put("]")
        }
        /// A closed outline around (cx, cy): `n` vertices at a radius wobbling by `wobble`.
        /// Counter-clockwise when `ccw` (RFC 7946 §3.1.6 exteriors), clockwise otherwise.
        func outline(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int, _ wobble: Double, ccw: Bool) -> [(Double, Double)] {
            (0..<n).map { k in
                let a = 6.283185307179586 * Double(ccw ? k : n - k) / Double(n)
                let rr = r * (1 + wobble * (rng.unit() - 0.5))
                return (cx + rr * SeriesTrig.cos(a), cy + rr * 0.7 * SeriesTrig.sin(a))
            }
        }
        let amenities = ["cafe", "fuel", "school", "pharmacy", "bus_stop", "bank", "restaurant", "post_office"]
        let roads = ["motorway", "trunk", "primary", "secondary", "tertiary", "residential", "service", "track"]
        let surfaces = ["asphalt", "concrete", "gravel", "paved", "unpaved"]
        let uses = ["residential", "commercial", "industrial", "retail", "school", "church"]

        switch format {
        case .featureCollection: put("{\"type\":\"FeatureCollection\",\"features\":[\n")
        default: break
        }
        var n = 0
        while (count.map { n < $0 } ?? true) && (bytes == 0 || total + out.count < bytes) {
            let c = cities[rng.below(cities.count)]
            let x = c.0 + rng.normal() * c.2, y = c.1 + rng.normal() * c.2 * 0.7
            let id = n + 1
            switch format {
            case .featureCollection: if n > 0 { put(",\n") }
            case .sequence: put("\u{1E}")
            case .newlineDelimited: break
            }
            put("{\"type\":\"Feature\",\"id\":\(id),\"geometry\":")
            let kind = rng.below(100)
            if kind < 45 {
                put("{\"type\":\"Point\",\"coordinates\":"); coord(x, y)
                let a = amenities[rng.below(amenities.count)]
                put("},\"properties\":{\"amenity\":\"\(a)\",\"name\":\"\(a) \(id)\",\"opening_hours\":\"Mo-Fr 0\(7 + rng.below(3)):00-1\(7 + rng.below(3)):00\",\"wheelchair\":\(rng.below(2) == 0)}}")
            } else if kind < 75 {
                let v = 2 + rng.below(rng.below(10) == 0 ? 400 : 30)
                put("{\"type\":\"LineString\",\"coordinates\":[")
                var px = x, py = y, heading = rng.uniform(0, 6.283185307179586)
                for k in 0..<v {
                    if k > 0 { put(",") }
                    coord(px, py)
                    heading += rng.normal() * 0.2
                    let d = 0.0002 + rng.unit() * 0.001
                    px += d * SeriesTrig.cos(heading); py += d * SeriesTrig.sin(heading)
                }
                let r = roads[rng.below(roads.count)]
                put("]},\"properties\":{\"highway\":\"\(r)\",\"name\":\"\(r.capitalized1) Road \(rng.below(900))\",\"lanes\":\(1 + rng.below(4)),\"maxspeed\":\(30 + 10 * rng.below(10)),\"surface\":\"\(surfaces[rng.below(surfaces.count)])\",\"oneway\":\(rng.below(3) == 0)}}")
            } else if kind < 99 {
                let w = 0.00005 + rng.unit() * 0.0003, h = 0.00005 + rng.unit() * 0.0003
                put("{\"type\":\"Polygon\",\"coordinates\":[")
                ring([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
                if w > 0.0002 && h > 0.0002 {
                    put(","); ring([(x + w * 0.3, y + h * 0.3), (x + w * 0.3, y + h * 0.7), (x + w * 0.7, y + h * 0.7), (x + w * 0.7, y + h * 0.3)])
                }
                put("]},\"properties\":{\"building\":\"\(uses[rng.below(uses.count)])\",\"height\":\(3 + rng.below(60)),\"levels\":\(1 + rng.below(20)),\"addr:housenumber\":\"\(1 + rng.below(300))\"}}")
            } else {
                let r = 1 + rng.unit() * 6
                put("{\"type\":\"Polygon\",\"coordinates\":[")
                ring(outline(x, y, r, 200 + rng.below(600), 0.3, ccw: true))
                for _ in 0..<rng.below(4) {
                    put(","); ring(outline(x + (rng.unit() - 0.5) * r, y + (rng.unit() - 0.5) * r * 0.5, r * 0.08, 24, 0.2, ccw: false))
                }
                put("]},\"properties\":{\"admin_level\":2,\"name\":\"Country \(id)\",\"iso_a3\":\"C\(id % 100)\",\"population\":\(rng.below(100_000_000)),\"tags\":{\"source\":\"generated\",\"capital\":\"City \(id)\"}}}")
            }
            if format != .featureCollection { put("\n") }
            n += 1
            try flush(force: false)
        }
        if format == .featureCollection { put("\n]}\n") }
        try flush(force: true)
        return (n, total)
    }
}

extension String {
    /// First letter upper-cased (ASCII), as road names are.
    var capitalized1: String {
        guard let f = first else { return self }
        return String(f).uppercased() + dropFirst()
    }
}
