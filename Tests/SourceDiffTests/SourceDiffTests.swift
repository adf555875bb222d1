import XCTest
import GeoModel
import TileCover
@testable import SourceDiff
import SourceDiffJSON

/// Property tests of diff, apply, merge and touched tiles on random stores and edits, and
/// the id cases of MapLibre's diff behaviour pinned per mode.
final class SourceDiffTests: XCTestCase {
    struct Rng {
        var s: UInt64
        mutating func next() -> UInt64 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return s >> 17
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
    }

    let zooms = 3...6

    func key(_ i: Int) -> FeatureKey { i % 3 == 0 ? .string("f\(i)") : .integer(Int64(i)) }
    func id(_ k: FeatureKey) -> FeatureID { k.featureID }

    func geometry(_ r: inout Rng) -> Geometry {
        let lon = r.unit() * 60 - 30, lat = r.unit() * 60 - 30
        switch r.below(3) {
        case 0: return Geometry(kind: .point, coordinates: [lon, lat])
        case 1: return Geometry(kind: .lineString, coordinates: [lon, lat, lon + r.unit() * 8, lat + r.unit() * 8], partStarts: [0])
        default:
            let d = 1 + r.unit() * 6
            return Geometry(kind: .polygon, coordinates: [lon, lat, lon + d, lat, lon + d, lat + d, lon, lat + d, lon, lat],
                            partStarts: [0], polygonStarts: [0])
        }
    }

    func properties(_ r: inout Rng) -> PropertyList {
        var p = PropertyList()
        for k in ["name", "speed", "open", "kind"] where r.below(3) > 0 {
            switch k {
            case "name": p.append(key: k, value: .string("n\(r.below(5))"))
            case "speed": p.append(key: k, value: .int(Int64(r.below(4))))
            case "open": p.append(key: k, value: .bool(r.below(2) == 0))
            default: p.append(key: k, value: r.below(2) == 0 ? .null : .double(Double(r.below(3)) / 2))
            }
        }
        return p
    }

    func feature(_ k: FeatureKey, _ r: inout Rng) -> GeoFeature {
        GeoFeature(id: id(k), geometry: geometry(&r), properties: properties(&r))
    }

    func randomFeatures(_ r: inout Rng, count: Int, keyOffset: Int = 0) -> [GeoFeature] {
        (0..<count).map { feature(key($0 + keyOffset), &r) }
    }

    /// An edited copy: some removed, some added, some moved, some with properties changed.
    func edited(_ fs: [GeoFeature], _ r: inout Rng) -> [GeoFeature] {
        var out: [GeoFeature] = []
        for f in fs {
            switch r.below(6) {
            case 0: continue                                    // removed
            case 1: var g = f; g.geometry = geometry(&r); out.append(g)
            case 2: var g = f; g.properties = properties(&r); out.append(g)
            default: out.append(f)
            }
        }
        out += randomFeatures(&r, count: r.below(5), keyOffset: 1000 + r.below(1000))
        // Drop accidental duplicates of the added keys.
        var seen = Set<FeatureKey>()
        return out.filter { seen.insert(FeatureKey.of($0)!).inserted }
    }

    func store(_ fs: [GeoFeature], countAbove: Int = 64) -> FeatureStore {
        try! FeatureStore(fs, promoteId: nil, indexZooms: zooms, mode: .strict, countAbove: countAbove)
    }

    /// The tiles of a geometry over the zoom range, each zoom covered directly.
    func cover(_ g: Geometry?) -> Set<TileID> {
        guard let g else { return [] }
        return Set(zooms.flatMap { TileCoverage.tiles(for: g, zoom: $0) })
    }

    /// The index rebuilt by brute force must equal `features(in:)` for every tile.
    func checkIndex(_ s: FeatureStore, file: StaticString = #filePath, line: UInt = #line) {
        var expected: [TileID: Set<FeatureKey>] = [:]
        for k in s.keys { for t in cover(s[k]!.geometry) { expected[t, default: []].insert(k) } }
        XCTAssertEqual(s.indexedTiles, Set(expected.keys), file: file, line: line)
        for (t, ks) in expected { XCTAssertEqual(s.features(in: t), ks, "\(t)", file: file, line: line) }
    }

