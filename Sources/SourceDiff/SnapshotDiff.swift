import GeoModel
import TileCover

/// The diff between two snapshots of a data source that are read one feature at a time,
/// with memory proportional to the number of ids (and to the diff), not to the files.
///
/// Feed every feature of the old snapshot to `addOld`, then every feature of the new one
/// to `addNew`, then call `finish()`. For each old feature only its key, a content hash of
/// its geometry, its property names with a hash of each value, and its tiles at the index's
/// deepest zoom are kept; a new feature is compared against that. (Equal hashes are taken
/// as equal content: 64-bit hashes, so a collision, about one in 10^19 per comparison, is
/// the only way a change could be missed.)
public struct SnapshotDiff {
    public let promoteId: String?
    public let indexZooms: ClosedRange<Int>?

    /// What is kept of an old feature: hashes, and where its property hashes and tiles sit
    /// in the shared flat arrays (no allocation per feature).
    struct Old {
        var key: FeatureKey
        var geometryHash: Int
        /// The feature's property names, in order, as an interned list.
        var schema: Int32
        /// Start of its value hashes in `valueHashes` (one per name of the schema).
        var values: Int32
        /// Its tiles at the deepest zoom: `tileStart..<tileStart+tileCount` in `tileStore`.
        var tileStart: Int32
        var tileCount: Int32
        var seen = false
    }
    /// Old keys → slots in `olds`: an open-addressing table on a 64-bit fingerprint of the
    /// key (cheaper per lookup than the standard dictionary's seeded hashing, which
    /// dominated the lookups of a million ids); a fingerprint match is confirmed against
    /// the stored key.
    var oldIndex = _KeyTable()
    var olds: [Old] = []
    var lastSchema: (names: [String], id: Int32)? = nil
    var addedKeys: Set<FeatureKey> = []
    var schemas: [[Int32]] = []
    var schemaIDs: [[Int32]: Int32] = [:]
    var valueHashes: [Int] = []
    var tileStore: [TileID] = []
    var names: [String: Int32] = [:]
    var nameList: [String] = []

    /// The diff so far: adds and updates as the new snapshot is read; removes at `finish`.
    public private(set) var diff = GeoJSONSourceDiff()
    /// Tiles touched by the changes, over the index's zoom range.
    public private(set) var touchedTiles: Set<TileID> = []
    /// Features of either snapshot without an id (skipped), and ids repeated within one
    /// snapshot (the later feature is ignored).
    public private(set) var missingIDs = 0
    public private(set) var duplicateIDs: [FeatureKey] = []
    public private(set) var oldCount = 0, newCount = 0

    public init(promoteId: String? = nil, indexZooms: ClosedRange<Int>? = nil) {
        precondition(indexZooms.map { $0.lowerBound >= 0 && $0.upperBound <= 29 } ?? true, "index zooms must lie in 0...29")
        self.promoteId = promoteId
        self.indexZooms = indexZooms
    }

    /// A 64-bit content hash (a multiply-xorshift mix per word, unseeded so no per-call
    /// setup): fast enough to run on every feature of both snapshots.
    struct _Mix {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        @inline(__always)
        mutating func add(_ v: UInt64) {
            var x = h ^ v
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            h = x ^ (x >> 31)
        }
        mutating func add(_ s: String) {
            var word: UInt64 = 0, n = 0
            for b in s.utf8 {
                word = word << 8 | UInt64(b)
                n += 1
                if n == 8 { add(word); word = 0; n = 0 }
            }
            add(word ^ UInt64(s.utf8.count) << 56)
        }
        mutating func add(_ v: PropertyValue) {
            switch v {
            case .null: add(1)
            case .bool(let b): add(b ? 2 : 3)
            case .int(let i): add(4); add(UInt64(bitPattern: i))
            case .uint(let u): add(5); add(u)
            case .double(let d): add(6); add(d.bitPattern)
            case .string(let s): add(7); add(s)
            case .array(let a): add(8); add(UInt64(a.count)); for x in a { add(x) }
            case .object(let o): add(9); add(UInt64(o.count)); for (k, x) in o { add(k); add(x) }
            }
        }
        mutating func add(_ g: Geometry) {
            add(g.kind.rawValue)
            add(UInt64(g.dimensions))
            add(UInt64(g.coordinates.count))
            for c in g.coordinates { add(c.bitPattern) }
            add(UInt64(g.partStarts.count)); for p in g.partStarts { add(UInt64(p)) }
            add(UInt64(g.polygonStarts.count)); for p in g.polygonStarts { add(UInt64(p)) }
            add(UInt64(g.geometries.count)); for m in g.geometries { add(m) }
        }
    }

    static func hash(_ g: Geometry?) -> Int {
        var m = _Mix()
        if let g { m.add(g) } else { m.add(0) }
        return Int(bitPattern: UInt(m.h))
    }

    static func hash(_ v: PropertyValue) -> Int {
        var m = _Mix()
        m.add(v)
        return Int(bitPattern: UInt(m.h))
    }

    mutating func nameID(_ s: String) -> Int32 {
        if let i = names[s] { return i }
        let i = Int32(nameList.count)
        names[s] = i
        nameList.append(s)
        return i
    }

    /// Tiles at the deepest zoom of the range; the shallower ones are their ancestors.
    func deepTiles(_ g: Geometry?) -> [TileID] {
        guard let zooms = indexZooms else { return [] }
        return _RangeCover.deepest(g, zooms)
    }

    func tiles(of o: Old) -> ArraySlice<TileID> { tileStore[Int(o.tileStart)..<Int(o.tileStart + o.tileCount)] }

    mutating func touch<C: Collection>(_ deep: C) where C.Element == TileID {
        guard let zooms = indexZooms else { return }
        _RangeCover.forEachWithAncestors(deep, zooms) { touchedTiles.insert($0) }
    }

