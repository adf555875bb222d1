import GraticuleSupport

/// A GeoJSON FeatureCollection (RFC 7946) of clustered points with typical properties, as
/// a map's point layer (shops, sensors, vehicles) holds them.
///
/// Deterministic: the same seed and count give the same bytes on every machine. Numbers are
/// written with 6 decimals (≈ 0.1 m), as most producers round coordinates.
public enum PointsGeoJSON {
    /// The most features one document is generated with: it is built in memory, about 190
    /// bytes a feature, so 10 million make about 1.9 GB.
    public static let maxCount = 10_000_000

    /// - Parameters:
    ///   - count: number of features.
    ///   - seed: generator seed.
    /// - Returns: the document's bytes (UTF-8, no BOM) and the feature count.
    public static func generate(count: Int, seed: UInt64 = 1) -> (bytes: [UInt8], items: Int) {
        generate(count: count, seed: seed, edits: 0)
    }

    /// A later snapshot of the same source: the features of `generate(count:seed:)` with
    /// `edits` of them moved (about 100 m) and their `score` changed, `edits / 10` removed
    /// and `edits / 10` new ones added after the last id. Which features change is drawn
    /// from `editSeed`; with `edits` 0 the output is `generate(count:seed:)` exactly.
    public static func generate(count: Int, seed: UInt64, edits: Int, editSeed: UInt64 = 99) -> (bytes: [UInt8], items: Int) {
        var pick = SplitMix64(seed: editSeed)
        var moved = Set<Int>(), removed = Set<Int>()
        if count > 0 {
            while moved.count < min(edits, count) { moved.insert(pick.below(count)) }
            while removed.count < min(edits / 10, count - moved.count) {
                let i = pick.below(count)
                if !moved.contains(i) { removed.insert(i) }
            }
        }
        let added = edits / 10
        var rng = SplitMix64(seed: seed)
        let clusters = Self.clusters(&rng, count: count, spread: 0.05, 1.5)
        let categories = ["cafe", "fuel", "school", "park", "hospital", "bus_stop", "shop", "bank"]
        var out = [UInt8]()
        out.reserveCapacity(count * 190)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put("{\"type\":\"FeatureCollection\",\"features\":[\n")
        var written = 0
        for i in 0..<(count + added) {
            let c = clusters[rng.below(clusters.count)]
            var lon = min(179.999999, max(-179.999999, c.0 + rng.normal() * c.2))
            var lat = min(84.999999, max(-84.999999, c.1 + rng.normal() * c.2 * 0.7))
            let cat = categories[rng.below(categories.count)]
            let rank = rng.below(10)
            let open = rng.below(2) == 0 ? "true" : "false"
            var score = rng.unit() * 5
            if removed.contains(i) { continue }
            if moved.contains(i) {
                lon = min(179.999999, max(-179.999999, lon + 0.001))
                lat = min(84.999999, max(-84.999999, lat + 0.0005))
                score = (score + 1).truncatingRemainder(dividingBy: 5)
            }
            put(written == 0 ? "" : ",\n")
            written += 1
            put("{\"type\":\"Feature\",\"id\":\(i + 1),\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            put(fixed6(lon)); put(","); put(fixed6(lat))
            put("]},\"properties\":{\"name\":\"\(cat) \(i + 1)\",\"category\":\"\(cat)\",\"rank\":\(rank),\"open\":\(open),\"score\":")
            put(fixed6(score))
            put("}}")
        }
        put("\n]}\n")
        return (out, written)
    }

    /// Cluster centres, a few dozen "cities" for `count` features: (longitude, latitude,
    /// spread in degrees), the spread drawn from `lo`...`hi`.
    static func clusters(_ rng: inout SplitMix64, count: Int, spread lo: Double, _ hi: Double) -> [(Double, Double, Double)] {
        (0..<max(1, min(48, count / 50 + 1))).map { _ in
            (rng.uniform(-170, 170), rng.uniform(-60, 70), rng.uniform(lo, hi))
        }
    }

    /// `x` with exactly six decimals, computed with integers so no platform formatting is
    /// involved.
    static func fixed6(_ x: Double) -> String {
        let scaled = Int64((abs(x) * 1_000_000).rounded())
        let whole = scaled / 1_000_000
        let frac = scaled % 1_000_000
        var f = String(frac)
        f = String(repeating: "0", count: 6 - f.count) + f
        return (x < 0 && scaled != 0 ? "-" : "") + String(whole) + "." + f
    }
}