    func testApplyOfDiffGivesTheNewStoreAndTouchesExactlyTheChangedTiles() throws {
        var r = Rng(s: 1)
        // Odd rounds count the features of tiles with more than two (the index then lists
        // them by walking down); the last rounds are large enough that the index edits are
        // made in table order.
        for round in 0..<64 {
            let a = randomFeatures(&r, count: round >= 60 ? 1_500 : 20 + r.below(20))
            let b = edited(a, &r)
            let countAbove = round % 2 == 0 ? 64 : 2
            let sa = store(a, countAbove: countAbove), sb = store(b, countAbove: countAbove)
            let d = FeatureStore.diff(from: sa, to: sb)
            var s = sa
            let report = try s.apply(d)
            XCTAssertTrue(s.sameContent(as: sb), "round \(round)")
            checkIndex(s)
            // Touched tiles: for each key whose content differs, old cover ∪ new cover.
            var touched = Set<TileID>()
            for k in Set(sa.keys).union(sb.keys) {
                let old = sa[k], new = sb[k]
                if let old, let new, FeatureStore.sameContent(old, new) { continue }
                touched.formUnion(cover(old?.geometry))
                touched.formUnion(cover(new?.geometry))
            }
            XCTAssertEqual(report.touchedTiles, touched, "round \(round)")
        }
    }

    /// Minimality: nothing for identical stores; every update names a feature that changed
    /// and only properties whose value changed.
    func testDiffIsMinimal() {
        var r = Rng(s: 2)
        for _ in 0..<60 {
            let a = randomFeatures(&r, count: 30)
            XCTAssertTrue(FeatureStore.diff(from: store(a), to: store(a)).isEmpty)
            let b = edited(a, &r)
            let sa = store(a), sb = store(b)
            let d = FeatureStore.diff(from: sa, to: sb)
            for u in d.update {
                let old = sa[u.id]!, new = sb[u.id]!
                XCTAssertFalse(FeatureStore.sameContent(old, new))
                if let g = u.newGeometry { XCTAssertNotEqual(g, old.geometry) } else { XCTAssertEqual(old.geometry, new.geometry) }
                for (k, v) in u.addOrUpdateProperties { XCTAssertNotEqual(old.properties?[k], v, "unchanged \(k) listed") }
                for k in u.removeProperties { XCTAssertNil(new.properties?[k]); XCTAssertNotNil(old.properties?[k]) }
            }
            XCTAssertEqual(Set(d.remove), Set(sa.keys).subtracting(sb.keys))
            XCTAssertEqual(Set(d.add.map { FeatureKey.of($0)! }), Set(sb.keys).subtracting(sa.keys))
        }
        // A changed id is a remove and an add.
        let f = GeoFeature(id: .int(1), geometry: Geometry(kind: .point, coordinates: [1, 2]), properties: ["a": .int(1)])
        var g = f
        g.id = .string("1")
        let d = FeatureStore.diff(from: store([f]), to: store([g]))
        XCTAssertEqual(d.remove, [.integer(1)])
        XCTAssertEqual(d.add, [g])
        XCTAssertTrue(d.update.isEmpty)
    }

    /// A random diff valid (strict mode) for the store `s` holds: removeAll sometimes,
    /// removes, adds of new and of just-removed ids, updates of present and just-added ids.
    func randomDiff(for s: FeatureStore, _ r: inout Rng) -> GeoJSONSourceDiff {
        var d = GeoJSONSourceDiff()
        var present = Set(s.keys)
        if r.below(8) == 0 { d.removeAll = true; present = [] }
        for k in present.sorted(by: { $0.description < $1.description }) where r.below(5) == 0 {
            d.remove.append(k); present.remove(k)
        }
        for k in d.remove where r.below(3) == 0 { d.add.append(feature(k, &r)); present.insert(k) }
        for _ in 0..<r.below(4) {
            let k = key(2000 + r.below(3000))
            if present.contains(k) { continue }
            d.add.append(feature(k, &r)); present.insert(k)
        }
        for k in present.sorted(by: { $0.description < $1.description }) where r.below(3) == 0 {
            var u = FeatureUpdate(id: k)
            if r.below(2) == 0 { u.newGeometry = geometry(&r) }
            if r.below(5) == 0 { u.removeAllProperties = true }
            for p in ["name", "speed", "open", "kind"] where r.below(4) == 0 { u.removeProperties.append(p) }
            for (p, v) in properties(&r) where r.below(2) == 0 { u.addOrUpdateProperties.append(key: p, value: v) }
            d.update.append(u)
            if r.below(4) == 0 { d.update.append(FeatureUpdate(id: k, addOrUpdateProperties: ["name": .string("again")])) }
        }
        return d
    }