    /// One feature of the old snapshot.
    public mutating func addOld(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        let slot = Int32(olds.count)
        let fp = _KeyTable.fingerprint(k)
        if oldIndex.find(fp, { olds[Int($0)].key == k }) != nil {
            // Keep the first copy.
            duplicateIDs.append(k)
            return
        }
        oldIndex.insert(fp, slot)
        oldCount += 1
        let props = f.properties ?? PropertyList()
        let schemaID: Int32
        if let last = lastSchema, last.names == props.keys {
            schemaID = last.id
        } else {
            let schema = props.keys.map { nameID($0) }
            if let id = schemaIDs[schema] { schemaID = id } else {
                schemaID = Int32(schemas.count)
                schemas.append(schema)
                schemaIDs[schema] = schemaID
            }
            lastSchema = (props.keys, schemaID)
        }
        let values = Int32(valueHashes.count)
        for v in props.values { valueHashes.append(Self.hash(v)) }
        let tileStart = Int32(tileStore.count)
        if let z = indexZooms?.upperBound, let g = f.geometry, let t = _RangeCover.pointTile(g, zoom: z) {
            tileStore.append(t)   // no array per point
        } else {
            tileStore += deepTiles(f.geometry)
        }
        olds.append(Old(key: k, geometryHash: Self.hash(f.geometry), schema: schemaID, values: values,
                        tileStart: tileStart, tileCount: Int32(tileStore.count) - tileStart))
    }

    /// One feature of the new snapshot.
    public mutating func addNew(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        guard let slot = oldIndex.find(_KeyTable.fingerprint(k), { olds[Int($0)].key == k }) else {
            guard addedKeys.insert(k).inserted else { duplicateIDs.append(k); return }
            newCount += 1
            diff.add.append(f)
            touch(deepTiles(f.geometry))
            return
        }
        guard !olds[Int(slot)].seen else { duplicateIDs.append(k); return }
        newCount += 1
        olds[Int(slot)].seen = true
        let o = olds[Int(slot)]
        let gh = Self.hash(f.geometry)
        if gh != o.geometryHash && f.geometry == nil {
            // A geometry that becomes null: remove and add (no newGeometry form).
            diff.remove.append(k)
            diff.add.append(f)
            touch(tiles(of: o))
            return
        }
        var u = FeatureUpdate(id: k)
        if gh != o.geometryHash { u.newGeometry = f.geometry }
        let newProps = f.properties ?? PropertyList()
        let oldNames = schemas[Int(o.schema)]
        if newProps.isEmpty && !oldNames.isEmpty {
            u.removeAllProperties = true
        } else if newProps.count == oldNames.count && zip(newProps.keys, oldNames).allSatisfy({ nameList[Int($0.1)] == $0.0 }) {
            // Same names in the same order (the common case): compare values in place.
            for (i, v) in newProps.values.enumerated() where valueHashes[Int(o.values) + i] != Self.hash(v) {
                u.addOrUpdateProperties.append(key: newProps.keys[i], value: v)
            }
        } else {
            var oldByName: [Int32: Int] = [:]
            for (i, n) in oldNames.enumerated() { oldByName[n] = valueHashes[Int(o.values) + i] }
            var newNames = Set<Int32>()
            for (name, v) in newProps {
                let n = nameID(name)
                newNames.insert(n)
                if oldByName[n] != Self.hash(v) { u.addOrUpdateProperties.append(key: name, value: v) }
            }
            for n in oldNames where !newNames.contains(n) { u.removeProperties.append(nameList[Int(n)]) }
        }
        guard !u.isEmpty else { return }
        diff.update.append(u)
        touch(tiles(of: o))
        if u.newGeometry != nil { touch(deepTiles(f.geometry)) }
    }

    /// Adds the removes (old ids the new snapshot lacks, in old order) and returns the diff.
    public mutating func finish() -> GeoJSONSourceDiff {
        for o in olds where !o.seen {
            diff.remove.append(o.key)
            touch(tiles(of: o))
        }
        return diff
    }
}

/// An open-addressing table from key fingerprints to slots (linear probing, at most half
/// full). It stores no keys: a lookup confirms a fingerprint match with the caller's check.
struct _KeyTable {
    var fingerprints: [UInt64] = Array(repeating: 0, count: 1024)
    var slots: [Int32] = Array(repeating: -1, count: 1024)
    var count = 0

    static func fingerprint(_ k: FeatureKey) -> UInt64 {
        var m = SnapshotDiff._Mix()
        switch k {
        case .integer(let i): m.add(1); m.add(UInt64(bitPattern: i))
        case .number(let d): m.add(2); m.add(d.bitPattern)
        case .string(let s): m.add(3); m.add(s)
        }
        return m.h
    }

    func find(_ fp: UInt64, _ matches: (Int32) -> Bool) -> Int32? {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: fp) & mask
        while true {
            let s = slots[i]
            if s < 0 { return nil }
            if fingerprints[i] == fp && matches(s) { return s }
            i = (i + 1) & mask
        }
    }

    mutating func insert(_ fp: UInt64, _ slot: Int32) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: fp) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = slot
        fingerprints[i] = fp
        count += 1
    }

    mutating func grow() {
        let oldF = fingerprints, oldS = slots
        fingerprints = Array(repeating: 0, count: oldS.count * 2)
        slots = Array(repeating: -1, count: oldS.count * 2)
        let mask = slots.count - 1
        for j in oldS.indices where oldS[j] >= 0 {
            var i = Int(truncatingIfNeeded: oldF[j]) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = oldS[j]
            fingerprints[i] = oldF[j]
        }
    }
}
