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

    struct Old {
        var geometryHash: Int
        /// (property name id, value hash), in the feature's order.
        var properties: [(Int32, Int)]
        var tiles: [TileID]
        var seen = false
    }
    var old: [FeatureKey: Old] = [:]
    var oldOrder: [FeatureKey] = []
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
    var newSeen: Set<FeatureKey> = []

    public init(promoteId: String? = nil, indexZooms: ClosedRange<Int>? = nil) {
        precondition(indexZooms.map { $0.lowerBound >= 0 && $0.upperBound <= 29 } ?? true, "index zooms must lie in 0...29")
        self.promoteId = promoteId
        self.indexZooms = indexZooms
    }

    static func hash(_ g: Geometry?) -> Int {
        var h = Hasher()
        guard let g else { h.combine(0 as UInt8); return h.finalize() }
        h.combine(g.kind.rawValue)
        h.combine(g.dimensions)
        h.combine(g.coordinates.count)
        for c in g.coordinates { h.combine(c.bitPattern) }
        h.combine(g.partStarts)
        h.combine(g.polygonStarts)
        h.combine(g.geometries.count)
        for m in g.geometries { h.combine(hash(m)) }
        return h.finalize()
    }

    static func hash(_ v: PropertyValue) -> Int { v.hashValue }

    mutating func nameID(_ s: String) -> Int32 {
        if let i = names[s] { return i }
        let i = Int32(nameList.count)
        names[s] = i
        nameList.append(s)
        return i
    }

    /// Tiles at the deepest zoom of the range; the shallower ones are their ancestors.
    func deepTiles(_ g: Geometry?) -> [TileID] {
        guard let zooms = indexZooms, let g else { return [] }
        return TileCoverage.tiles(for: g, zoom: zooms.upperBound)
    }

    mutating func touch(_ deep: [TileID]) {
        guard let zooms = indexZooms else { return }
        var level = Set(deep)
        var z = zooms.upperBound
        while true {
            touchedTiles.formUnion(level)
            if z == zooms.lowerBound { break }
            level = Set(level.map { $0.parent! })
            z -= 1
        }
    }

    /// One feature of the old snapshot.
    public mutating func addOld(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        guard old[k] == nil else { duplicateIDs.append(k); return }
        oldCount += 1
        let props = (f.properties ?? PropertyList()).map { (nameID($0.key), Self.hash($0.value)) }
        old[k] = Old(geometryHash: Self.hash(f.geometry), properties: props, tiles: deepTiles(f.geometry))
        oldOrder.append(k)
    }

    /// One feature of the new snapshot.
    public mutating func addNew(_ f: GeoFeature) {
        guard let k = FeatureKey.of(f, promoteId: promoteId) else { missingIDs += 1; return }
        guard newSeen.insert(k).inserted else { duplicateIDs.append(k); return }
        newCount += 1
        guard var o = old[k] else {
            diff.add.append(f)
            touch(deepTiles(f.geometry))
            return
        }
        o.seen = true
        old[k] = o
        let gh = Self.hash(f.geometry)
        if gh != o.geometryHash && f.geometry == nil {
            // A geometry that becomes null: remove and add (no newGeometry form).
            diff.remove.append(k)
            diff.add.append(f)
            touch(o.tiles)
            return
        }
        var u = FeatureUpdate(id: k)
        if gh != o.geometryHash { u.newGeometry = f.geometry }
        let newProps = f.properties ?? PropertyList()
        if newProps.isEmpty && !o.properties.isEmpty {
            u.removeAllProperties = true
        } else {
            var oldByName: [Int32: Int] = [:]
            for (n, h) in o.properties { oldByName[n] = h }
            var newNames = Set<Int32>()
            for (name, v) in newProps {
                let n = nameID(name)
                newNames.insert(n)
                if oldByName[n] != Self.hash(v) { u.addOrUpdateProperties.append(key: name, value: v) }
            }
            for (n, _) in o.properties where !newNames.contains(n) { u.removeProperties.append(nameList[Int(n)]) }
        }
        guard !u.isEmpty else { return }
        diff.update.append(u)
        touch(o.tiles)
        if u.newGeometry != nil { touch(deepTiles(f.geometry)) }
    }

    /// Adds the removes (old ids the new snapshot lacks, in old order) and returns the diff.
    public mutating func finish() -> GeoJSONSourceDiff {
        for k in oldOrder {
            guard let o = old[k], !o.seen else { continue }
            diff.remove.append(k)
            touch(o.tiles)
        }
        return diff
    }
}