    func testMergeEqualsApplyingInTurn() throws {
        var r = Rng(s: 3)
        for round in 0..<150 {
            let s0 = store(randomFeatures(&r, count: 15 + r.below(10)))
            let d1 = randomDiff(for: s0, &r)
            var s1 = s0
            try s1.apply(d1)
            let d2 = randomDiff(for: s1, &r)
            var s2 = s1
            try s2.apply(d2)
            var m = s0
            try m.apply(d1.merged(with: d2))
            XCTAssertTrue(m.sameContent(as: s2), "round \(round)")
            checkIndex(m)
            // A third diff folded into one merger equals applying the three in turn.
            let d3 = randomDiff(for: s2, &r)
            var s3 = s2
            try s3.apply(d3)
            var merger = DiffMerger(d1)
            merger.fold(d2)
            merger.fold(d3)
            var m3 = s0
            try m3.apply(merger.result)
            XCTAssertTrue(m3.sameContent(as: s3), "round \(round), three diffs")
        }
    }

    func testMergeRules() {
        let p = GeoFeature(id: .int(7), geometry: Geometry(kind: .point, coordinates: [0, 0]), properties: ["a": .int(1)])
        // A later remove cancels an earlier add entirely.
        XCTAssertTrue(GeoJSONSourceDiff(add: [p]).merged(with: GeoJSONSourceDiff(remove: [.integer(7)])).isEmpty)
        // Updates of one id merge key-wise; the later geometry wins.
        let g1 = Geometry(kind: .point, coordinates: [1, 1]), g2 = Geometry(kind: .point, coordinates: [2, 2])
        let m = GeoJSONSourceDiff(update: [FeatureUpdate(id: .integer(7), newGeometry: g1, removeProperties: ["b"],
                                                         addOrUpdateProperties: ["a": .int(2), "c": .int(3)])])
            .merged(with: GeoJSONSourceDiff(update: [FeatureUpdate(id: .integer(7), newGeometry: g2, removeProperties: ["c"],
                                                                   addOrUpdateProperties: ["b": .int(4)])]))
        XCTAssertEqual(m.update, [FeatureUpdate(id: .integer(7), newGeometry: g2, removeProperties: ["c"],
                                               addOrUpdateProperties: ["a": .int(2), "b": .int(4)])])
        // A later removeAll discards everything before it.
        let later = GeoJSONSourceDiff(removeAll: true, add: [p])
        XCTAssertEqual(GeoJSONSourceDiff(remove: [.string("x")], update: [FeatureUpdate(id: .integer(1))]).merged(with: later), later)
        // An update of a feature added earlier is folded into the add.
        let folded = GeoJSONSourceDiff(add: [p]).merged(with: GeoJSONSourceDiff(update: [FeatureUpdate(id: .integer(7), newGeometry: g2)]))
        XCTAssertEqual(folded.add.first?.geometry, g2)
        XCTAssertTrue(folded.update.isEmpty)
    }

