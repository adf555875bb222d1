import TileCover

/// The store's tile → feature-slots index, as one open-addressing table of packed tile words
/// (`TileID.packedValue`, never 0, so 0 marks an empty bucket) with a multiplicative hash,
/// linear probing and backward-shift deletion, at most three-quarters full.
///
/// A bucket holds its tile and, inline, the slot of its one feature: over a deep zoom range
/// nearly every tile holds one feature, and such a tile then costs one bucket, no set and no
/// allocation, and an insert or a removal reads one cache line. A tile with two or more
/// features refers to a set in `sets` instead (a bucket value below 0 is `~position`); the
/// set goes back to an inline slot when one feature is left.
///
/// A tile shallower than `listedZoom` whose features outgrow `countAbove` keeps only their
/// number: its features are those of its children (a closed square meets a geometry iff
/// one of its four children's does, and covers are ancestor-closed), so listing them is a
/// walk down to listed tiles, and an edit of it is a counter update in a bucket that low
/// zooms keep in cache. Without this, every added or removed feature would update a large
/// set per low zoom, each a cache miss. Counting requires what the store guarantees: a slot
/// is inserted only where it is absent and removed only where it is present.
///
/// Between `beginBatch()` and `commitBatch()`, inserts and removals are only logged; the
/// commit makes them in bucket order. A large diff's edits land on buckets all over a table
/// far larger than the caches, and made in diff order nearly each one misses; in bucket
/// order the table is walked forward. Edits of one tile keep their order (the sort is
/// stable and a tile's edits share a bucket), so the result is the same as made at once.
struct _TileIndex {
    struct Bucket {
        var key: UInt64     // packed tile; 0 = empty
        var value: Int64    // ≥ 0: the one slot; in (counted, -1]: ~position in `sets`;
                            // below `counted`: `counted - number of features`
    }
    private static let counted: Int64 = -(1 << 48)

    /// The deepest zoom, where every tile lists its features.
    let listedZoom: Int
    /// The most features a shallower tile lists before it counts them instead.
    let countAbove: Int

    private var buckets: [Bucket]
    private var shift: UInt64   // 64 - log2(buckets.count)
    private var sets: [Set<Int32>] = []
    private var freeSets: [Int] = []
    /// Number of tiles held.
    private(set) var count = 0
    /// The logged edits of a batch: tile and slot, the slot as `~slot` for a removal.
    private var log: [(key: UInt64, slot: Int32)] = []
    private var batching = false

