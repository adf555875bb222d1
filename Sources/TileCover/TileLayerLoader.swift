/// A tile layer loading its tiles as the camera moves, as the mobile map SDKs' tile layers
/// do: each update asks for the tiles in view; a tile in the layer's cache is served from
/// it; any other is requested from the source, which answers with the tile's bytes, with
/// "no tile here" (the layer never asks for that tile again) or with "not available now"
/// (nothing is kept: the tile is asked for again on the next update that needs it). Loaded
/// tiles enter a least-recently-used cache bounded in tiles or bytes; `clear` empties it
/// and forgets the "no tile" answers, as `clearTileCache` makes every tile load again.
///
/// ```swift
/// var layer = TileLayerLoader(capacity: .init(tiles: 256))
/// let u = layer.update(view.map(\.tile)) { tile in archive.has(tile) ? .tile(bytes: n) : .noTile }
/// ```
public struct TileLayerLoader {
    /// A source's answer to a request.
    public enum Answer: Equatable, Sendable {
        /// The tile, of this many bytes.
        case tile(bytes: Int)
        /// The source has no tile here: it is never asked for again (until a clear).
        case noTile
        /// The source cannot answer now: asked again on the next update that needs it.
        case unavailable
    }

    /// The cache's bound: at most `tiles` tiles and at most `bytes` bytes (nil: no bound of
    /// that kind). A tile larger than the byte bound is loaded and not kept.
    public struct Capacity: Equatable, Sendable {
        public var tiles: Int?
        public var bytes: Int?
        public init(tiles: Int? = nil, bytes: Int? = nil) {
            self.tiles = tiles
            self.bytes = bytes
        }
    }

    /// What one update did.
    public struct Update: Equatable, Sendable {
        public var index = 0
        /// Whether the cache was cleared before this update.
        public var cleared = false
        /// Distinct source tiles in view.
        public var inView = 0
        /// Tiles in view served from the cache.
        public var fromCache = 0
        /// Tiles asked of the source (`loaded + noTile + unavailable`).
        public var requested = 0
        public var loaded = 0
        public var loadedBytes = 0
        /// Tiles the source answered "no tile" for, this update.
        public var noTile = 0
        /// Tiles in view not asked for because the source answered "no tile" before.
        public var knownAbsent = 0
        public var unavailable = 0
        /// Tiles dropped from the cache to stay within its capacity.
        public var evicted = 0
        /// The cache after the update.
        public var cachedTiles = 0
        public var cachedBytes = 0
        public init() {}
    }

    public let capacity: Capacity
    /// The updates made so far.
    public private(set) var updates = 0

    // The cache: an intrusive doubly linked list over slots, most recently used at `head`.
    var slotOf: [TileID: Int32] = [:]
    var keys: [TileID] = []
    var sizes: [Int] = []
    var prev: [Int32] = []
    var next: [Int32] = []
    var free: [Int32] = []
    var head: Int32 = -1, tail: Int32 = -1
    public private(set) var cachedBytes = 0
    /// Tiles the source said it does not have.
    var absent: Set<TileID> = []
    /// The tiles of the current update, to count each once.
    var seen: Set<TileID> = []

    public init(capacity: Capacity) {
        self.capacity = capacity
    }

    public var cachedTiles: Int { slotOf.count }

    /// Whether `t` is in the cache (without touching its recency).
    public func isCached(_ t: TileID) -> Bool { slotOf[t] != nil }

    /// Empties the cache and forgets the "no tile" answers.
    public mutating func clear() {
        slotOf.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        sizes.removeAll(keepingCapacity: true)
        prev.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        free.removeAll(keepingCapacity: true)
        head = -1
        tail = -1
        cachedBytes = 0
        absent.removeAll(keepingCapacity: true)
    }

    /// One update: the tiles in view (source tiles, in the order the layer asks for them,
    /// repeats counted once), after a cache clear when `clear` is set; `source` answers the
    /// requests.
    ///
    /// - Complexity: O(tiles in view + tiles evicted) dictionary operations.
    public mutating func update(_ tiles: [TileID], clear: Bool = false,
                                source: (TileID) throws -> Answer) rethrows -> Update {
        var u = Update()
        u.index = updates
        updates += 1
        if clear {
            self.clear()
            u.cleared = true
        }
        seen.removeAll(keepingCapacity: true)
        for t in tiles where seen.insert(t).inserted {
            u.inView += 1
            if let slot = slotOf[t] {
                u.fromCache += 1
                touch(slot)
                continue
            }
            if absent.contains(t) {
                u.knownAbsent += 1
                continue
            }
            u.requested += 1
            switch try source(t) {
            case .tile(let bytes):
                u.loaded += 1
                u.loadedBytes += bytes
                u.evicted += insert(t, bytes: bytes)
            case .noTile:
                u.noTile += 1
                absent.insert(t)
            case .unavailable:
                u.unavailable += 1
            }
        }
        u.cachedTiles = cachedTiles
        u.cachedBytes = cachedBytes
        return u
    }

    /// Moves a slot to the head.
    mutating func touch(_ s: Int32) {
        guard s != head else { return }
        unlink(s)
        pushFront(s)
    }

    mutating func unlink(_ s: Int32) {
        let p = prev[Int(s)], n = next[Int(s)]
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { prev[Int(n)] = p } else { tail = p }
    }

    mutating func pushFront(_ s: Int32) {
        prev[Int(s)] = -1
        next[Int(s)] = head
        if head >= 0 { prev[Int(head)] = s }
        head = s
        if tail < 0 { tail = s }
    }

    /// Caches a loaded tile and evicts from the tail until the capacity holds; returns the
    /// tiles evicted (a tile that alone exceeds the byte bound is not kept, and not counted).
    mutating func insert(_ t: TileID, bytes: Int) -> Int {
        if capacity.tiles == 0 { return 0 }
        if let b = capacity.bytes, bytes > b { return 0 }
        let s: Int32
        if let f = free.popLast() {
            s = f
            keys[Int(s)] = t
            sizes[Int(s)] = bytes
        } else {
            s = Int32(keys.count)
            keys.append(t)
            sizes.append(bytes)
            prev.append(-1)
            next.append(-1)
        }
        slotOf[t] = s
        cachedBytes += bytes
        pushFront(s)
        var evicted = 0
        while tail >= 0 && tail != s && ((capacity.tiles.map { slotOf.count > $0 } ?? false) || (capacity.bytes.map { cachedBytes > $0 } ?? false)) {
            let victim = tail
            unlink(victim)
            slotOf[keys[Int(victim)]] = nil
            cachedBytes -= sizes[Int(victim)]
            free.append(victim)
            evicted += 1
        }
        return evicted
    }
}