    /// The streaming snapshot diff gives a diff that turns a into b, touching the same tiles
    /// as applying the in-memory diff.
    func testSnapshotDiffMatchesTheStoreDiff() throws {
        var r = Rng(s: 5)
        for round in 0..<60 {
            let a = randomFeatures(&r, count: 25)
            var b = edited(a, &r)
            if round % 5 == 0, !b.isEmpty { b[0].geometry = nil }   // a geometry that becomes null
            var sd = SnapshotDiff(indexZooms: zooms)
            for f in a { sd.addOld(f) }
            for f in b { sd.addNew(f) }
            let d = sd.finish()
            var s = store(a)
            let report = try s.apply(d)
            XCTAssertTrue(s.sameContent(as: store(b)), "round \(round)")
            XCTAssertEqual(sd.touchedTiles, report.touchedTiles, "round \(round)")
            XCTAssertEqual(d.remove.count + d.add.count + d.update.count > 0, !store(a).sameContent(as: store(b)))
        }
    }

    /// The snapshot diff's lookup modes and lazy point tiles: old ids all ascending integers
    /// (looked up by binary search), ascending until a key out of order or a repeated key
    /// (then a hash table), or mixed; the new snapshot in the old order, reversed or
    /// shuffled; points exactly on tile edges (a closed cover of 2 or 4 tiles); property
    /// strings on both sides of the 7-byte packed form, and scalars of every type.
    func testSnapshotDiffLookupModesAndPointEdges() throws {
        var r = Rng(s: 11)
        // Tile edges at zoom 6: longitudes -180 + 360k/64 are exact; the equator and the
        // antimeridian are edges at every zoom.
        func edgePoint(_ r: inout Rng) -> Geometry {
            let lon = -180 + 360 * Double(r.below(64)) / 64
            let lat = r.below(2) == 0 ? 0 : r.unit() * 60 - 30
            return Geometry(kind: .point, coordinates: r.below(3) == 0 ? [r.unit() * 60 - 30, 0] : [lon, lat])
        }
        let strings = ["", "a", "abcdefg", "abcdefgh", "abcdefg\0", "a longer string value", "é", "日本"]
        func value(_ r: inout Rng) -> PropertyValue {
            switch r.below(7) {
            case 0: return .string(strings[r.below(strings.count)])
            case 1: return .int(Int64(r.below(3)) - 1)
            case 2: return .uint(UInt64(r.below(3)))
            case 3: return .double([0, -0.0, 1, 0.5][r.below(4)])
            case 4: return .bool(r.below(2) == 0)
            case 5: return .null
            default: return .array([.int(Int64(r.below(2))), .string(strings[r.below(strings.count)])])
            }
        }
        func feature(_ k: FeatureKey, _ r: inout Rng) -> GeoFeature {
            var p = PropertyList()
            for name in ["a", "b", "c"] where r.below(4) > 0 { p.append(key: name, value: value(&r)) }
            return GeoFeature(id: k.featureID, geometry: r.below(4) == 0 ? geometry(&r) : edgePoint(&r), properties: p)
        }
        for round in 0..<120 {
            let n = 20 + r.below(30)
            var keys: [FeatureKey] = (0..<n).map { .integer(Int64($0 * 3 - 20)) }
            let mode = round % 4
            if mode == 1 { keys.swapAt(n / 2, n / 2 + 1) }                       // ascending, then not
            if mode == 2 { keys[n / 2] = .string("s\(round)") }                  // a string key
            var a = keys.map { feature($0, &r) }
            var dupes: [FeatureKey] = []
            if mode == 3 {                                                       // a repeated key
                let i = r.below(n - 1) + 1
                a.insert(feature(keys[i - 1], &r), at: i)
                dupes = [keys[i - 1]]
            }
            var b: [GeoFeature] = []
            for k in keys {
                switch r.below(8) {
                case 0: continue
                case 1: b.append(feature(k, &r))
                case 2: var f = a.first { FeatureKey.of($0) == k }!; f.geometry = edgePoint(&r); b.append(f)
                case 3: var f = a.first { FeatureKey.of($0) == k }!; f.properties?.set("a", value(&r)); b.append(f)
                default: b.append(a.first { FeatureKey.of($0) == k }!)
                }
            }
            b += (0..<r.below(4)).map { feature(.integer(Int64(1000 + $0)), &r) }
            switch r.below(3) {
            case 0: b.reverse()
            case 1: for i in stride(from: b.count - 1, to: 0, by: -1) { b.swapAt(i, r.below(i + 1)) }
            default: break
            }
            var sd = SnapshotDiff(indexZooms: zooms)
            for f in a { sd.addOld(f) }
            for f in b { sd.addNew(f) }
            let d = sd.finish()
            XCTAssertEqual(sd.duplicateIDs, dupes, "round \(round)")
            // The first copy of a repeated old key is the one kept.
            var seen = Set<FeatureKey>()
            let firstCopies = a.filter { seen.insert(FeatureKey.of($0)!).inserted }
            var s = store(firstCopies)
            let report = try s.apply(d)
            XCTAssertTrue(s.sameContent(as: store(b)), "round \(round)")
            XCTAssertEqual(sd.touchedTiles, report.touchedTiles, "round \(round)")
            let expected = FeatureStore.diff(from: store(firstCopies), to: store(b))
            XCTAssertEqual(Set(d.update.map(\.id)), Set(expected.update.map(\.id)), "round \(round): the same features updated")
            XCTAssertEqual(Set(d.remove), Set(expected.remove), "round \(round)")
        }
    }

