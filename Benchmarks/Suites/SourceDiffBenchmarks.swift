import JSON
import GraticuleSupport
import BenchKit
import CorpusGenerators
import GeoJSON
import GeoModel
import SourceDiff
import TileCover

/// Data-source updates on generated point sources (`generated/source-points-N`) and
/// building-footprint polygon sources (`generated/source-polygons-N`), index over z0–14:
/// - `source.update` [k]: applying a diff of k edits (k moved, k/10 removed, k/10 added;
///   successive operations alternate the diff and its inverse, so each applies one diff of
///   size k) with the index kept up to date and the touched tiles collected, by
///   `graticule`; against `rebuild`, building the store and its index from scratch with the
///   edited features. Items = N. With a `pool` parameter, the operations cycle through that
///   many (diff, inverse) pairs of the same mix over features drawn afresh for each pair,
///   so a small diff does not find its features in cache from two operations before.
/// - `diff.compute` [k]: the streaming diff of the two snapshots' bytes (`graticule`)
///   against `parse-both`, reading both with the streaming reader.
/// - `diff.merge`: folding 60 successive diffs of 100 moves each (a minute of live updates
///   at one diff per second) into one with a `DiffMerger`.
enum SourceDiffBenchmarks {
    static let zooms = 0...14

    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        registerLive(in: &suite, datasets: datasets)
        // Polygon sources: the same edit mix from the pool, one pair (alternating, as the
        // point cases) and many; the rebuild builds the store from the source's features.
        for d in datasets where d.kind == "source-polygons" {
            let n = d.parameterCount
            registerPoolUpdates(in: &suite, d, n: n, alternating: true)
            for k in [1, 100, 10_000] where k <= n / 2 {
                // Beside graticule's one-pair case: the store rebuilt with the pair's forward
                // diff applied, its touched tiles found by comparing the two indexes.
                func edited(_ d: Dataset) throws -> (old: [GeoFeature], new: [GeoFeature]) {
                    let old = try features(try d.bytes())
                    var store = try FeatureStore(old)
                    _ = try store.apply(rotatingDiffs(old, edits: k, pairs: 1)[0].0)
                    return (old, store.keys.compactMap { store[$0] })
                }
                suite.add("source.update", implementation: "rebuild", dataset: d, parameters: ["k": String(k), "pool": "1"],
                          check: { d in
                              let (old, new) = try edited(d)
                              return touchedCheck(try rebuiltTouched(old: try FeatureStore(old, indexZooms: zooms),
                                                                     new: try FeatureStore(new, indexZooms: zooms)))
                          }) { d in
                    let new = try edited(d).new
                    return Workload { iterations in
                        for _ in 0..<iterations { blackHole((try? FeatureStore(new, indexZooms: zooms))?.count ?? -1) }
                    }
                }
            }
        }
        for d in datasets where d.kind == "source-points" {
            let n = d.parameterCount
            for k in [1, 100, 10_000] where k <= n / 2 {
                suite.add("source.update", implementation: "graticule", dataset: d, parameters: ["k": String(k)],
                          check: { d in
                              let (old, new) = try snapshots(d, edits: k)
                              var store = try FeatureStore(old, indexZooms: zooms)
                              return touchedCheck(try store.apply(FeatureStore.diff(from: store, to: try FeatureStore(new))).touchedTiles)
                          }, period: 2) { d in
                    let (old, new) = try snapshots(d, edits: k)
                    var store = try FeatureStore(old, indexZooms: zooms)
                    let forward = FeatureStore.diff(from: store, to: try FeatureStore(new))
                    let backward = FeatureStore.diff(from: try FeatureStore(new), to: store)
                    var flip = false
                    return Workload { iterations in
                        for _ in 0..<iterations {
                            let r = try? store.apply(flip ? backward : forward)
                            flip.toggle()
                            blackHole(r?.touchedTileCount ?? -1)
                        }
                    }
                }
                suite.add("source.update", implementation: "rebuild", dataset: d, parameters: ["k": String(k)],
                          check: { d in
                              let (old, new) = try snapshots(d, edits: k)
                              return touchedCheck(try rebuiltTouched(old: try FeatureStore(old, indexZooms: zooms),
                                                                     new: try FeatureStore(new, indexZooms: zooms)))
                          }) { d in
                    let (_, new) = try snapshots(d, edits: k)
                    return Workload { iterations in
                        for _ in 0..<iterations { blackHole((try? FeatureStore(new, indexZooms: zooms))?.count ?? -1) }
                    }
                }
            }
            registerPoolUpdates(in: &suite, d, n: n)
            let k = min(10_000, n / 10)
            suite.add("diff.compute", implementation: "graticule", dataset: d, parameters: ["k": String(k)],
                      check: { d in
                          var sd = SnapshotDiff(indexZooms: zooms)
                          stream(try d.bytes()) { sd.addOld($0) }
                          stream(PointsGeoJSON.generate(count: n, seed: 1, edits: k).bytes) { sd.addNew($0) }
                          _ = sd.finish()
                          return touchedCheck(sd.touchedTiles)
                      }) { d in
                let old = try d.bytes(), new = PointsGeoJSON.generate(count: n, seed: 1, edits: k).bytes
                return Workload { iterations in
                    for _ in 0..<iterations {
                        var sd = SnapshotDiff(indexZooms: zooms)
                        stream(old) { sd.addOld($0) }
                        stream(new) { sd.addNew($0) }
                        blackHole(sd.finish().update.count + sd.touchedTileCount)
                    }
                }
            }
            // parse-both's result: the tiles where the two parsed snapshots' indexes differ.
            suite.add("diff.compute", implementation: "parse-both", dataset: d, parameters: ["k": String(k)],
                      check: { d in
                          var old: [GeoFeature] = [], new: [GeoFeature] = []
                          stream(try d.bytes()) { old.append($0) }
                          stream(PointsGeoJSON.generate(count: n, seed: 1, edits: k).bytes) { new.append($0) }
                          return touchedCheck(try rebuiltTouched(old: try FeatureStore(old, indexZooms: zooms),
                                                                 new: try FeatureStore(new, indexZooms: zooms)))
                      }) { d in
                let old = try d.bytes(), new = PointsGeoJSON.generate(count: n, seed: 1, edits: k).bytes
                return Workload { iterations in
                    for _ in 0..<iterations {
                        var c = 0
                        stream(old) { _ in c += 1 }
                        stream(new) { _ in c += 1 }
                        blackHole(c)
                    }
                }
            }
            suite.add("diff.merge", implementation: "graticule", dataset: d, parameters: ["diffs": "60", "k": "100"]) { d in
                var features = try snapshots(d, edits: 0).0
                var diffs: [GeoJSONSourceDiff] = []
                var state: UInt64 = 7
                for _ in 0..<60 {
                    var diff = GeoJSONSourceDiff()
                    for _ in 0..<100 {
                        state = state &* 6364136223846793005 &+ 1442695040888963407
                        let i = Int(state >> 33) % features.count
                        var g = features[i].geometry!
                        g.coordinates[0] += 0.0001
                        features[i].geometry = g
                        diff.update.append(FeatureUpdate(id: FeatureKey(features[i].id!), newGeometry: g))
                    }
                    diffs.append(diff)
                }
                return Workload { iterations in
                    for _ in 0..<iterations {
                        var m = DiffMerger()
                        for diff in diffs { m.fold(diff) }
                        blackHole(m.result.update.count)
                    }
                }
            }
        }
    }

    /// `source.live`: 10,000 vehicles all moving every second; one operation applies one
    /// second's diff (10,000 new geometries) with index upkeep and touched tiles. The 60
    /// diffs form a loop (the last returns every vehicle to its start), so operations cycle
    /// through them forever. Items = vehicles.
    static func registerLive(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "source-points" && d.parameterCount >= 10_000 {
            suite.add("source.live", implementation: "graticule", dataset: d, parameters: ["vehicles": "10000", "updates": "60"],
                      period: 60) { d in
                let vehicles = Array(try snapshots(d, edits: 0).0.prefix(10_000))
                var store = try FeatureStore(vehicles, indexZooms: zooms)
                var positions = vehicles.map { $0.geometry!.coordinates }
                let start = positions
                var diffs: [GeoJSONSourceDiff] = []
                for step in 0..<60 {
                    var diff = GeoJSONSourceDiff()
                    diff.update.reserveCapacity(vehicles.count)
                    for (i, v) in vehicles.enumerated() {
                        if step == 59 {
                            positions[i] = start[i]
                        } else {
                            // About 10 m per second in a direction fixed per vehicle.
                            let a = Double(i % 360) * .pi / 180
                            positions[i][0] += 0.0001 * SeriesTrig.cos(a)
                            positions[i][1] += 0.0001 * SeriesTrig.sin(a)
                        }
                        diff.update.append(FeatureUpdate(id: FeatureKey(v.id!),
                                                         newGeometry: Geometry(kind: .point, coordinates: positions[i])))
                    }
                    diffs.append(diff)
                }
                var next = 0
                return Workload { iterations in
                    for _ in 0..<iterations {
                        let r = try? store.apply(diffs[next])
                        next = (next + 1) % diffs.count
                        blackHole(r?.touchedTileCount ?? -1)
                    }
                }
            }
        }
    }

    /// The touched tiles of applying the forward diff once to graticule's store, as a set.
    static func touchedCheck(_ tiles: Set<TileID>) -> ResultCheck {
        ResultDigests.tiles([tiles.sorted()])
    }

    /// The tiles whose content differs between two indexed stores, found the way a source
    /// rebuilt from scratch would find them: a tile is touched when the keys it holds
    /// differ, or when a key it holds in both has a different feature.
    static func rebuiltTouched(old: FeatureStore, new: FeatureStore) throws -> Set<TileID> {
        var touched = Set<TileID>()
        for t in old.indexedTiles.union(new.indexedTiles) {
            let a = old.features(in: t), b = new.features(in: t)
            if a != b { touched.insert(t); continue }
            for k in a {
                guard let x = old[k], let y = new[k] else { continue }
                if !FeatureStore.sameContent(x, y) { touched.insert(t); break }
            }
        }
        return touched
    }

    /// Another implementation's `source.update` on the point sources (k = 1, 100, 10,000),
    /// alternating a diff and its inverse as graticule's case does; its touched tiles for the
    /// forward diff are checked against graticule's first.
    static func registerUpdater<U: SourceUpdating>(_ updater: U, name: String, in suite: inout BenchmarkSuite,
                                                  datasets: [Dataset]) {
        for d in datasets where d.kind == "source-points" {
            let n = d.parameterCount
            for k in [1, 100, 10_000] where k <= n / 2 {
                func diffs(_ d: Dataset) throws -> (old: [GeoFeature], forward: GeoJSONSourceDiff, backward: GeoJSONSourceDiff) {
                    let (old, new) = try snapshots(d, edits: k)
                    let a = try FeatureStore(old), b = try FeatureStore(new)
                    return (old, FeatureStore.diff(from: a, to: b), FeatureStore.diff(from: b, to: a))
                }
                suite.add("source.update", implementation: name, dataset: d, parameters: ["k": String(k)],
                          check: { d in
                              let (old, forward, _) = try diffs(d)
                              var source = try updater.makeSource(old, indexZooms: zooms)
                              return touchedCheck(try updater.apply(forward, to: &source))
                          }, period: 2) { d in
                    let (old, forward, backward) = try diffs(d)
                    var source = try updater.makeSource(old, indexZooms: zooms)
                    var flip = false
                    return Workload { iterations in
                        for _ in 0..<iterations {
                            let r = try? updater.apply(flip ? backward : forward, to: &source)
                            flip.toggle()
                            blackHole(r?.count ?? -1)
                        }
                    }
                }
            }
        }
    }

    static func snapshots(_ d: Dataset, edits: Int) throws -> ([GeoFeature], [GeoFeature]) {
        let n = d.parameterCount
        return (try features(try d.bytes()), try features(PointsGeoJSON.generate(count: n, seed: 1, edits: edits).bytes))
    }

    /// `source.update` [k, pool]: the same edits drawn afresh for every operation, from a
    /// pool of (diff, inverse) pairs over different features applied in turn, so no size
    /// finds the features it edits in cache from the operation before last. With
    /// `alternating`, also the pool of one pair (one diff and its inverse, as the point
    /// cases without a pool).
    static func registerPoolUpdates(in suite: inout BenchmarkSuite, _ d: Dataset, n: Int, alternating: Bool = false) {
        for k in [1, 100, 10_000] where k <= n / 2 {
            for pool in (alternating ? [1] : []) + [max(2, min(n / k, 1000, 200_000 / k))] {
                // The one-pair case's result: the tiles its forward diff touches.
                let check: ((Dataset) throws -> ResultCheck)? = pool != 1 ? nil : { d in
                    let old = try features(try d.bytes())
                    var store = try FeatureStore(old, indexZooms: zooms)
                    return touchedCheck(try store.apply(rotatingDiffs(old, edits: k, pairs: 1)[0].0).touchedTiles)
                }
                suite.add("source.update", implementation: "graticule", dataset: d,
                          parameters: ["k": String(k), "pool": String(pool)], check: check, period: 2 * pool) { d in
                    let old = try features(try d.bytes())
                    var store = try FeatureStore(old, indexZooms: zooms)
                    let pairs = rotatingDiffs(old, edits: k, pairs: pool)
                    // Every pair applies and undoes cleanly (a failed apply would be timed as
                    // a fast one).
                    for (forward, backward) in pairs {
                        _ = try store.apply(forward)
                        _ = try store.apply(backward)
                    }
                    var next = 0
                    return Workload { iterations in
                        for _ in 0..<iterations {
                            let pair = pairs[next >> 1]
                            let r = try? store.apply(next & 1 == 0 ? pair.0 : pair.1)
                            next = next + 1 == 2 * pairs.count ? 0 : next + 1
                            blackHole(r?.touchedTileCount ?? -1)
                        }
                    }
                }
            }
        }
    }

    /// `pairs` (diff, inverse) pairs over `old` (integer ids 1...count), each with the edit
    /// mix of `snapshots`: `edits` features moved about 100 m with their `score` changed,
    /// `edits / 10` removed and `edits / 10` added after the last id; features drawn afresh
    /// for every pair (distinct within a pair).
    static func rotatingDiffs(_ old: [GeoFeature], edits: Int, pairs: Int) -> [(GeoJSONSourceDiff, GeoJSONSourceDiff)] {
        var rng = SplitMix64(seed: 1234)
        let n = old.count
        var out: [(GeoJSONSourceDiff, GeoJSONSourceDiff)] = []
        out.reserveCapacity(pairs)
        for _ in 0..<pairs {
            var picked = Set<Int>()
            var forward = GeoJSONSourceDiff(), backward = GeoJSONSourceDiff()
            while picked.count < min(edits + edits / 10, n) { picked.insert(rng.below(n)) }
            for (j, i) in picked.sorted().enumerated() {
                let f = old[i]
                guard let id = f.id, var g = f.geometry else { continue }
                if j % 11 == 10 {
                    forward.remove.append(FeatureKey(id))
                    backward.add.append(f)
                    continue
                }
                let before = g
                // Every position moves by the same step (a point, or a whole outline).
                for c in stride(from: 0, to: g.coordinates.count - 1, by: g.dimensions) {
                    g.coordinates[c] = min(179.999999, max(-179.999999, g.coordinates[c] + 0.001))
                    g.coordinates[c + 1] = min(84.999999, max(-84.999999, g.coordinates[c + 1] + 0.0005))
                }
                let score = f.properties?["score"] ?? .double(0)
                var next = PropertyValue.double(1)
                if case .double(let v) = score { next = .double((v + 1).truncatingRemainder(dividingBy: 5)) }
                forward.update.append(FeatureUpdate(id: FeatureKey(id), newGeometry: g, addOrUpdateProperties: ["score": next]))
                backward.update.append(FeatureUpdate(id: FeatureKey(id), newGeometry: before, addOrUpdateProperties: ["score": score]))
            }
            for a in 0..<(edits / 10) {
                var f = old[rng.below(n)]
                f.id = .int(Int64(n + 1 + a))
                forward.add.append(f)
                backward.remove.append(FeatureKey(f.id!))
            }
            out.append((forward, backward))
        }
        return out
    }

    static func features(_ bytes: [UInt8]) throws -> [GeoFeature] {
        guard case .featureCollection(let fs) = try GeoJSONReader.read(bytes).object else { return [] }
        return fs
    }

    static func stream(_ bytes: [UInt8], _ body: (GeoFeature) -> Void) {
        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: 1 << 16))
        while let f = try? reader.next() { body(f) }
    }
}

extension Dataset {
    /// The feature count written in a generated source's name (`...-100k`).
    var parameterCount: Int {
        let last = name.split(separator: "-").last.map(String.init) ?? ""
        if last.hasSuffix("k"), let v = Int(last.dropLast()) { return v * 1000 }
        if last.hasSuffix("m"), let v = Int(last.dropLast()) { return v * 1_000_000 }
        return Int(last) ?? 0
    }
}
