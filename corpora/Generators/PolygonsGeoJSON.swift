import GraticuleSupport

/// A GeoJSON FeatureCollection (RFC 7946) of clustered building footprints: small rotated
/// rectangles (about 20–200 m a side, one closed ring of five positions) with typical
/// properties, as a map's building or parcel layer holds them. Integer ids 1...count.
///
/// Deterministic: the same seed and count give the same bytes on every machine. Numbers are
/// written with 6 decimals, as for `PointsGeoJSON`.
public enum PolygonsGeoJSON {
    /// - Returns: the document's bytes (UTF-8, no BOM) and the feature count.
    public static func generate(count: Int, seed: UInt64 = 11) -> (bytes: [UInt8], items: Int) {
        var rng = SplitMix64(seed: seed)
        let clusters = PointsGeoJSON.clusters(&rng, count: count, spread: 0.02, 0.6)
        let uses = ["residential", "commercial", "industrial", "school", "retail", "garage", "church", "office"]
        var out = [UInt8]()
        out.reserveCapacity(count * 330)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put("{\"type\":\"FeatureCollection\",\"features\":[\n")
        for i in 0..<count {
            let c = clusters[rng.below(clusters.count)]
            let lon = min(179.99, max(-179.99, c.0 + rng.normal() * c.2))
            let lat = min(84.99, max(-84.99, c.1 + rng.normal() * c.2 * 0.7))
            // Half sides in degrees (about 10–100 m), and a rotation.
            let a = rng.uniform(0.0001, 0.001), b = rng.uniform(0.0001, 0.001)
            let t = rng.uniform(0, 3.141592653589793)
            let (s, k) = (SeriesTrig.sin(t), SeriesTrig.cos(t))
            let corners = [(-a, -b), (a, -b), (a, b), (-a, b), (-a, -b)].map { (x, y) in
                (lon + x * k - y * s, lat + x * s + y * k)
            }
            let use = uses[rng.below(uses.count)]
            let levels = 1 + rng.below(12)
            let score = rng.unit() * 5
            put(i == 0 ? "" : ",\n")
            put("{\"type\":\"Feature\",\"id\":\(i + 1),\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[")
            for (j, p) in corners.enumerated() {
                put(j == 0 ? "[" : ",[")
                put(PointsGeoJSON.fixed6(p.0)); put(","); put(PointsGeoJSON.fixed6(p.1)); put("]")
            }
            put("]]},\"properties\":{\"name\":\"\(use) \(i + 1)\",\"use\":\"\(use)\",\"levels\":\(levels),\"score\":")
            put(PointsGeoJSON.fixed6(score))
            put("}}")
        }
        put("\n]}\n")
        return (out, count)
    }
}
