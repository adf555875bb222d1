import GeoModel
import TileCover

/// A keyed set of features, as a map's data source holds them, with a tile → features index
/// over a zoom range kept up to date as diffs are applied.
///
/// Features are keyed by `id` (strings and numbers kept apart: `"1"` ≠ `1`) or by a
/// promoted property (`promoteId`, as MapLibre's option of that name). The index answers
/// `features(in:)` for any tile of the range; `apply(_:mode:)` returns the tiles a diff
/// touched: for every feature it changed, the tiles of its old geometry and of its new one,
/// at every zoom of the range (closed-square cover, `TileCoverage`).
///
/// ```swift
/// var store = try FeatureStore(features, indexZooms: 10...14)
/// let report = try store.apply(diff)
/// report.forEachTouchedTile { invalidate($0) }   // or report.touchedTiles, a Set
/// ```
public struct FeatureStore {
    /// What happens to a change that cannot be applied as written.
    public enum Mode: Sendable {
        /// Any update or remove of an unknown id, duplicate id, or feature without an id is
        /// a `SourceDiffError` naming it, and nothing is applied.
        case strict
        /// MapLibre's behaviour: unknown ids are skipped, an `add` of a present id replaces
        /// the feature, features without an id are skipped; each is reported.
        case lenient
    }

    /// A change that lenient mode skipped or reinterpreted.
    public struct Skipped: Equatable, Sendable {
        public enum Reason: Equatable, Sendable {
            case unknownRemove, unknownUpdate, missingID
            /// An add of a present id: the feature was replaced.
            case duplicateAddReplaced
        }
        public var reason: Reason
        public var id: FeatureKey?
        /// Position in the initial data or in the diff's `add` list, where that matters.
        public var index: Int?
    }

    /// What an `apply` did.
    public struct ApplyReport: Sendable {
        /// Every tile (over the index's zoom range) whose content changed, as a set (built
        /// on each call: O(touched tiles)).
        public var touchedTiles: Set<TileID> { touched.asSet }
        /// The number of touched tiles, without building the set.
        public var touchedTileCount: Int { touched.count }
        /// Calls `body` once with each touched tile, in no particular order, without
        /// building the set.
        public func forEachTouchedTile(_ body: (TileID) -> Void) { touched.forEach(body) }
        /// The touched tiles. Every tile in it has its ancestors in the index's range in it
        /// too (only ancestor-closed covers are added), which `touch(_:_:_:)` relies on.
        var touched = _TileTable(minimumCapacity: 0)
        public var added = 0, removed = 0, updated = 0
        public var skipped: [Skipped] = []
    }

    struct Entry {
        var key: FeatureKey
        var feature: GeoFeature
        /// Tiles of the feature's geometry over the index range (empty without an index).
        var cover: _StoredCover
        /// False for a free slot (its feature and cover are emptied).
        var live = true
    }

    public let promoteId: String?
    /// The zoom range of the tile index; nil for no index.
    public let indexZooms: ClosedRange<Int>?
    /// By slot; not optional, so a field is read in place (an optional element is copied
    /// whole, retaining every field, to be read).
    var entries: [Entry] = []
    var slotOf: [FeatureKey: Int32] = [:]
    var freeSlots: [Int32] = []
    var index: _TileIndex
    /// What lenient construction skipped.
    public private(set) var skippedAtBuild: [Skipped] = []

    /// A store of `features`.
    ///
    /// - Parameters:
    ///   - features: the features, in order (a later copy of an id is a duplicate).
    ///   - promoteId: the property whose value keys each feature, instead of `id`.
    ///   - indexZooms: the zooms of the tile index (within 0...29), or nil for none.
    ///   - mode: strict rejects duplicate and missing ids; lenient keeps the last feature
    ///     of a duplicated id and skips id-less ones, reporting both in `skippedAtBuild`.
    /// - Throws: `SourceDiffError.duplicateID` / `.missingID` in strict mode.
    /// - Complexity: O(features + index entries).
    public init(_ features: [GeoFeature], promoteId: String? = nil, indexZooms: ClosedRange<Int>? = nil,
                mode: Mode = .strict) throws(SourceDiffError)
    {
        try self.init(features, promoteId: promoteId, indexZooms: indexZooms, mode: mode, countAbove: 64)
    }

