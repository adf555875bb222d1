import PBF

extension _GeometryDecoder {
    /// The raw loop of `run`: pairs of one- or two-byte varints lie in the four bytes at
    /// the cursor and are read with one load while four bytes remain in the record, and
    /// longer ones (unclipped geometry has them) out of line; in the last three bytes only
    /// a pair of one-byte values is read, and anything else is left to the caller. The
    /// four-byte word is sorted by its continuation bits into the shapes real tiles have
    /// (two one-byte values; one of each; two two-byte values), each decoded without a
    /// loop. On x86 CPUs with SSSE3, runs of 16 pairs or more are first read 8 bytes at a
    /// time with a byte shuffle (`_zigzagPairs16`, PBF's SSSE3 kernel), which needs no branch on a pair's
    /// shape; its values take one or two bytes, so they keep the bound below.
    ///
    /// Ring areas are summed in trapezoid form, (x₁ + x₂)·(y₂ − y₁) (see `_ShoelaceSum`),
    /// in blocks of at most 64 pairs that start with the cursor within ±2^30 of the ring's
    /// first vertex. A ring's delta is only taken here when it lies within ±2^20 (a zigzag
    /// value below 2^21), so inside a block the cursor stays within 2^30 + 2^26 of that
    /// vertex, each term taken relative to it is below 2^52 and the block's sum below
    /// 2^58. The loop sums the terms in tile coordinates with wrapping arithmetic and
    /// `addBlock` moves the sum to the ring's first vertex; wrapping arithmetic is exact
    /// modulo 2^64, so the result, which fits, is exact. It stops at anything else (a
    /// larger ring delta, a malformed varint, a far cursor, a zero-length step other than
    /// two zero bytes in tolerant mode), leaving the state as it was after the last pair
    /// it took.
    ///
    /// (Transparent: marked `@inline(__always)`, it was left out of line in the validator's
    /// polygon loop once that loop could hand the later rings to `_checkLaterRings`, and
    /// sanfrancisco ran 13.55 M validating instructions per operation instead of 13.01 M,
    /// both measured before `_checkLinePairs` took its present stop rules.)
    @usableFromInline @_transparent
    mutating func _fastRun<H: GeometryHandler, K: _RunKind>(_ base: UnsafeRawPointer, _ count: UInt32, _ i: inout UInt32,
                                                            _ h: inout H, _ kind: K.Type, _ area: inout _ShoelaceSum)
    {
        let ring = K.ring
        // Pairs that start at least four bytes before the record's end cannot reach past it.
        let end = source.rawEnd, end4 = end &- 4
        var p = source.rawPosition
        var cx = x, cy = y
        let far: Int64 = 1 << 30
        let ox = area.originX, oy = area.originY
        let blockSize: UInt32 = ring ? 64 : UInt32.max
        while i < count {
            if ring && UInt64(bitPattern: cx &- ox &+ far) | UInt64(bitPattern: cy &- oy &+ far) >= UInt64(2 * far) { break }
            let block = min(count &- i, blockSize)
            let sy = cy
            var left = block
            var partial: Int64 = 0
            #if arch(x86_64) || arch(i386)
            if left >= 16 && p &+ 16 <= end {
                // Long runs: pairs of one- and two-byte values decoded 8 bytes at a time with
                // a byte shuffle (`_zigzagPairs16`, PBF's SSSE3 kernel), into a buffer on the stack, then
                // taken from there with no branch on each pair's shape. It stops at a longer
                // value, at a zero-length step (found here) and near the record's end, and
                // the loop below goes on from there.
                withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 &* 64 &+ 8) { buf in
                    guard let out = buf.baseAddress else { return }
                    blocks: while left > 0 {
                        var used = 0
                        let want = min(Int(left), 64)
                        let got = _zigzagPairs16(base + p, end &- p, want, out, &used)
                        var k = 0
                        while k < got {
                            let dx = Int64(out[2 &* k]), dy = Int64(out[2 &* k &+ 1])
                            if dx | dy == 0 {
                                p = _skipShortVarints(base, p, 2 &* k)
                                break blocks
                            }
                            // The same step as the loop below. (Shared as a nested function,
                            // it stopped `_fastRun` being inlined: up to 13% more instructions.)
                            let nx = cx &+ dx
                            if ring { partial &+= (cx &+ nx) &* dy }
                            cx = nx
                            cy &+= dy
                            if ring { h.ringPoint(x: cx, y: cy) } else { h.linePoint(x: cx, y: cy) }
                            left &-= 1
                            k &+= 1
                        }
                        p &+= used
                        if got < want { break }
                    }
                }
            }
            #endif
            while left > 0 {
                let w: UInt32
                if p <= end4 {
                    // Safe: p + 4 <= the record's end.
                    w = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt32.self))
                } else {
                    // The last bytes of the record: a pair of one-byte values is read
                    // here; anything else is left to the caller.
                    guard p &+ 1 < end4 &+ 4 else { break }
                    // Safe: p + 1 < the record's end.
                    w = UInt32(base.load(fromByteOffset: p, as: UInt8.self))
                        | UInt32(base.load(fromByteOffset: p &+ 1, as: UInt8.self)) &<< 8
                    guard w & 0x8080 == 0 else { break }
                }
                let dx: Int64, dy: Int64
                var q = p
                if w & 0x8080 == 0 {
                    // Two one-byte values, the commonest pair, both zigzag-decoded at once:
                    // each byte of s is a value shifted right by one, each byte of m is all
                    // ones when its value is odd, and s ^ m holds the two decoded deltas as
                    // signed bytes. (Two zero bytes, a zero-length step, are left to the
                    // code after the loop.)
                    guard w & 0xFFFF != 0 else { break }
                    let s = (w &>> 1) & 0x3F3F, m = (w & 0x0101) &* 0xFF
                    let z = s ^ m
                    dx = Int64(Int8(truncatingIfNeeded: z)); dy = Int64(Int8(truncatingIfNeeded: z &>> 8))
                    q &+= 2
                } else {
                    let ux: UInt32, uy: UInt32
                    // The continuation bits of the first three bytes. Here one of the
                    // first two is set; a single bit set means one value of each length,
                    // in either order.
                    let k = w & 0x80_8080
                    if k & (k &- 1) == 0 {
                        // A one-byte and a two-byte value: three bytes, compacted into 21
                        // bits, where x takes the low 7 bits, or 14 when it is the two-byte
                        // one. Which order comes next is as good as random, so it is told
                        // apart with arithmetic rather than a branch (or a select, which
                        // the compiler may turn into one).
                        let t = UInt32(truncatingIfNeeded: _varintValue3(UInt64(w), 3))
                        let b7 = w & 0x80
                        let shift = 7 &+ (b7 &>> 4) &- (b7 &>> 7)
                        uy = t &>> shift
                        ux = t & ((1 &<< shift) &- 1)
                        q &+= 3
                    } else if w & 0x8080_8080 == 0x0080_0080 {
                        // Two two-byte values (long steps), both compacted at once.
                        let t = (w & 0x007F_007F) | (w &>> 1) & 0x3F80_3F80
                        ux = t & 0xFFFF; uy = t &>> 16
                        q &+= 4
                    } else {
                        // A value of three bytes or more, read out of line; in a ring only
                        // values below 2^21 (deltas within ±2^20) are taken, the bound the
                        // block sums rely on. Anything else, or a malformed or cut varint,
                        // is left to the caller.
                        guard let (lx, ly, next) = _rawVarintPair(base, p, end4 &+ 4),
                              !ring || (lx | ly) < 1 << 21 else { break }
                        ux = lx; uy = ly; q = next
                    }
                    guard ux | uy != 0 else { break }
                    // Zigzag in 64 bits: (u >> 1) ^ −(u & 1).
                    dx = Int64(ux &>> 1) ^ (0 &- Int64(ux & 1)); dy = Int64(uy &>> 1) ^ (0 &- Int64(uy & 1))
                }
                let nx = cx &+ dx
                if ring { partial &+= (cx &+ nx) &* dy }
                cx = nx
                cy &+= dy
                if ring { h.ringPoint(x: cx, y: cy) } else { h.linePoint(x: cx, y: cy) }
                p = q
                left &-= 1
            }
            i &+= block &- left
            if ring { area.addBlock(partial, fromY: sy, toY: cy) }
            if left == 0 { continue }
            // Stopped early. A zero-length step written as two zero bytes is dropped here
            // in tolerant mode (C8: the cursor stays where it is).
            // Safe: both loads are at offsets below the record's end.
            guard mode == .tolerant, p <= end4,
                  base.load(fromByteOffset: p, as: UInt8.self) | base.load(fromByteOffset: p &+ 1, as: UInt8.self) == 0
            else { break }
            p &+= 2
            i &+= 1
        }
        x = cx; y = cy
        source.rawPosition = p
    }
}
