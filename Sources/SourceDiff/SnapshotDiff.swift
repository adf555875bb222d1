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
        /// Next to the key, in the padding after its tag byte: 48 bytes a feature, not 56.
        var seen = false
        /// The geometry's hash, xor the hash of the feature's own `bbox` and foreign
        /// members when it has any (then also in `oldExtras`).
        var geometryHash: Int
        /// The feature's property names, in order, as an interned list.
        var schema: Int32
        /// Start of its value hashes in `valueHashes` (one per name of the schema).
        var values: Int32
        /// Its tiles at the deepest zoom: `tileStart..<tileStart+tileCount` in `tileStore`;
        /// or, when `tileCount` is -1, a point whose longitude and latitude are
        /// `points[2 * tileStart]` and the next (its tiles are found only if it changes).
        var tileStart: Int32
        var tileCount: Int32
    }
    /// Old keys → slots in `olds`: an open-addressing table on a 64-bit fingerprint of the
    /// key (cheaper per lookup than the standard dictionary's seeded hashing, which
    /// dominated the lookups of a million ids); a fingerprint match is confirmed against
    /// the stored key.
    var oldIndex = _KeyTable()
    /// While every old key so far is an integer greater than the one before (ids numbered
    /// in order, the usual case), `olds` is sorted and duplicate-free by construction: the
    /// table is not filled, and lookups binary-search `olds`. The first key out of order
    /// fills the table with every slot so far and ends this mode for good.
    var oldsAscending = true
    var lastAscending: Int64 = .min
    /// The old slot the next new feature is first compared with.
    var nextGuess = 0
    var olds: [Old] = []
    var lastSchema: (names: [String], id: Int32)? = nil
    var addedKeys: Set<FeatureKey> = []
    var schemas: [[Int32]] = []
    var schemaIDs: [[Int32]: Int32] = [:]
    var valueHashes: [Int] = []
    var tileStore: [TileID] = []
    var points: [Double] = []
    var names: [String: Int32] = [:]
    var nameList: [String] = []

    /// The diff so far: adds and updates as the new snapshot is read; removes at `finish`.
    public private(set) var diff = GeoJSONSourceDiff()
    /// Tiles touched by the changes of features with small covers, over the index's zoom
    /// range. (Filled only through `ZoomRangeCover.insertWithAncestors`, which relies on
    /// that.) The touched covers of large geometries are in `touchedGeometries`.
    var touched = _TileTable()
    /// Changed geometries whose covers are large (see `heldTileLimit`): their tiles are
    /// computed zoom by zoom as row runs when the touched tiles are counted or listed, never
    /// held one by one, so memory follows their vertices, not their area.
    var touchedGeometries: [Geometry] = []
    /// Old geometries with large covers, by slot (their `tileCount` is -2).
    var largeOlds: [Int32: Geometry] = [:]
    /// Upper estimate of the touched tiles so far (exact for the held ones).
    var touchedGeometryEstimate = 0.0
    /// Features of either snapshot without an id (skipped), and ids repeated within one
    /// snapshot (the later feature is ignored).
    /// The hash of an old feature's `bbox` and foreign members, by slot, for the few that
    /// have them.
    var oldExtras: [Int32: Int] = [:]
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
    struct _ContentHash {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        @inline(__always)
        mutating func add(_ v: UInt64) {
            var x = h ^ v
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            h = x ^ (x >> 31)
        }
        /// Eight bytes per step over the string's UTF-8 storage (native and small strings
        /// expose it; a bridged one is copied first).
        mutating func add(_ s: String) {
            Self.withUTF8(s) { add($0) }
        }
        @inline(__always)
        static func withUTF8<R>(_ s: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            if let r = s.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
                return r
            }
            var copy = s
            return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
        @inline(__always)
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            let n = bytes.count
            var i = 0
            while i + 8 <= n {
                add(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
            add(Self.lengthTaggedTail(bytes, from: i))
        }
        /// The bytes from `i` on (at most seven), little-endian, with the whole length in
        /// the top byte: that keeps "a" and "a\0" apart (a tail has at most seven bytes, so
        /// the two never overlap). For a string of up to seven bytes it is the whole string.
        @inline(__always)
        static func lengthTaggedTail(_ bytes: UnsafeRawBufferPointer, from i: Int) -> UInt64 {
            var tail: UInt64 = 0, shift: UInt64 = 0
            for j in i..<bytes.count {
                tail |= UInt64(bytes[j]) << shift
                shift += 8
            }
            return tail ^ UInt64(truncatingIfNeeded: bytes.count) << 56
        }
        /// Type tags, folded into the state with no round of their own: a scalar value costs
        /// one round. (The round is a bijection, so two values of one type never collide;
        /// across types a collision needs a payload pair that differs by exactly the two
        /// tags, as likely as any other 64-bit collision.)
        enum Tag {
            static let null: UInt64 = 0xC13D_9362_E5C1_F6FA
            static let yes: UInt64 = 0xA7AC_7E6D_28F0_2C63
            static let no: UInt64 = 0xD015_8F7B_16BC_8A11
            static let int: UInt64 = 0xDA67_609E_637D_BC67
            static let uint: UInt64 = 0x2F96_0787_A78B_FAB3
            static let double: UInt64 = 0x12E7_19D5_6CAC_A712
            static let string: UInt64 = 0x458B_BA2D_1C59_AC8E
            static let array: UInt64 = 0xCDC8_0D97_482C_5796
            static let object: UInt64 = 0x7777_A932_53A1_0B80
            static let shortString: UInt64 = 0x3B1F_86D4_C2E9_5A07
        }
        mutating func add(_ v: PropertyValue) {
            switch v {
            case .null: add(Tag.null)
            case .bool(let b): add(b ? Tag.yes : Tag.no)
            case .int(let i): add(UInt64(bitPattern: i) ^ Tag.int)
            case .uint(let u): add(u <= UInt64(Int64.max) ? u ^ Tag.int : u ^ Tag.uint)
            case .double(let d):
                // Numbers hash as numbers: 1.0 as 1 (`PropertyValue.numbersCanonical`).
                if d == d.rounded(.towardZero) && d >= -0x1p63 && d < 0x1p63 { add(UInt64(bitPattern: Int64(d)) ^ Tag.int) }
                else if d == d.rounded(.towardZero) && d >= 0x1p63 && d < 0x1p64 { add(UInt64(d) ^ Tag.uint) }
                else { add(d.bitPattern ^ Tag.double) }
            case .string(let s): h ^= Tag.string; add(s)
            case .array(let a): add(UInt64(a.count) ^ Tag.array); for x in a { add(x) }
            case .object(let o): add(UInt64(o.count) ^ Tag.object); for (k, x) in o { add(k); add(x) }
            }
        }
        mutating func add(_ g: Geometry) {
            let kind: UInt64
            switch g.kind {
            case .point: kind = 1
            case .multiPoint: kind = 2
            case .lineString: kind = 3
            case .multiLineString: kind = 4
            case .polygon: kind = 5
            case .multiPolygon: kind = 6
            case .geometryCollection: kind = 7
            }
            // Kind and dimensions in the top byte, the coordinate count below it (an array of
            // 2^56 doubles cannot exist).
            add(kind << 60 | UInt64(g.dimensions) << 56 | UInt64(g.coordinates.count))
            for c in g.coordinates { add(c.bitPattern) }
            if g.partStarts.isEmpty && g.polygonStarts.isEmpty && g.geometries.isEmpty {
                add(0)   // points and single lines: one word for the three empty lists
                return
            }
            add(~0)
            add(UInt64(g.partStarts.count)); for p in g.partStarts { add(UInt64(p)) }
            add(UInt64(g.polygonStarts.count)); for p in g.polygonStarts { add(UInt64(p)) }
            add(UInt64(g.geometries.count)); for m in g.geometries { add(m) }
        }
    }

    /// A geometry's hash, read in place (passing `f.geometry` as an argument copied it,
    /// with a retain and release per array). A 2-D point, the common case, hashes its two
    /// coordinates in parallel lanes: two rounds deep instead of four. (Each lane is a
    /// bijection of its coordinate, so points that differ in one coordinate never collide.)
    static func geometryHash(_ f: borrowing GeoFeature) -> Int {
        var m = _ContentHash()
        switch f.geometry {
        case .some(let g):
            if g.kind == .point && g.dimensions == 2 && g.coordinates.count == 2 {
                var a = _ContentHash(h: 0x5851_F42D_4C95_7F2D), b = _ContentHash(h: 0x1405_7B7E_F767_814F)
                a.add(g.coordinates[0].bitPattern)
                b.add(g.coordinates[1].bitPattern)
                m.add(a.h ^ (b.h << 29 | b.h >> 35))
            } else {
                m.add(g)
            }
        case .none: m.add(0)
        }
        return Int(bitPattern: UInt(m.h))
    }

    /// The hash of a feature's own `bbox` and foreign members; 0 when it has neither.
    /// Numbers in foreign members hash as numbers, as properties do.
    static func extrasHash(_ f: borrowing GeoFeature) -> Int {
        guard f.hasBBoxOrForeignMembers else { return 0 }
        var m = _ContentHash(h: 0x2545_F491_4F6C_DD1D)
        if let b = f.bbox { m.add(UInt64(b.count)); for v in b { m.add(v.bitPattern) } }
        if let o = f.foreignMembers { m.add(.object(o)) }
        return Int(bitPattern: UInt(m.h)) | 1
    }

    /// A value's hash, which is only ever compared for equality. A scalar needs no mixing:
    /// its bits xor its type's tag already differ for any two values of that type, and a
    /// mix (a bijection) would not change which pairs of types' values coincide. A string of
    /// up to seven bytes is likewise packed whole, with its length. Longer strings, arrays
    /// and objects go through the mixer.
    @inline(__always)
    static func hash(_ v: PropertyValue) -> Int {
        let h: UInt64
        switch v {
        case .null: h = _ContentHash.Tag.null
        case .bool(let b): h = b ? _ContentHash.Tag.yes : _ContentHash.Tag.no
        case .int(let i): h = UInt64(bitPattern: i) ^ _ContentHash.Tag.int
        // Numbers hash as numbers, so 1, 1.0 and 1e0 are no change (the form of
        // `PropertyValue.numbersCanonical`).
        case .uint(let u): h = u <= UInt64(Int64.max) ? u ^ _ContentHash.Tag.int : u ^ _ContentHash.Tag.uint
        case .double(let d):
            if d == d.rounded(.towardZero) && d >= -0x1p63 && d < 0x1p63 {
                h = UInt64(bitPattern: Int64(d)) ^ _ContentHash.Tag.int
            } else if d == d.rounded(.towardZero) && d >= 0x1p63 && d < 0x1p64 {
                h = UInt64(d) ^ _ContentHash.Tag.uint
            } else {
                h = d.bitPattern ^ _ContentHash.Tag.double
            }
        case .string(let s):
            h = _ContentHash.withUTF8(s) { b in
                if b.count <= 7 { return _ContentHash.lengthTaggedTail(b, from: 0) ^ _ContentHash.Tag.shortString }
                var m = _ContentHash()   // as `_ContentHash.add(.string(s))`, without a second pass for the length
                m.h ^= _ContentHash.Tag.string
                m.add(b)
                return m.h
            }
        case .array, .object:
            var m = _ContentHash()
            m.add(v)
            h = m.h
        }
        return Int(bitPattern: UInt(h))
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
        return ZoomRangeCover.deepest(g, zooms)
    }

    /// The most tiles at the deepest zoom a geometry may have to be held tile by tile: 64,
    /// or 16 per position. A larger cover (a country at z14) is kept as its geometry, so
    /// the tiles held stay proportional to the input's positions whatever the zooms.
    static func heldTileLimit(_ g: Geometry) -> Double { Double(max(64, 16 * g.positionCount)) }

    /// A geometry's cover at the deepest zoom: its tiles, or nil when it is too large to
    /// hold tile by tile (then the geometry is kept). One projection pass decides a
    /// geometry inside one tile (most features); only others pay for the estimate.
    func deepCover(_ g: Geometry?) -> [TileID]? {
        guard let zooms = indexZooms, let g else { return [] }
        if let t = ZoomRangeCover.interiorTile(g, zoom: zooms.upperBound) { return [t] }
        if g.kind != .point, TileCoverage.estimatedCount(for: g, zoom: zooms.upperBound) > Self.heldTileLimit(g) { return nil }
        return TileCoverage.tiles(for: g, zoom: zooms.upperBound)
    }

    /// Touches the tiles of a new (or changed) geometry.
    mutating func touch(geometry g: Geometry?) {
        if let tiles = deepCover(g) {
            touch(tiles)
        } else if let g, let zooms = indexZooms {
            touchedGeometries.append(g)
            touchedGeometryEstimate += zooms.reduce(0) { $0 + TileCoverage.estimatedCount(for: g, zoom: $1) }
        }
    }

    /// Touches the tiles of an old feature.
    mutating func touch(_ o: Old) {
        if o.tileCount == -2 {
            touch(geometry: largeOlds[Int32(o.tileStart)])
            return
        }
        guard o.tileCount < 0 else {
            touch(tileStore[Int(o.tileStart)..<Int(o.tileStart + o.tileCount)])
            return
        }
        let lon = points[2 * Int(o.tileStart)], lat = points[2 * Int(o.tileStart) + 1]
        if let z = indexZooms?.upperBound, let t = ZoomRangeCover.pointTile(longitude: lon, latitude: lat, zoom: z) {
            touch(CollectionOfOne(t))
        } else {
            touch(deepTiles(Geometry(kind: .point, coordinates: [lon, lat])))
        }
    }

    mutating func touch<C: Collection>(_ deep: C) where C.Element == TileID {
        guard let zooms = indexZooms else { return }
        ZoomRangeCover.insertWithAncestors(deep, zooms) { touched.insert($0) }
    }

    /// One feature of the old snapshot.
    public mutating func addOld(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        let slot = Int32(olds.count)
        if oldsAscending, case .integer(let i) = k, olds.isEmpty || i > lastAscending {
            lastAscending = i   // still ascending: nothing to record
        } else {
            if oldsAscending {
                oldsAscending = false
                for j in olds.indices { oldIndex.insert(_KeyTable.fingerprint(olds[j].key), Int32(j)) }
            }
            let fp = _KeyTable.fingerprint(k)
            if oldIndex.find(fp, { olds[Int($0)].key == k }) != nil {
                // Keep the first copy.
                duplicateIDs.append(k)
                return
            }
            oldIndex.insert(fp, slot)
        }
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
        let tileStart: Int32, tileCount: Int32
        if indexZooms != nil, let g = f.geometry, g.kind == .point, g.positionCount == 1 {
            tileStart = Int32(points.count / 2)
            tileCount = -1
            points.append(g.x(0))
            points.append(g.y(0))
        } else if let tiles = deepCover(f.geometry) {
            tileStart = Int32(tileStore.count)
            tileStore += tiles
            tileCount = Int32(tileStore.count) - tileStart
        } else {
            tileStart = slot
            tileCount = -2
            largeOlds[slot] = f.geometry
        }
        let extras = Self.extrasHash(f)
        if extras != 0 { oldExtras[Int32(olds.count)] = extras }
        olds.append(Old(key: k, geometryHash: Self.geometryHash(f) ^ extras, schema: schemaID, values: values,
                        tileStart: tileStart, tileCount: tileCount))
    }

    /// The slot of an old key.
    func findOld(_ k: FeatureKey) -> Int32? {
        guard oldsAscending else { return oldIndex.find(_KeyTable.fingerprint(k), { olds[Int($0)].key == k }) }
        guard case .integer(let i) = k else { return nil }
        var lo = 0, hi = olds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            guard case .integer(let m) = olds[mid].key else { preconditionFailure("ascending olds hold integer keys") }
            if m < i { lo = mid + 1 } else if m > i { hi = mid } else { return Int32(mid) }
        }
        return nil
    }

    /// One feature of the new snapshot.
    public mutating func addNew(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        let slot: Int32
        if nextGuess < olds.count && olds[nextGuess].key == k {
            // Snapshots of one source mostly keep their order: try the slot after the last
            // match before hashing (old keys are unique, so a match is the match).
            slot = Int32(nextGuess)
        } else if let found = findOld(k) {
            slot = found
        } else {
            guard addedKeys.insert(k).inserted else { duplicateIDs.append(k); return }
            newCount += 1
            diff.add.append(f)
            touch(geometry: f.geometry)
            return
        }
        nextGuess = Int(slot) + 1
        guard !olds[Int(slot)].seen else { duplicateIDs.append(k); return }
        newCount += 1
        olds[Int(slot)].seen = true
        let gh = Self.geometryHash(f) ^ Self.extrasHash(f)
        // Most features of a snapshot are unchanged: settle that before building an update.
        if gh == olds[Int(slot)].geometryHash,
           Self.sameProperties(f, schemas[Int(olds[Int(slot)].schema)], nameList, valueHashes, Int(olds[Int(slot)].values)) { return }
        addChange(f, k, olds[Int(slot)], slot: slot)
    }

    /// A new feature that differs from its old version `o`. (Out of line, so the common
    /// path above makes none of the copies this one needs.)
    @inline(never)
    mutating func addChange(_ f: GeoFeature, _ k: FeatureKey, _ o: Old, slot: Int32) {
        let oldExtras = self.oldExtras[slot] ?? 0, newExtras = Self.extrasHash(f)
        let geometryChanged = Self.geometryHash(f) != o.geometryHash ^ oldExtras
        if newExtras != oldExtras || (geometryChanged && f.geometry == nil) {
            // A changed bbox or foreign member, which an update cannot carry, or a geometry
            // that becomes null (no newGeometry form): remove and add.
            diff.remove.append(k)
            diff.add.append(f)
            touch(o)
            return
        }
        var u = FeatureUpdate(id: k)
        if geometryChanged { u.newGeometry = f.geometry }
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
        touch(o)
        if u.newGeometry != nil { touch(geometry: f.geometry) }
    }

    /// Whether a new feature has an old one's property names (`oldNames`, interned in
    /// `nameList`), in the same order, with equal values (hashes from `hashes[base...]`).
    /// Static, so a call from a mutating method does not copy `self`.
    static func sameProperties(_ f: GeoFeature, _ oldNames: [Int32], _ nameList: [String], _ hashes: [Int], _ base: Int) -> Bool {
        guard let p = f.properties else { return oldNames.isEmpty }
        guard p.keys.count == oldNames.count else { return false }
        for i in oldNames.indices {
            guard nameList[Int(oldNames[i])] == p.keys[i], hashes[base + i] == hash(p.values[i]) else { return false }
        }
        return true
    }

    /// Adds the removes (old ids the new snapshot lacks, in old order) and returns the diff.
    public mutating func finish() -> GeoJSONSourceDiff {
        for o in olds where !o.seen {
            diff.remove.append(o.key)
            touch(o)
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
        var m = SnapshotDiff._ContentHash()
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
