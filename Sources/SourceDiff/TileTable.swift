import TileCover

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
enum _StoredCover {
    case chain(TileID)
    case list([TileID])

    /// Calls `body` with every tile (for a chain: deepest first, down to `zooms.lowerBound`).
    @inline(__always)
    func forEach(_ zooms: ClosedRange<Int>?, _ body: (TileID) -> Void) {
        switch self {
        case .chain(let t):
            guard let zooms else { return }
            ZoomRangeCover.forEachWithAncestors(CollectionOfOne(t), zooms, body)
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