    /// As the public initialiser, with the index's `countAbove` (see `_TileIndex`).
    init(_ features: [GeoFeature], promoteId: String?, indexZooms: ClosedRange<Int>?, mode: Mode,
         countAbove: Int) throws(SourceDiffError)
    {
        index = _TileIndex(listedZoom: indexZooms?.upperBound ?? 0, countAbove: countAbove)
        precondition(indexZooms.map { $0.lowerBound >= 0 && $0.upperBound <= 29 } ?? true, "index zooms must lie in 0...29")
        self.promoteId = promoteId
        self.indexZooms = indexZooms
        entries.reserveCapacity(features.count)
        slotOf.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            guard let k = FeatureKey.of(f, promoteId: promoteId) else {
                if mode == .strict { throw .missingID(index: i) }
                skippedAtBuild.append(Skipped(reason: .missingID, id: nil, index: i))
                continue
            }
            if let slot = slotOf[k] {
                if mode == .strict { throw .duplicateID(k) }
                skippedAtBuild.append(Skipped(reason: .duplicateAddReplaced, id: k, index: i))
                unindex(slot)
                entries[Int(slot)].feature = f
                entries[Int(slot)].cover = cover(of: f.geometry)
                reindex(slot)
                continue
            }
            insert(k, f)
        }
    }

    /// Number of features.
    public var count: Int { slotOf.count }

    /// The feature with this key.
    public subscript(key: FeatureKey) -> GeoFeature? {
        slotOf[key].map { entries[Int($0)].feature }
    }

    /// Every key, in storage order.
    public var keys: [FeatureKey] { entries.compactMap { $0.live ? $0.key : nil } }

    /// The keys of the features whose geometry meets `tile`'s closed square; empty for a
    /// tile outside the index's zoom range.
    ///
    /// - Complexity: O(result) for a tile with at most 64 features or at the deepest index
    ///   zoom; above that, O(the index entries of its features below it), at most the
    ///   result times the zooms below.
    public func features(in tile: TileID) -> Set<FeatureKey> {
        var keys = Set<FeatureKey>()
        index.forEachSlot(in: tile) { keys.insert(entries[Int($0)].key) }
        return keys
    }

    /// The tiles of the index that hold at least one feature.
    public var indexedTiles: Set<TileID> {
        var tiles = Set<TileID>(minimumCapacity: index.count)
        index.forEachTile { tiles.insert($0) }
        return tiles
    }

    // MARK: Index

    /// The closed-square cover over the index range (`ZoomRangeCover`), as stored: a geometry
    /// strictly inside one tile at the deepest zoom (a point, a small outline) keeps only that
    /// tile (no array per feature); anything else keeps the list.
    func cover(of geometry: Geometry?) -> _StoredCover {
        guard let zooms = indexZooms else { return .list([]) }
        if let g = geometry, let t = ZoomRangeCover.interiorTile(g, zoom: zooms.upperBound) { return .chain(t) }
        var out: [TileID] = []
        ZoomRangeCover.forEachWithAncestors(ZoomRangeCover.deepest(geometry, zooms), zooms) { out.append($0) }
        return .list(out)
    }

    mutating func insert(_ k: FeatureKey, _ f: GeoFeature) {
        let entry = Entry(key: k, feature: f, cover: cover(of: f.geometry))
        let slot: Int32
        if let s = freeSlots.popLast() {
            slot = s
            entries[Int(s)] = entry
        } else {
            slot = Int32(entries.count)
            entries.append(entry)
        }
        slotOf[k] = slot
        reindex(slot)
    }

    mutating func reindex(_ slot: Int32) {
        entries[Int(slot)].cover.forEach(indexZooms) { index.insert(slot, $0) }
    }

    /// Moves `slot` in the index from the tiles `old` to the tiles `new`, leaving alone the
    /// tiles both hold (a moved point usually stays in the same tiles at most zooms). The
    /// tiles only `new` holds are also inserted into `touched`.
    mutating func reindex(_ slot: Int32, from old: _StoredCover, to new: _StoredCover, touching touched: inout _TileTable) {
        if case .chain(var a) = old, case .chain(var b) = new, let zooms = indexZooms {
            // Two chains (each a geometry inside one deepest tile): they differ up to the
            // deepest common ancestor, and agree from there on.
            var z = zooms.upperBound
            while a != b {
                index.remove(slot, a)
                index.insert(slot, b)
                touched.insert(b)
                if z == zooms.lowerBound { break }
                a = a.parent!
                b = b.parent!
                z -= 1
            }
            return
        }
        reindex(slot, from: old.tiles(indexZooms), to: new.tiles(indexZooms), touching: &touched)
    }

    mutating func reindex(_ slot: Int32, from old: [TileID], to new: [TileID], touching touched: inout _TileTable) {
        if old.count <= 32 && new.count <= 32 {
            // Small covers (points, short lines): pairwise membership beats building sets.
            for t in old where !new.contains(t) { index.remove(slot, t) }
            for t in new where !old.contains(t) {
                index.insert(slot, t)
                touched.insert(t)
            }
        } else {
            let oldSet = Set(old), newSet = Set(new)
            for t in old where !newSet.contains(t) { index.remove(slot, t) }
            for t in new where !oldSet.contains(t) {
                index.insert(slot, t)
                touched.insert(t)
            }
        }
    }

    mutating func unindex(_ slot: Int32) {
        entries[Int(slot)].cover.forEach(indexZooms) { index.remove(slot, $0) }
    }

    mutating func delete(_ k: FeatureKey) -> _StoredCover {
        guard let slot = slotOf.removeValue(forKey: k) else { return .list([]) }
        unindex(slot)
        let old = entries[Int(slot)].cover
        entries[Int(slot)] = Entry(key: entries[Int(slot)].key, feature: GeoFeature(geometry: nil, properties: nil), cover: .list([]), live: false)
        freeSlots.append(slot)
        return old
    }

    // MARK: Applying

    /// Applies `diff` (removeAll, remove, add, update, in that order) and returns what it
    /// touched. Atomic: every change is checked before any is made, so on a thrown error
    /// the store is unchanged.
    ///
    /// - Throws: in strict mode, `.unknownID` for a remove or update of an absent id,
    ///   `.duplicateID` for an add of a present id, `.missingID` for an add without one.
    /// - Complexity: O(changes + the index entries of the changed features).
    @discardableResult
    public mutating func apply(_ diff: GeoJSONSourceDiff, mode: Mode = .strict) throws(SourceDiffError) -> ApplyReport {
        var report = ApplyReport()
        // Check: which ids are present at each step, without touching the store.
        var overlay: [FeatureKey: Bool] = [:]
        func present(_ k: FeatureKey) -> Bool {
            (overlay.isEmpty ? nil : overlay[k]) ?? (!diff.removeAll && slotOf[k] != nil)
        }
        var removes: [FeatureKey] = []
        for (i, k) in diff.remove.enumerated() {
            guard present(k) else {
                if mode == .strict {
                    // Only on the way to an error: an earlier remove of the same id is named.
                    if let j = diff.remove[..<i].firstIndex(of: k) { throw .conflict(k, "remove[\(i)] repeats remove[\(j)]") }
                    throw .unknownID(k)
                }
                report.skipped.append(Skipped(reason: .unknownRemove, id: k, index: nil))
                continue
            }
            overlay[k] = false
            removes.append(k)
        }
        var adds: [(FeatureKey, GeoFeature)] = []
        for (i, f) in diff.add.enumerated() {
            guard let k = FeatureKey.of(f, promoteId: promoteId) else {
                if mode == .strict { throw .missingID(index: i) }
                report.skipped.append(Skipped(reason: .missingID, id: nil, index: i))
                continue
            }
            if present(k) {
                if mode == .strict { throw .duplicateID(k) }
                report.skipped.append(Skipped(reason: .duplicateAddReplaced, id: k, index: i))
            }
            overlay[k] = true
            adds.append((k, f))
        }
        // The updates to apply, as (slot, position in `diff.update`) words. A slot found
        // here is kept (the removes and adds of this diff do not move it); the slot of an id
        // this diff removes or adds is found after the adds.
        var updates: [UInt64] = []
        updates.reserveCapacity(diff.update.count)
        let unresolved = UInt64(UInt32.max)
        for (i, u) in diff.update.enumerated() {
            let changedHere = overlay.isEmpty ? nil : overlay[u.id]
            let slot = changedHere == nil && !diff.removeAll ? slotOf[u.id] : nil
            guard changedHere ?? (slot != nil) else {
                if mode == .strict {
                    if changedHere == false, let j = diff.remove.firstIndex(of: u.id) {
                        throw .conflict(u.id, "update[\(i)] changes the feature that remove[\(j)] of the same diff removes "
                                        + "(a diff removes, then adds, then updates)")
                    }
                    throw .unknownID(u.id)
                }
                report.skipped.append(Skipped(reason: .unknownUpdate, id: u.id, index: nil))
                continue
            }
            updates.append((slot.map { UInt64($0) } ?? unresolved) << 32 | UInt64(i))
        }

        // Apply: nothing below can fail.
        // Room for two tiles per change (a moved point's chain stops at the first tile
        // already touched): a large diff grows the table a few times at most.
        report.touched = _TileTable(minimumCapacity: indexZooms == nil ? 0 : min(2 * (removes.count + adds.count + 2 * updates.count), 1 << 22))
        if diff.removeAll {
            index.forEachTile { report.touched.insert($0) }
            report.removed += slotOf.count
            entries.removeAll()
            slotOf.removeAll()
            freeSlots.removeAll()
            index = _TileIndex(listedZoom: index.listedZoom, countAbove: index.countAbove)
        }
        // Index edits are logged and made together at the end, in table order.
        index.beginBatch()
        for k in removes {
            Self.touch(delete(k), indexZooms, &report.touched)
            report.removed += 1
        }
        for (k, f) in adds {
            if slotOf[k] != nil {
                // Lenient replace: old and new tiles are touched.
                Self.touch(delete(k), indexZooms, &report.touched)
            }
            insert(k, f)
            Self.touch(entries[Int(slotOf[k]!)].cover, indexZooms, &report.touched)
            report.added += 1
        }
        // In slot order (stable: one id's updates keep their order), so a large diff walks
        // the entries forward instead of at random.
        for j in updates.indices where updates[j] >> 32 == unresolved {
            let i = updates[j] & 0xFFFF_FFFF
            updates[j] = UInt64(slotOf[diff.update[Int(i)].id]!) << 32 | i
        }
        updates.sort()
        // Updates are read in place (a copy of each would retain every field).
        diff.update.withUnsafeBufferPointer { all in
            for word in updates {
                let slot = Int32(truncatingIfNeeded: word >> 32)
                let u = all.baseAddress! + Int(word & 0xFFFF_FFFF)
                if !u.pointee.removeAllProperties && u.pointee.removeProperties.isEmpty {
                    // Moves and property sets (the usual live update), edited in place: the
                    // content changes iff the geometry does or a set value differs from the
                    // present one (or is new).
                    let sets = !u.pointee.addOrUpdateProperties.isEmpty
                    let moved = u.pointee.newGeometry != nil && u.pointee.newGeometry != entries[Int(slot)].feature.geometry
                    guard moved || sets && Self.changes(entries[Int(slot)].feature.properties, u.pointee.addOrUpdateProperties) else { continue }
                    report.updated += 1
                    let oldCover = entries[Int(slot)].cover
                    Self.touch(oldCover, indexZooms, &report.touched)
                    if moved {
                        move(slot, from: oldCover, to: u.pointee.newGeometry!, touching: &report.touched)
                        entries[Int(slot)].feature.geometry = u.pointee.newGeometry
                    }
                    if entries[Int(slot)].feature.properties == nil { entries[Int(slot)].feature.properties = PropertyList() }   // as `applied(to:)`
                    if sets {
                        for (k, v) in u.pointee.addOrUpdateProperties { entries[Int(slot)].feature.properties!.set(k, v) }
                    }
                    continue
                }
                let old = entries[Int(slot)]
                let new = u.pointee.applied(to: old.feature)
                guard !FeatureStore.sameContent(old.feature, new) else { continue }
                report.updated += 1
                Self.touch(old.cover, indexZooms, &report.touched)
                if let g = u.pointee.newGeometry, g != old.feature.geometry {
                    move(slot, from: old.cover, to: g, touching: &report.touched)
                }
                entries[Int(slot)].feature = new
            }
        }
        index.commitBatch()
        return report
    }

    /// Whether setting `sets` on `properties` changes them (nil and empty are the same).
    static func changes(_ properties: PropertyList?, _ sets: PropertyList) -> Bool {
        for (k, v) in sets where !(properties?[k].map { $0.sameJSONValue(as: v) } ?? false) { return true }
        return false
    }

    /// Gives `slot` the cover of its new geometry `g` and moves it in the index. The old
    /// tiles must be touched already; only the new ones are added to `touched`.
    mutating func move(_ slot: Int32, from oldCover: _StoredCover, to g: Geometry, touching touched: inout _TileTable) {
        let newCover = cover(of: g)
        reindex(slot, from: oldCover, to: newCover, touching: &touched)
        entries[Int(slot)].cover = newCover
    }

    /// Adds a cover (ancestor-closed; a list holds its deepest level first) to `touched`.
    /// A cover that is one chain (a point, or a list with one tile per zoom) stops at its
    /// first tile already touched: that tile's ancestors are touched too.
    /// (Static: a method on `self`, called from `apply`, copied the store, and the next
    /// mutation then copied its dictionaries.)
    static func touch(_ cover: _StoredCover, _ zooms: ClosedRange<Int>?, _ touched: inout _TileTable) {
        switch cover {
        case .chain(let t):
            guard let zooms else { return }
            ZoomRangeCover.insertWithAncestors(CollectionOfOne(t), zooms) { touched.insert($0) }
        case .list(let tiles):
            if let zooms, tiles.count == zooms.count {
                for t in tiles where !touched.insert(t) { return }
            } else {
                for t in tiles { touched.insert(t) }
            }
        }
    }

    // MARK: Comparing

    /// Same geometry and same properties (as a set of key/value pairs: order and nil versus
    /// empty do not matter).
    public static func sameContent(_ a: GeoFeature, _ b: GeoFeature) -> Bool {
        guard a.geometry == b.geometry, sameExtras(a, b) else { return false }
        let pa = a.properties ?? PropertyList(), pb = b.properties ?? PropertyList()
        guard pa.count == pb.count else { return false }
        for (k, v) in pa { guard let w = pb[k], v.sameJSONValue(as: w) else { return false } }
        return true
    }

    /// Whether two features have the same `bbox` and foreign members (numbers compared as
    /// numbers), which an update cannot change.
    static func sameExtras(_ a: GeoFeature, _ b: GeoFeature) -> Bool {
        guard a.bbox == b.bbox else { return false }
        switch (a.foreignMembers, b.foreignMembers) {
        case (nil, nil): return true
        case (let x?, let y?): return PropertyValue.object(x).sameJSONValue(as: .object(y))
        default: return false
        }
    }

    /// Whether both stores hold the same keys with the same content.
    public func sameContent(as other: FeatureStore) -> Bool {
        guard count == other.count else { return false }
        for e in entries where e.live {
            guard let f = other[e.key], FeatureStore.sameContent(e.feature, f) else { return false }
        }
        return true
    }

    /// The minimal diff from `old` to `new`: identical features produce nothing; a
    /// geometry change is `newGeometry`; property changes are property-level edits
    /// (`removeAllProperties` when every property goes); a key only in `old` is removed,
    /// one only in `new` added (so a changed id is a remove and an add).
    ///
    /// - Complexity: O(features + properties).
    public static func diff(from old: FeatureStore, to new: FeatureStore) -> GeoJSONSourceDiff {
        var d = GeoJSONSourceDiff()
        for e in old.entries where e.live {
            if new.slotOf[e.key] == nil { d.remove.append(e.key) }
        }
        for e in new.entries where e.live {
            guard let o = old[e.key] else { d.add.append(e.feature); continue }
            if (o.geometry != nil && e.feature.geometry == nil) || !sameExtras(o, e.feature) {
                // A geometry that becomes null has no `newGeometry` form, and an update
                // cannot carry a bbox or foreign members: remove and add.
                d.remove.append(e.key)
                d.add.append(e.feature)
                continue
            }
            if let u = update(e.key, from: o, to: e.feature) { d.update.append(u) }
        }
        return d
    }

    /// The update that turns `a` into `b`, or nil when they have the same content. (A
    /// geometry that becomes null cannot be written as `newGeometry`; `diff(from:to:)`
    /// turns that case into a remove and an add.)
    public static func update(_ key: FeatureKey, from a: GeoFeature, to b: GeoFeature) -> FeatureUpdate? {
        var u = FeatureUpdate(id: key)
        if a.geometry != b.geometry { u.newGeometry = b.geometry }
        let pa = a.properties ?? PropertyList(), pb = b.properties ?? PropertyList()
        if pb.isEmpty && !pa.isEmpty {
            u.removeAllProperties = true
        } else {
            for (k, _) in pa where pb[k] == nil { u.removeProperties.append(k) }
            for (k, v) in pb where !(pa[k].map { $0.sameJSONValue(as: v) } ?? false) { u.addOrUpdateProperties.append(key: k, value: v) }
        }
        return u.isEmpty ? nil : u
    }
}