    /// The touched-tile table against the standard set: random tiles with many repeats,
    /// through several growths.
    func testTileTableMatchesASet() {
        var r = Rng(s: 3)
        var table = _TileTable(), set = Set<TileID>()
        for _ in 0..<20_000 {
            let z = r.below(31), n = 1 << z
            let t = TileID(z: z, x: r.below(min(n, 16)) * (n / min(n, 16)), y: r.below(min(n, 8)))!
            XCTAssertEqual(table.insert(t), set.insert(t).inserted)
            XCTAssertTrue(table.contains(t))
        }
        XCTAssertEqual(table.count, set.count)
        var listed = Set<TileID>()
        table.forEach { XCTAssertTrue(listed.insert($0).inserted, "listed once") }
        XCTAssertEqual(listed, set)
        XCTAssertFalse(table.contains(TileID(z: 30, x: 1, y: 1)!))
    }

    /// The store's tile index against a dictionary of sets: random inserts and removals
    /// over a universe that widens (so the table grows) and then shrinks to nothing (so
    /// every removal shifts probe runs back), with tiles holding one slot and several.
    func testTileIndexMatchesADictionaryOfSets() {
        var r = Rng(s: 5)
        var index = _TileIndex(), model: [TileID: Set<Int32>] = [:]
        func check() {
            XCTAssertEqual(index.count, model.count)
            var listed = Set<TileID>()
            index.forEachTile { XCTAssertTrue(listed.insert($0).inserted, "listed once") }
            XCTAssertEqual(listed, Set(model.keys))
            for (t, slots) in model {
                var got: [Int32] = []
                index.forEachSlot(in: t) { got.append($0) }
                XCTAssertEqual(got.count, slots.count, "\(t)")
                XCTAssertEqual(Set(got), slots, "\(t)")
            }
        }
        func tile(_ universe: Int) -> TileID {
            let u = r.below(universe), z = u % 31, n = 1 << z
            return TileID(z: z, x: (u / 31) % n, y: (u / 7) % n)!
        }
        /// One edit of both the index and the model.
        func edit(_ t: TileID, _ slot: Int32, remove: Bool) {
            if remove {
                index.remove(slot, t)
                if model[t]?.remove(slot) != nil, model[t]!.isEmpty { model[t] = nil }
            } else {
                index.insert(slot, t)
                model[t, default: []].insert(slot)
            }
        }
        for step in 0..<40_000 {
            edit(tile(100 + step / 10), Int32(r.below(step % 3 == 0 ? 2 : 6)), remove: r.below(3) == 0)
            if step % 4_000 == 0 { check() }
        }
        check()
        for (t, slots) in model.shuffled() {
            for s in slots.shuffled() {
                index.remove(s, t)
                if model[t]!.remove(s) != nil, model[t]!.isEmpty { model[t] = nil }
            }
            index.remove(0, t)   // absent: no effect
            if r.below(200) == 0 { check() }
        }
        XCTAssertEqual(index.count, 0)
        check()
        // Batches: logged, then made in table order (sorted from 1,024 edits on); one
        // tile's edits must keep their order.
        for round in 0..<24 {
            index.beginBatch()
            for _ in 0..<[3, 900, 1_024, 5_000][round % 4] {
                edit(tile(3_000), Int32(r.below(4)), remove: r.below(2) == 0)
            }
            index.commitBatch()
            check()
        }
    }

