import XCTest
import CorpusGenerators
import DatasetProfile
import Foundation
import GeoModel
import TileArchive

final class DatasetProfileTests: XCTestCase {
    /// A text sequence with a feature, a bare geometry and a broken element: both readable
    /// elements are counted, the broken one is a located finding (RFC 8142 §2.4), not lost.
    func testSequenceCountsFeaturesAndReportsBrokenElements() throws {
        let path = temporaryPath("three.geojsons")
        let text = "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"a\":1,\"b\":2}}\n"
            + "\u{1E}{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}\n"
            + "\u{1E}{\"type\":\"Point\",\"coordinates\":[1,\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var p = DatasetProfile(zoom: 2, keep: 5)
        try p.profile(path: path)
        XCTAssertEqual(p.format, "GeoJSON text sequence (RFC 8142)")
        XCTAssertEqual(p.features, 2)
        XCTAssertEqual(p.byType, ["Point": 1, "LineString": 1])
        XCTAssertEqual(p.vertices.total, 3)
        XCTAssertEqual(p.properties.total, 2)
        XCTAssertEqual(p.keyCounts, ["a": 1, "b": 1])
        XCTAssertEqual(p.errors, 1)
        XCTAssertTrue(p.shown.first?.hasPrefix("error: element 2") ?? false, "\(p.shown)")
        XCTAssertTrue(p.csv().contains("\ncount,features,2\n"))
        XCTAssertTrue(p.heatmapGeoJSON().contains("\"count\":"))
        // The JSON form holds the same figures.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(p.json(path: path).utf8)) as? [String: Any])
        XCTAssertEqual(json["schema"] as? String, "graticule-profile/2")
        XCTAssertEqual((json["units"] as? [String: String])?["property_keys"], "features that have the key")
        XCTAssertEqual((json["counts"] as? [String: Any])?["features"] as? Int, 2)
        XCTAssertEqual(json["geometry_types"] as? [String: Int], ["Point": 1, "LineString": 1])
        XCTAssertEqual((json["vertices"] as? [String: Any])?["total"] as? Int, 3)
        XCTAssertEqual((json["findings"] as? [String: Any])?["errors"] as? Int, 1)
        XCTAssertEqual(((json["vertices"] as? [String: Any])?["log2_buckets"] as? [Int])?.reduce(0, +), 2)
    }

