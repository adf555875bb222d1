#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first i in lo...hi + 1 where `pred` holds, for a `pred` false then true over
/// lo...hi (hi + 1 counts as true): a galloping search from `guess` (clamped to the range),
/// so a close guess costs a few calls.
@inline(__always)
func _firstTrue(_ lo: Int, _ hi: Int, _ guess: Int, _ pred: (Int) -> Bool) -> Int {
    var good: Int, bad: Int            // pred(good), !pred(bad), bad < good
    let g = min(max(guess, lo), hi + 1)
    if g > hi || pred(g) {
        good = g; bad = lo - 1
        var step = 1
        while good - step >= lo {
            let t = good - step
            if pred(t) { good = t; step &*= 2 } else { bad = t; break }
        }
    } else {
        bad = g; good = hi + 1
        var step = 1
        while bad + step <= hi {
            let t = bad + step
            if pred(t) { good = t; break } else { bad = t; step &*= 2 }
        }
    }
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2
        if pred(mid) { good = mid } else { bad = mid }
    }
    return good
}

/// The tiles of (tile, distance) pairs ordered by distance, then by tile on equal
/// distances.
///
/// Each distance becomes a 24-bit fixed-point key floor(d · 2^k), with 2^k the largest
/// power of two that keeps the largest distance below 2^24: scaling by a power of two is
/// exact and floor is monotone, so the keys order like the distances, up to ties. A stable
/// LSD radix sort (byte digits, all three histograms counted in one read, passes whose digit
/// is the same for every key skipped) orders the keys with no data-dependent branch; an
/// insertion pass with the full comparison then orders the pairs whose keys tie, which are
/// next to each other and few.
func _sortedByDistance(_ pairs: [(tile: CameraTile, d: Double)]) -> [CameraTile] {
    let count = pairs.count
    guard count > 1 else { return pairs.map(\.tile) }
    @inline(__always)
    func less(_ p: (tile: CameraTile, d: Double), _ q: (tile: CameraTile, d: Double)) -> Bool {
        p.d < q.d || (p.d == q.d && p.tile < q.tile)
    }
    var largest = 0.0
    for p in pairs where p.d > largest { largest = p.d }      // NaN never counts
    // 2^k with largest · 2^k < 2^24 (k may be negative); 1 when every distance is 0.
    // (Infinite or subnormal extremes give coarse keys; the insertion pass still orders.)
    let scale = largest > 0 && largest.isFinite ? Double(sign: .plus, exponent: min(23 - largest.exponent, 1000), significand: 1) : 1
    // key = floor(d · 2^k) << 32 | index
    var a = [UInt64](unsafeUninitializedCapacity: count) { buf, n in
        for i in 0..<count {
            let v = pairs[i].d * scale
            let key: UInt64 = v >= 0 && v < 16_777_216 ? UInt64(v) : (v >= 0 ? 0xFF_FFFF : 0)
            buf[i] = key << 32 | UInt64(i)
        }
        n = count
    }
    // Scratch for the passes: every slot is written before it is read.
    var b = [UInt64](unsafeUninitializedCapacity: count) { _, n in n = count }
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 256) { h in
                for i in 0..<(3 * 256) { h[i] = 0 }
                for v in pa {
                    h[Int((v >> 32) & 255)] &+= 1
                    h[256 + Int((v >> 40) & 255)] &+= 1
                    h[512 + Int((v >> 48) & 255)] &+= 1
                }
                var src = pa, dst = pb
                for pass in 0..<3 {
                    let base = 256 * pass, shift = UInt64(32 + 8 * pass)
                    if h[base + Int((src[0] >> shift) & 255)] == count { continue }   // one digit: order kept
                    var sum = 0
                    for i in base..<(base + 256) { let c = h[i]; h[i] = sum; sum &+= c }
                    for v in src {
                        let d = base + Int((v >> shift) & 255)
                        dst[h[d]] = v
                        h[d] &+= 1
                    }
                    swap(&src, &dst)
                }
                if src.baseAddress != pa.baseAddress { for i in 0..<count { pa[i] = src[i] } }
            }
        }
    }
    return pairs.withUnsafeBufferPointer { p in
        [CameraTile](unsafeUninitializedCapacity: count) { out, n in
            a.withUnsafeMutableBufferPointer { k in
                // Insertion pass over the index order with the full comparison, which only
                // runs between equal keys (the keys are in order already).
                var i = 1
                while i < count {
                    let v = k[i]
                    guard k[i - 1] >> 32 == v >> 32 else { i += 1; continue }
                    let pv = p[Int(truncatingIfNeeded: v & 0xFFFF_FFFF)]
                    var j = i
                    while j > 0 && k[j - 1] >> 32 == v >> 32 && less(pv, p[Int(truncatingIfNeeded: k[j - 1] & 0xFFFF_FFFF)]) {
                        k[j] = k[j - 1]
                        j -= 1
                    }
                    k[j] = v
                    i += 1
                }
                for i in 0..<count { (out.baseAddress! + i).initialize(to: p[Int(truncatingIfNeeded: k[i] & 0xFFFF_FFFF)].tile) }
            }
            n = count
        }
    }
}