    /// JSON form: random diffs survive writing and reading; malformed ones name the member.
    func testJSONRoundTripAndErrors() throws {
        var r = Rng(s: 4)
        for _ in 0..<100 {
            let s = store(randomFeatures(&r, count: 12))
            let d = randomDiff(for: s, &r)
            XCTAssertEqual(try GeoJSONSourceDiff(json: d.jsonBytes()), d)
        }
        let text = #"{"remove":[1,"1"],"update":[{"id":0,"addOrUpdateProperties":[{"key":"speed","value":12.5}],"removeProperties":["x"]}]}"#
        let d = try GeoJSONSourceDiff(json: Array(text.utf8))
        XCTAssertEqual(d.remove, [.integer(1), .string("1")])
        XCTAssertEqual(d.update, [FeatureUpdate(id: .integer(0), removeProperties: ["x"], addOrUpdateProperties: ["speed": .double(12.5)])])
        func error(_ s: String) -> String? {
            do { _ = try GeoJSONSourceDiff(json: Array(s.utf8)); return nil } catch {
                if case .invalidDiff(let m) = error { return m }
                return "\(error)"
            }
        }
        XCTAssertEqual(error(#"{"update":[{"id":1},{"newGeometry":null}]}"#), "update[1].id is missing")
        XCTAssertEqual(error(#"{"remove":[true]}"#), "remove[0] must be a string or a number")
        XCTAssertTrue(error(#"{"add":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{}}]}"#)?.hasPrefix("add[0]") ?? false)
        XCTAssertNotNil(error("{"))
        // How the snapshots were paired: written when not id, read back, checked.
        var keyed = GeoJSONSourceDiff(remove: [.string("index:3")], matching: .index)
        XCTAssertTrue(String(decoding: keyed.jsonBytes(), as: UTF8.self).hasSuffix(#","match":"index"}"#))
        XCTAssertEqual(try GeoJSONSourceDiff(json: keyed.jsonBytes()), keyed)
        keyed.matching = .content
        XCTAssertEqual(try GeoJSONSourceDiff(json: keyed.jsonBytes()).matching, .content)
        XCTAssertFalse(String(decoding: GeoJSONSourceDiff(remove: [.integer(1)]).jsonBytes(), as: UTF8.self).contains("match"))
        XCTAssertEqual(error(#"{"match":"position"}"#), #"match must be "id", "index" or "geometry+properties""#)
    }

    /// Mutated diff documents (bytes changed, cut short) either read or fail with a typed
    /// error; never a crash. A diff that reads can be applied in lenient mode.
    func testMutatedDiffJSONNeverCrashes() {
        var r = Rng(s: 6)
        let s0 = store(randomFeatures(&r, count: 10))
        let text = randomDiff(for: s0, &r).jsonBytes()
        for cut in stride(from: 0, through: text.count, by: max(1, text.count / 200)) {
            _ = try? GeoJSONSourceDiff(json: Array(text[..<cut]))
        }
        var read = 0
        for _ in 0..<3000 {
            var m = text
            for _ in 0..<(1 + r.below(3)) {
                let i = r.below(m.count)
                m[i] = [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "1"), UInt8(ascii: ","),
                        UInt8(ascii: "-"), 0xFF, UInt8(ascii: "e")][r.below(8)]
            }
            do {
                let d = try GeoJSONSourceDiff(json: m)
                read += 1
                var s = s0
                _ = try? s.apply(d, mode: .lenient)
            } catch {
                if case .invalidDiff = error {} else { XCTFail("\(error)") }
            }
        }
        XCTAssertGreaterThan(read, 0)
    }

    /// The id cases of MapLibre's diff behaviour, pinned per mode.
    func testIdCasesPerMode() throws {
        let pt = Geometry(kind: .point, coordinates: [3, 4])
        let zero = GeoFeature(id: .int(0), geometry: pt, properties: [:])
        let one = GeoFeature(id: .int(1), geometry: pt, properties: [:])
        let oneString = GeoFeature(id: .string("1"), geometry: pt, properties: [:])
        let anonymous = GeoFeature(id: nil, geometry: pt, properties: [:])

        // Initial data: id 0 is an id; "1" and 1 are two features; duplicates and id-less
        // features are errors in strict mode and skipped (last one kept) in lenient mode.
        let s = try FeatureStore([zero, one, oneString], indexZooms: 2...2)
        XCTAssertEqual(s.count, 3)
        XCTAssertThrowsError(try FeatureStore([one, one])) { XCTAssertEqual($0 as? SourceDiffError, .duplicateID(.integer(1))) }
        XCTAssertThrowsError(try FeatureStore([one, anonymous])) { XCTAssertEqual($0 as? SourceDiffError, .missingID(index: 1)) }
        let lenient = try FeatureStore([one, anonymous, one], mode: .lenient)
        XCTAssertEqual(lenient.count, 1)
        XCTAssertEqual(lenient.skippedAtBuild.map(\.reason), [.missingID, .duplicateAddReplaced])

        // Strict apply: any bad change throws and leaves the store as it was (atomic).
        var strict = s
        let bad = GeoJSONSourceDiff(remove: [.integer(0)], update: [FeatureUpdate(id: .integer(9), addOrUpdateProperties: ["a": .int(1)])])
        XCTAssertThrowsError(try strict.apply(bad)) { XCTAssertEqual($0 as? SourceDiffError, .unknownID(.integer(9))) }
        XCTAssertTrue(strict.sameContent(as: s))
        XCTAssertNotNil(strict[.integer(0)])
        XCTAssertThrowsError(try strict.apply(GeoJSONSourceDiff(add: [one]))) { XCTAssertEqual($0 as? SourceDiffError, .duplicateID(.integer(1))) }
        XCTAssertThrowsError(try strict.apply(GeoJSONSourceDiff(add: [anonymous]))) { XCTAssertEqual($0 as? SourceDiffError, .missingID(index: 0)) }
        XCTAssertThrowsError(try strict.apply(GeoJSONSourceDiff(remove: [.string("0")]))) { XCTAssertEqual($0 as? SourceDiffError, .unknownID(.string("0"))) }
        XCTAssertTrue(strict.sameContent(as: s))

        // Lenient apply: MapLibre's behaviour, reported.
        var len = s
        var moved = one
        moved.geometry = Geometry(kind: .point, coordinates: [100, 60])
        let report = try len.apply(GeoJSONSourceDiff(remove: [.integer(5)], add: [anonymous, moved],
                                                     update: [FeatureUpdate(id: .integer(9), addOrUpdateProperties: ["a": .int(1)])]),
                                   mode: .lenient)
        XCTAssertEqual(report.skipped.map(\.reason), [.unknownRemove, .missingID, .duplicateAddReplaced, .unknownUpdate])
        XCTAssertEqual(len[.integer(1)]?.geometry, moved.geometry, "a duplicate add replaces")
        XCTAssertEqual(len.count, 3)
        XCTAssertTrue(report.touchedTiles.contains(TileCoverage.tiles(for: pt, zoom: 2)[0]), "old place touched")
        XCTAssertTrue(report.touchedTiles.contains(TileCoverage.tiles(for: moved.geometry!, zoom: 2)[0]), "new place touched")

        // promoteId keys features by a property, with the same string/number distinction.
        let a = GeoFeature(id: nil, geometry: pt, properties: ["vehicle": .string("7")])
        let b = GeoFeature(id: nil, geometry: pt, properties: ["vehicle": .int(7)])
        let promoted = try FeatureStore([a, b], promoteId: "vehicle")
        XCTAssertEqual(Set(promoted.keys), [.string("7"), .integer(7)])
    }
}

/// JSON does not tell `1`, `1.0` and `1e0` apart, so neither does a diff: a property
/// rewritten in another number form is no change, in a snapshot diff and a store diff
/// alike; a different number is.
final class NumbersAsNumbersTests: XCTestCase {
    func feature(_ value: PropertyValue) -> GeoFeature {
        GeoFeature(id: .int(1), geometry: Geometry(kind: .point, coordinates: [1, 2]), properties: ["a": value, "b": .array([value])])
    }

    func testOtherNumberFormsAreNoChange() throws {
        let forms: [PropertyValue] = [.int(1), .uint(1), .double(1.0)]
        for x in forms {
            for y in forms {
                var sd = SnapshotDiff()
                sd.addOld(feature(x))
                sd.addNew(feature(y))
                XCTAssertTrue(sd.finish().isEmpty, "\(x) → \(y)")
                XCTAssertNil(FeatureStore.update(.integer(1), from: feature(x), to: feature(y)), "\(x) → \(y)")
                XCTAssertTrue(FeatureStore.sameContent(feature(x), feature(y)))
            }
        }
        let big: [PropertyValue] = [.uint(1 << 63), .double(0x1p63)]
        var sd = SnapshotDiff()
        sd.addOld(feature(big[0]))
        sd.addNew(feature(big[1]))
        XCTAssertTrue(sd.finish().isEmpty)
        // A different number, or a number and a string, is a change.
        for (x, y) in [(PropertyValue.int(1), PropertyValue.double(1.5)), (.int(1), .string("1")), (.double(-0.5), .double(0.5))] {
            var d = SnapshotDiff()
            d.addOld(feature(x))
            d.addNew(feature(y))
            XCTAssertEqual(d.finish().update.count, 1, "\(x) → \(y)")
            XCTAssertNotNil(FeatureStore.update(.integer(1), from: feature(x), to: feature(y)))
        }
    }
}

/// A feature's own `bbox` and foreign members (RFC 7946 §5, §6.1) survive a diff: carried
/// in `add`, and a change to them alone is a change (a removal and an addition, since an
/// update has no member for them), so applying the diff gives the new snapshot.
final class BBoxAndForeignMemberTests: XCTestCase {
    func feature(bbox: [Double]?, title: PropertyValue?) -> GeoFeature {
        GeoFeature(id: .int(7), geometry: Geometry(kind: .point, coordinates: [1, 2]), properties: ["a": .int(1)],
                   bbox: bbox, foreignMembers: title.map { ["title": $0] })
    }

    func testChangesToThemAloneAreChanges() throws {
        let cases: [(GeoFeature, GeoFeature)] = [
            (feature(bbox: [1, 2, 1, 2], title: nil), feature(bbox: [0, 0, 3, 3], title: nil)),
            (feature(bbox: nil, title: .string("x")), feature(bbox: nil, title: .string("y"))),
            (feature(bbox: nil, title: nil), feature(bbox: nil, title: .string("new"))),
            (feature(bbox: [1, 2, 1, 2], title: .string("x")), feature(bbox: nil, title: nil)),
        ]
        for (old, new) in cases {
            var sd = SnapshotDiff(indexZooms: 0...4)
            sd.addOld(old)
            sd.addNew(new)
            let d = sd.finish()
            XCTAssertEqual(d.remove, [.integer(7)], "\(old) → \(new)")
            XCTAssertEqual(d.add, [new])
            var store = try FeatureStore([old], indexZooms: 0...4)
            try store.apply(d)
            XCTAssertEqual(store[.integer(7)], new)
            XCTAssertEqual(FeatureStore.diff(from: try FeatureStore([old]), to: try FeatureStore([new])).add, [new])
            // Through the diff's JSON, as `graticule diff` writes it and `diff apply` reads it.
            let back = try GeoJSONSourceDiff(json: d.jsonBytes())
            XCTAssertEqual(back.add, [new])
        }
        // The same members, numbers in another form: no change.
        var same = SnapshotDiff()
        same.addOld(feature(bbox: [1, 2, 1, 2], title: .int(3)))
        same.addNew(feature(bbox: [1, 2, 1, 2], title: .double(3)))
        XCTAssertTrue(same.finish().isEmpty)
        XCTAssertTrue(FeatureStore.sameContent(feature(bbox: nil, title: .int(3)), feature(bbox: nil, title: .double(3))))
    }
}