    /// Key counts are the same however features repeat, reorder or change their keys:
    /// counted by the rule itself (a dictionary, capped at 10,000 distinct keys, the rest
    /// in `otherKeys`), whatever shortcut the profile takes for repeated schemas.
    func testKeyCountsFollowTheRuleWhateverTheSchemaSequence() {
        var rng = SystemRandomNumberGenerator()
        var p = DatasetProfile(zoom: 2, keep: 0)
        var expected: [String: Int] = [:]
        var expectedOther = 0
        func count(_ k: String) {
            if expected[k] != nil || expected.count < 10_000 { expected[k, default: 0] += 1 } else { expectedOther += 1 }
        }
        var schema = ["name", "pop", "kind"]
        for n in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: schema.shuffle(using: &rng)
            case 1: schema.append("k\(n)")                        // a new key: the table fills past its cap
            case 2: schema.append(schema[0])                       // a duplicate member
            case 3: if schema.count > 1 { schema.removeLast() }
            default: break                                         // the same schema again
            }
            if schema.count > 12 { schema.remove(at: Int.random(in: 0..<schema.count, using: &rng)) }
            let list = PropertyList(schema.map { (key: $0, value: PropertyValue.int(1)) })
            p.addFeature(GeoFeature(geometry: nil, properties: list))
            schema.forEach(count)
        }
        for k in 0..<10_010 { p.addFeature(GeoFeature(geometry: nil, properties: ["d\(k)": .null])); count("d\(k)") }
        XCTAssertEqual(p.keyCounts.count, 10_000)
        XCTAssertEqual(p.keyCounts, expected)
        XCTAssertEqual(p.otherKeys, expectedOther)
        XCTAssertGreaterThan(expectedOther, 0, "the cap is reached")
    }

    /// A profile of consecutive parts merged in order equals the profile of the whole:
    /// counts, histograms, coverage, the capped key table (crossing its cap inside a later
    /// part) and the first findings kept.
    func testMergedPartsEqualOnePass() {
        var rng = SystemRandomNumberGenerator()
        var features: [GeoFeature] = []
        for n in 0..<6_000 {
            // Many new keys, so the 10,000-key cap is crossed partway.
            let names = ["name", "k\(n)", "j\(n)", "z\(n % 50)"].shuffled(using: &rng)
            let point = Geometry(kind: .point, coordinates: [Double(n % 360) - 180, Double(n % 170) - 85])
            features.append(GeoFeature(geometry: n % 7 == 0 ? nil : point,
                                       properties: PropertyList(names.map { (key: $0, value: PropertyValue.int(1)) })))
        }
        func profile(_ fs: ArraySlice<GeoFeature>, findingsAt: Set<Int>) -> DatasetProfile {
            var p = DatasetProfile(zoom: 3, keep: 4)
            for (i, f) in zip(fs.indices, fs) {
                p.addFeature(f)
                if findingsAt.contains(i) { p.finding(error: i % 2 == 0, "finding at \(i)") }
            }
            return p
        }
        let findings: Set<Int> = [10, 2_000, 2_001, 3_500, 4_000, 5_999]
        let whole = profile(features[...], findingsAt: findings)
        XCTAssertGreaterThan(whole.otherKeys, 0, "the cap is crossed")
        for parts in [2, 3, 7] {
            var cuts = (1..<parts).map { _ in Int.random(in: 1..<features.count, using: &rng) }.sorted()
            cuts = [0] + cuts + [features.count]
            var merged = profile(features[cuts[0]..<cuts[1]], findingsAt: findings)
            for k in 1..<parts { merged.merge(profile(features[cuts[k]..<cuts[k + 1]], findingsAt: findings)) }
            XCTAssertEqual(merged.csv(), whole.csv(), "cut at \(cuts)")
            XCTAssertEqual(merged.json(path: "x"), whole.json(path: "x"), "cut at \(cuts)")
            XCTAssertEqual(merged.keyCounts, whole.keyCounts)
            XCTAssertEqual(merged.otherKeys, whole.otherKeys)
            XCTAssertEqual(merged.shown, whole.shown)
        }
    }

    /// Every tile of z0–z4 (341) as a gzip PMTiles archive with leaf directories of
    /// `leafSize` entries; every `brokenEvery`-th tile is a truncated tile (a finding).
    func archiveWithBrokenTiles(_ name: String, leafSize: Int, brokenEvery: UInt64) throws -> String {
        let path = temporaryPath(name)
        let w = try PMTilesWriter(path: path, tileCompression: .gzip, minZoom: 0, maxZoom: 4)
        w.leafSize = leafSize
        for id in UInt64(0)..<341 {
            let t = PMTiles.tile(id: id)!
            let raw = id % brokenEvery == 5 ? [0x1A, 0x05, 0x0A] : SyntheticTiles.tile(z: Int(t.z), x: Int(t.x), y: Int(t.y), density: 0.05)
            try w.add(t, data: Gzip.compress(raw))
        }
        try w.finish(metadataJSON: "{}")
        return path
    }

    /// `jobs` threads over a PMTiles archive (leaf directories, valid and broken tiles)
    /// give exactly the figures of one job, findings included in order.
    func testJobsGiveTheFiguresOfOneJob() throws {
        let path = try archiveWithBrokenTiles("jobs.pmtiles", leafSize: 40, brokenEvery: 37)
        func run(_ jobs: Int) throws -> DatasetProfile {
            var p = DatasetProfile(zoom: 4, keep: 5)
            try p.profile(path: path, jobs: jobs)
            return p
        }
        let one = try run(1)
        XCTAssertEqual(one.tiles, 341)
        XCTAssertGreaterThan(one.errors, 5, "the broken tiles are findings")
        for jobs in [2, 3, 4, 7, 64] {
            let many = try run(jobs)
            XCTAssertEqual(many.csv(), one.csv(), "jobs \(jobs)")
            XCTAssertEqual(many.json(path: path), one.json(path: path), "jobs \(jobs)")
            XCTAssertEqual(many.shown, one.shown, "jobs \(jobs)")
        }
    }

    /// Shard files (through their JSON form, given in any order) merge into exactly the
    /// profile of one run; sets that are incomplete, repeat a shard, mix datasets, options
    /// or versions are refused with the reason.
    func testShardFilesMergeIntoOneRunAndBadSetsAreRefused() throws {
        let path = try archiveWithBrokenTiles("shards.pmtiles", leafSize: 30, brokenEvery: 41)
        var one = DatasetProfile(zoom: 4, keep: 3)
        try one.profile(path: path)
        let dataset = try DatasetProfile.shardDataset(path: path)
        func shards(_ n: Int, zoom: Int = 4) throws -> [DatasetProfile.Shard] {
            try (0..<n).map { i in
                var p = DatasetProfile(zoom: zoom, keep: 3)
                try p.profile(path: path, shard: (i, n))
                let data = try JSONEncoder().encode(p.shard(index: i, count: n, dataset: dataset))
                return try JSONDecoder().decode(DatasetProfile.Shard.self, from: data)
            }
        }
        for n in [1, 2, 3, 5, 400] {
            let merged = try DatasetProfile(merging: try shards(n).reversed())
            XCTAssertEqual(merged.csv(), one.csv(), "\(n) shards")
            XCTAssertEqual(merged.json(path: path), one.json(path: path), "\(n) shards")
        }
        let three = try shards(3)
        func refusal(_ set: [DatasetProfile.Shard]) -> String {
            do { _ = try DatasetProfile(merging: set); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertTrue(refusal([three[0], three[2]]).contains("missing: 1"))
        XCTAssertTrue(refusal([three[0], three[1], three[1], three[2]]).contains("given twice: 1"))
        var other = three[1]
        other.dataset.fingerprint = "0"
        XCTAssertTrue(refusal([three[0], other, three[2]]).contains("different datasets"))
        var version = three[2]
        version.schema = "graticule-profile-shard/0"
        XCTAssertTrue(refusal([three[0], three[1], version]).contains("expected graticule-profile-shard/2"))
        XCTAssertTrue(refusal([three[0], try shards(3, zoom: 2)[1], three[2]]).contains("different options"))
        XCTAssertTrue(refusal([]).contains("no shard files"))
        var p = DatasetProfile(zoom: 4, keep: 3)
        XCTAssertThrowsError(try p.profile(path: path, shard: (3, 2)))
    }

    /// A tile folder laid out z/x/y: every tile counted at its zoom, generated tiles valid.
    func testTileFolderCountsTilesByZoom() throws {
        let root = temporaryPath("tiles")
        for (z, x, y) in [(1, 0, 1), (1, 1, 1), (2, 3, 2)] {
            let dir = "\(root)/\(z)/\(x)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Data(SyntheticTiles.tile(z: z, x: x, y: y, density: 0.05)).write(to: URL(fileURLWithPath: "\(dir)/\(y).mvt"))
        }
        var p = DatasetProfile(zoom: 1, keep: 5)
        try p.profile(path: root)
        XCTAssertEqual(p.format, "tile folder")
        XCTAssertEqual(p.tiles, 3)
        XCTAssertEqual(p.tileSizes.mapValues(\.count), [1: 2, 2: 1])
        XCTAssertEqual(p.errors, 0, "\(p.shown)")
        XCTAssertEqual(Set(p.layers.keys), ["poi", "roads", "buildings"])
        XCTAssertEqual(p.coverage.count, 2, "z2 3/2 lies in z1 1/1")
    }

    func testAMissingPathIsAFailure() {
        var p = DatasetProfile(zoom: 1, keep: 1)
        XCTAssertThrowsError(try p.profile(path: "/nonexistent/graticule")) { XCTAssertTrue($0 is DatasetProfile.Failure) }
    }

    /// Tile sizes kept as counts by size give the quantiles of the sorted sizes (rank
    /// ⌊(n − 1)·p⌋), add up exactly, and survive their shard-file form; malformed pairs
    /// are refused.
    func testSizeCountsQuantilesMergeAndPairs() {
        var rng = SystemRandomNumberGenerator()
        for n in [1, 2, 3, 10, 101, 5000] {
            let sizes = (0..<n).map { _ in UInt32.random(in: 0...(n < 50 ? 20 : 70_000), using: &rng) }
            let cut = Int.random(in: 0...n, using: &rng)
            var a = SizeCounts(), b = SizeCounts(), whole = SizeCounts()
            for s in sizes[..<cut] { a.add(s) }
            for s in sizes[cut...] { b.add(s) }
            for s in sizes { whole.add(s) }
            a.merge(b)
            XCTAssertEqual(a, whole)
            let sorted = sizes.sorted()
            func rank(_ p: Double) -> UInt32 { sorted[min(n - 1, Int(Double(n - 1) * p))] }
            let q = whole.quantiles()
            XCTAssertEqual([q.min, q.p50, q.p90, q.p99, q.max], [sorted[0], rank(0.5), rank(0.9), rank(0.99), sorted[n - 1]], "n \(n)")
            XCTAssertEqual(whole.total, sizes.reduce(0) { $0 + Int($1) })
            XCTAssertEqual(SizeCounts(pairs: whole.pairs), whole)
            XCTAssertLessThanOrEqual(whole.counts.count, n)
        }
        XCTAssertTrue(SizeCounts().quantiles() == (0, 0, 0, 0, 0))
        XCTAssertNil(SizeCounts(pairs: [[5, 1], [5, 2]]), "a size twice")
        XCTAssertNil(SizeCounts(pairs: [[5, 0]]), "no occurrences")
        XCTAssertNil(SizeCounts(pairs: [[1 << 40, 1]]), "beyond a tile size")
        XCTAssertNil(SizeCounts(pairs: [[4_000_000_000, UInt64(Int.max)]]), "the sum overflows")
    }

    func testLog2HistogramBucketsAndQuantiles() {
        var h = Log2Histogram()
        for v in [0, 1, 2, 3, 4, 100] { h.add(v) }
        XCTAssertEqual(h.count, 6)
        XCTAssertEqual(h.total, 110)
        XCTAssertEqual(h.max, 100)
        XCTAssertEqual(Array(h.buckets.prefix(8)), [1, 1, 2, 1, 0, 0, 0, 1])
        XCTAssertEqual(h.quantileUpperBound(0.5), 3)     // the third value (2) lies in bucket 2: 2...3
        XCTAssertEqual(h.quantileUpperBound(1), 100)     // bucket 7 tops at 127, capped by the max
    }

    /// Collections count their members; ids by kind; the extent spans every geometry.
    func testFeatureStatisticsCountsMembersIdsAndExtent() {
        var s = FeatureStatistics()
        let point = Geometry(kind: .point, coordinates: [1, 2], partStarts: [0])
        let line = Geometry(kind: .lineString, coordinates: [0, 0, 3, -1], partStarts: [0])
        var collection = Geometry(kind: .geometryCollection, coordinates: [], partStarts: [])
        collection.geometries = [point, line]
        s.add(GeoFeature(id: .string("a"), geometry: collection, properties: ["k": .int(1), "l": .null]))
        s.add(GeoFeature(id: .int(7), geometry: point, properties: nil))
        s.add(GeoFeature(id: nil, geometry: nil, properties: ["k": .bool(true)]))
        XCTAssertEqual(s.features, 3)
        XCTAssertEqual(s.nullGeometries, 1)
        XCTAssertEqual(s.byType, ["GeometryCollection": 1, "Point": 2, "LineString": 1])
        XCTAssertEqual(s.positions, 4)
        XCTAssertEqual(s.maxPositionsPerFeature, 3)
        XCTAssertEqual(s.properties, 3)
        XCTAssertEqual(s.maxPropertiesPerFeature, 2)
        XCTAssertEqual(s.ids, ["string": 1, "number": 1, "none": 1])
        XCTAssertEqual(s.rows().first { $0.0 == "bbox" }?.1, "0.0 -1.0 3.0 2.0")
    }
}
