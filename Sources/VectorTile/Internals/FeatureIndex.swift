import PBF

/// Where a layer's feature records are, found by the layer's scan, so that its feature walk
/// reads them without going over the keys and values between them again: one entry per
/// feature, its payload's start and end within the layer message in 32 bits each.
///
/// Storage only grows; a layer holds its index, and the next layer read with the same
/// storage (`Layer.init(_:reusing:_:_:)`) reuses it only when no layer holds it any more.
@usableFromInline
final class _FeatureIndex {
    @usableFromInline private(set) var base: UnsafeMutablePointer<UInt64>
    @usableFromInline private(set) var capacity: Int

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Room reserved before a layer's scan: for every record of a small layer (a record
    /// takes two bytes at least), and for this many entries (512 KiB) at first in a larger
    /// one, whose scan then grows the index as it fills (`grow(keeping:)`).
    static let reservedAtMost = 1 << 16

    /// Makes room for `count` entries (growing by doubling; the entries there are not kept,
    /// as it is called before a layer's scan).
    @inline(__always)
    func reserve(_ count: Int) {
        if count > capacity { grow(to: count) }
    }

    @inline(never)
    func grow(to count: Int) {
        var size = capacity
        while size < count { size &*= 2 }
        // Called before a layer's scan: no entries to keep.
        let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
        base.deallocate()
        base = bigger
        capacity = size
    }

    /// Doubles the room, keeping the first `count` entries: called by a layer's scan when the
    /// index is full.
    @inline(never)
    func grow(keeping count: Int) {
        let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity &* 2)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity &*= 2
    }

    @inlinable @inline(__always)
    static func entry(_ start: Int, _ end: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: start)) | UInt64(UInt32(truncatingIfNeeded: end)) &<< 32
    }

    @inlinable @inline(__always)
    static func bounds(_ entry: UInt64) -> (start: Int, end: Int) {
        (Int(entry & 0xFFFF_FFFF), Int(entry &>> 32))
    }
}