    /// An empty index, listing the features of tiles at `listedZoom` and of shallower ones
    /// with at most `countAbove` features.
    init(listedZoom: Int = Int(TileID.maxZoom), countAbove: Int = 64) {
        self.listedZoom = listedZoom
        self.countAbove = max(countAbove, 1)
        buckets = Array(repeating: Bucket(key: 0, value: 0), count: 64)
        shift = 58
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { _tileHome(key, shift: shift) }

    /// The bucket of `key`, or the empty bucket where it would go.
    @inline(__always)
    private func find(_ key: UInt64) -> (Int, found: Bool) {
        let mask = buckets.count - 1
        var i = home(key)
        while true {
            let k = buckets[i].key
            if k == key { return (i, true) }
            if k == 0 { return (i, false) }
            i = (i + 1) & mask
        }
    }

    /// Starts logging edits instead of making them.
    mutating func beginBatch() {
        batching = true
        log.removeAll(keepingCapacity: true)
    }

    /// Makes the logged edits, in bucket order when there are many.
    mutating func commitBatch() {
        batching = false
        guard !log.isEmpty else { return }
        var inserts = 0
        for e in log where e.slot >= 0 { inserts += 1 }
        // Room for every insert first (an upper bound: some land on tiles already held), so
        // no bucket moves while the edits are made.
        while (count + inserts) * 4 > buckets.count * 3 { grow() }
        if log.count >= 1024 { sortLogByBucket() }
        for e in log {
            if e.slot >= 0 { insert(key: e.key, e.slot) } else { remove(key: e.key, ~e.slot) }
        }
        if log.capacity > 1 << 16 { log = [] } else { log.removeAll(keepingCapacity: true) }
    }

    /// A stable counting sort of the log on the top bits of each edit's home bucket:
    /// about as many groups as edits (at most 2^16), each a short stretch of the table, in
    /// table order.
    private mutating func sortLogByBucket() {
        let n = log.count, tableBits = 64 - Int(shift)
        var groupBits = 1
        while groupBits < 16 && 1 << (groupBits + 1) <= n { groupBits += 1 }
        groupBits = min(groupBits, tableBits)
        let down = tableBits - groupBits
        var next = [Int](repeating: 0, count: 1 << groupBits)
        for e in log { next[home(e.key) >> down] += 1 }
        var start = 0
        for g in next.indices { (next[g], start) = (start, start + next[g]) }
        log = Array(unsafeUninitializedCapacity: n) { out, written in
            for e in log {
                let g = home(e.key) >> down
                (out.baseAddress! + next[g]).initialize(to: e)
                next[g] += 1
            }
            written = n
        }
    }

    /// Adds `slot` to `t`'s features (nothing if a listed tile has it; a counted tile
    /// cannot tell, so it must not have it).
    mutating func insert(_ slot: Int32, _ t: TileID) {
        if batching {
            log.append((t.packedValue, slot))
            return
        }
        if (count + 1) * 4 > buckets.count * 3 { grow() }
        insert(key: t.packedValue, slot)
    }

    @inline(__always)
    private mutating func insert(key: UInt64, _ slot: Int32) {
        let (i, found) = find(key)
        guard found else {
            buckets[i] = Bucket(key: key, value: Int64(slot))
            count += 1
            return
        }
        let v = buckets[i].value
        if v >= 0 {
            guard v != Int64(slot) else { return }
            let pair: Set<Int32> = [Int32(truncatingIfNeeded: v), slot]
            let p: Int
            if let f = freeSets.popLast() {
                p = f
                sets[p] = pair
            } else {
                p = sets.count
                sets.append(pair)
            }
            buckets[i].value = ~Int64(p)
        } else if v > Self.counted {
            let p = Int(~v)
            sets[p].insert(slot)
            guard sets[p].count > countAbove, Self.zoom(key) < listedZoom else { return }
            buckets[i].value = Self.counted - Int64(sets[p].count)
            sets[p] = []
            freeSets.append(p)
        } else {
            buckets[i].value -= 1
        }
    }

    @inline(__always)
    private static func zoom(_ key: UInt64) -> Int { (63 - key.leadingZeroBitCount) / 2 }

    /// Removes `slot` from `t`'s features (nothing if a listed tile lacks it; a counted tile
    /// cannot tell, so it must have it); a tile left with no feature leaves the index.
    mutating func remove(_ slot: Int32, _ t: TileID) {
        if batching {
            log.append((t.packedValue, ~slot))
            return
        }
        remove(key: t.packedValue, slot)
    }

    @inline(__always)
    private mutating func remove(key: UInt64, _ slot: Int32) {
        let (i, found) = find(key)
        guard found else { return }
        let v = buckets[i].value
        if v >= 0 {
            if v == Int64(slot) { removeBucket(at: i) }
            return
        }
        if v < Self.counted {
            if v == Self.counted - 1 { removeBucket(at: i) } else { buckets[i].value += 1 }
            return
        }
        let p = Int(~v)
        guard sets[p].remove(slot) != nil, sets[p].count == 1 else { return }
        buckets[i].value = Int64(sets[p].first!)
        sets[p] = []
        freeSets.append(p)
    }

    /// Empties bucket `i`, shifting back the entries after it in its probe run that may
    /// move (linear probing needs no tombstones).
    private mutating func removeBucket(at start: Int) {
        let mask = buckets.count - 1
        var i = start, j = start
        while true {
            j = (j + 1) & mask
            let k = buckets[j].key
            if k == 0 { break }
            // The entry at j may fill the hole at i iff its home is not after i, cyclically:
            // its distance from home reaches back to i or beyond.
            if (j &- home(k)) & mask >= (j &- i) & mask {
                buckets[i] = buckets[j]
                i = j
            }
        }
        buckets[i] = Bucket(key: 0, value: 0)
        count -= 1
    }

    /// Calls `body` with every slot of `t`'s features; for a counted tile, a feature in
    /// several of its children comes once per child.
    ///
    /// - Complexity: O(slots reported) for a listed tile; for a counted one, O(the index
    ///   entries of its features below it).
    func forEachSlot(in t: TileID, _ body: (Int32) -> Void) {
        let (i, found) = find(t.packedValue)
        guard found else { return }
        let v = buckets[i].value
        if v >= 0 {
            body(Int32(truncatingIfNeeded: v))
        } else if v > Self.counted {
            sets[Int(~v)].forEach(body)
        } else {
            // The four children, without building `children`'s array.
            let z = Int(t.z) + 1, x = Int(t.x) * 2, y = Int(t.y) * 2
            for dy in 0...1 {
                for dx in 0...1 { forEachSlot(in: TileID(z: z, x: x + dx, y: y + dy)!, body) }
            }
        }
    }

    /// Calls `body` with every tile held.
    func forEachTile(_ body: (TileID) -> Void) {
        for b in buckets where b.key != 0 { body(TileID(packedValue: b.key)!) }
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(key: 0, value: 0), count: old.count * 2)
        shift -= 1
        let mask = buckets.count - 1
        for b in old where b.key != 0 {
            var i = home(b.key)
            while buckets[i].key != 0 { i = (i + 1) & mask }
            buckets[i] = b
        }
    }
}
