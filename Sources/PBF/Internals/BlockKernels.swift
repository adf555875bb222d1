import CVarintBlock

// The SIMD kernels of CVarintBlock (inline C in its headers, x86 only), reached from Swift
// through these thin `package` wrappers so that no other module imports the C module.

#if arch(x86_64) || arch(i386)
/// Decodes pairs of zigzag varints of one or two bytes each from the `avail` bytes at
/// `bytes` into `out` (x then y, as Int16) with an SSSE3 byte shuffle, 8 bytes at a time:
/// at most `maxPairs` pairs, stopping before a varint of three bytes or more and when fewer
/// than 8 bytes are left for the next window. `out` needs room for `2 * maxPairs + 8`
/// values. Returns the pairs decoded and sets `consumed` to the bytes they take; decodes
/// nothing on a CPU without SSSE3 (`_hasSSSE3`).
@inlinable @inline(__always)
package func _zigzagPairs16(_ bytes: UnsafeRawPointer, _ avail: Int, _ maxPairs: Int,
                            _ out: UnsafeMutablePointer<Int16>, _ consumed: inout Int) -> Int {
    gr_zigzag_pairs16(bytes, avail, maxPairs, out, &consumed)
}

/// Whether this CPU has SSSE3 (detected once).
@inlinable
package func _hasSSSE3() -> Bool { gr_has_ssse3() != 0 }
#endif

/// The bounds of the 16-byte check that every pair of varints in a packed record is below
/// (`first`, `second`) (`_checkPairBlocks`): on x86 a `gr_tag_bounds`; elsewhere nothing
/// (there is no such check). Make them once per table size and pass them by pointer.
@usableFromInline
package struct _PairBounds {
    #if arch(x86_64) || arch(i386)
    @usableFromInline package var bounds: gr_tag_bounds
    #endif

    @inlinable @inline(__always)
    package init(first: UInt32, second: UInt32) {
        #if arch(x86_64) || arch(i386)
        bounds = gr_tag_bounds_make(first, second)
        #endif
    }
}

#if arch(x86_64) || arch(i386)
/// How far from its start the packed record of `n` bytes at `b` holds only pairs of
/// varints below `bounds`, checked 16 bytes at a time with SSE2 (`gr_check_tags`): the
/// offset in the record up to which every pair is known valid. `before` bytes precede `b`
/// in the buffer and `loadable` may be loaded from `b` on (at least `n`).
@inlinable @inline(__always)
package func _checkPairBlocks(_ b: UnsafePointer<UInt8>, _ n: Int, _ before: Int, _ loadable: Int,
                              _ bounds: UnsafePointer<_PairBounds>) -> Int {
    // Safe: `bounds` is a stored property, so it has an address.
    gr_check_tags(b, n, before, loadable, bounds.pointer(to: \.bounds)!)
}
#endif
