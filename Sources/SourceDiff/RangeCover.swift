import GeoModel
import TileCover

/// A geometry's closed-square cover over a zoom range, as the store's index and the
/// snapshot diff both need it: computed at the deepest zoom; the shallower zooms are its
/// ancestors (a square meets a geometry iff one of its four children does, so this is
/// exact).
enum _RangeCover {
    /// The tiles at `zooms.upperBound`.
    static func deepest(_ geometry: Geometry?, _ zooms: ClosedRange<Int>) -> [TileID] {
        guard let g = geometry else { return [] }
        if let t = interiorTile(g, zoom: zooms.upperBound) { return [t] }
        return TileCoverage.tiles(for: g, zoom: zooms.upperBound)
    }

    /// The one tile that holds every position of `g` strictly inside it (not on a tile
    /// edge, where a point's closed cover has 2 or 4 tiles); nil otherwise. That tile is then
    /// the geometry's whole closed cover at `zoom`: the open square is convex, so the
    /// segments between the positions and the area a ring encloses stay inside it too, and
    /// no other tile's closed square meets the open square. (A point, or a small line or
    /// outline such as a building; collections keep their positions in their members and
    /// take the general cover.)
    @inline(__always)
    static func interiorTile(_ g: Geometry, zoom: Int) -> TileID? {
        let count = g.positionCount
        guard count >= 1, g.kind != .geometryCollection,
              let t = pointTile(longitude: g.x(0), latitude: g.y(0), zoom: zoom) else { return nil }
        for i in 1..<count where pointTile(longitude: g.x(i), latitude: g.y(i), zoom: zoom) != t { return nil }
        return t
    }

    @inline(__always)
    static func pointTile(longitude: Double, latitude: Double, zoom: Int) -> TileID? {
        let n = Double(1 << zoom)
        let fx = WebMercator.x(longitude: longitude) * n, fy = WebMercator.y(latitude: latitude) * n
        guard fx > 0, fy > 0, fx < n, fy < n else { return nil }
        let ix = fx.rounded(.down), iy = fy.rounded(.down)
        guard ix != fx, iy != fy else { return nil }
        return TileID(z: zoom, x: Int(ix), y: Int(iy))
    }

    /// Inserts every tile of `deep` (tiles at `zooms.upperBound`) and its ancestors down to
    /// `zooms.lowerBound` into `set`, where `set` holds only tiles inserted this way. Then a
    /// tile present has all its ancestors in range present too, so each chain stops at its
    /// first tile that is already there (nearby features share most of their ancestors).
    static func insertWithAncestors<C: Collection>(_ deep: C, _ zooms: ClosedRange<Int>, into set: inout _TileTable)
        where C.Element == TileID
    {
        for d in deep {
            var t = d, z = zooms.upperBound
            while set.insert(t) && z > zooms.lowerBound {
                t = t.parent!
                z -= 1
            }
        }
    }

    /// Calls `body` once with every tile of `deep` (tiles at `zooms.upperBound`) and every
    /// ancestor of them down to `zooms.lowerBound`.
    static func forEachWithAncestors<C: Collection>(_ deep: C, _ zooms: ClosedRange<Int>, _ body: (TileID) -> Void)
        where C.Element == TileID
    {
        if deep.count == 1 {
            // One tile (a point): it and its ancestors, without building sets.
            var t = deep.first!
            body(t)
            for _ in zooms.dropFirst() {
                t = t.parent!
                body(t)
            }
            return
        }
        var level = Set(deep)
        var z = zooms.upperBound
        while true {
            level.forEach(body)
            if z == zooms.lowerBound { break }
            level = Set(level.map { $0.parent! })
            z -= 1
        }
    }
}

/// The home bucket of a packed tile word in the tile tables (`_TileTable`, `_TileIndex`) of
/// 2^(64 − shift) buckets: the word times 2^64/φ, top bits (multiplicative hashing).
@inline(__always)
func _tileHome(_ key: UInt64, shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
}

/// A set of tiles as an open-addressing table of packed words (`TileID.packedValue`, never
/// 0, so 0 marks an empty slot) with a multiplicative hash and linear probing, at most half
/// full. The standard set's seeded hashing cost more than the rest of an insert, and the
/// snapshot diff inserts a chain of ancestors for every changed feature.
struct _TileTable {
    private var slots: [UInt64]
    private var shift: UInt64   // 64 - log2(slots.count)
    private(set) var count = 0

    /// A table that holds `n` tiles without growing (at least 32).
    init(minimumCapacity n: Int = 32) {
        var size = 64, shift: UInt64 = 58
        while size < 2 * n { size *= 2; shift -= 1 }
        slots = Array(repeating: 0, count: size)
        self.shift = shift
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { _tileHome(key, shift: shift) }

    /// Inserts a tile; false when it was present.
    @discardableResult
    mutating func insert(_ t: TileID) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let key = t.packedValue, mask = slots.count - 1
        var i = home(key)
        while true {
            let s = slots[i]
            if s == key { return false }
            if s == 0 {
                slots[i] = key
                count += 1
                return true
            }
            i = (i + 1) & mask
        }
    }

    func contains(_ t: TileID) -> Bool {
        let key = t.packedValue, mask = slots.count - 1
        var i = home(key)
        while true {
            let s = slots[i]
            if s == key { return true }
            if s == 0 { return false }
            i = (i + 1) & mask
        }
    }

    func forEach(_ body: (TileID) -> Void) {
        for s in slots where s != 0 { body(TileID(packedValue: s)!) }
    }

    /// The tiles as a standard set.
    var asSet: Set<TileID> {
        var s = Set<TileID>(minimumCapacity: count)
        forEach { s.insert($0) }
        return s
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        shift -= 1
        count = 0
        for s in old where s != 0 { insert(TileID(packedValue: s)!) }
    }
}

/// A feature's tiles over an index's zoom range, as the store keeps them: a geometry strictly
/// inside one tile at the deepest zoom (a point, a building) keeps only that tile (its cover
/// is the tile and its ancestors), so it costs no array; anything else keeps the list,
/// deepest level first.
enum _Cover {
    case chain(TileID)
    case list([TileID])

    /// Calls `body` with every tile (for a chain: deepest first, down to `zooms.lowerBound`).
    @inline(__always)
    func forEach(_ zooms: ClosedRange<Int>?, _ body: (TileID) -> Void) {
        switch self {
        case .chain(let t):
            guard let zooms else { return }
            _RangeCover.forEachWithAncestors(CollectionOfOne(t), zooms, body)
        case .list(let tiles):
            for t in tiles { body(t) }
        }
    }

    /// The tiles as a list.
    func tiles(_ zooms: ClosedRange<Int>?) -> [TileID] {
        switch self {
        case .chain:
            var out: [TileID] = []
            forEach(zooms) { out.append($0) }
            return out
        case .list(let tiles): return tiles
        }
    }
}
