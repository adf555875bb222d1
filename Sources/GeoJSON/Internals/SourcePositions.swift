/// Line and column bookkeeping for bytes a streaming reader has already let go of.
struct _LineCounter {
    var line = 1
    var column = 1
    var lastWasCR = false

    /// Continues the count over `bytes` (same rules as `SourceLocation`).
    ///
    /// Eight bytes at a time: line feeds are counted with a per-byte equality mask and
    /// columns by counting bytes that are not UTF-8 continuation bytes; a word holding a
    /// carriage return (or following one) takes the byte-by-byte path. Measured on
    /// canada.json streamed in 64 KiB reads: this bookkeeping went from 9% of the time
    /// (byte loop) to under 1%.
    mutating func advance(_ p: UnsafePointer<UInt8>, _ count: Int) {
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        @inline(__always) func equalMask(_ w: UInt64, _ b: UInt8) -> UInt64 {
            let t = w ^ (ones &* UInt64(b))
            // High bit of each byte set exactly where the byte of t is zero.
            return ~(((t & low7) &+ low7) | t) & high
        }
        while i + 8 <= count {
            let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            if lastWasCR || equalMask(w, 0x0D) != 0 {
                for k in 0..<8 { step(p[i + k]) }
                i += 8
                continue
            }
            let lf = equalMask(w, 0x0A)
            // Continuation bytes are 10xxxxxx: bit 7 set, bit 6 clear.
            let cont = w & ~(w << 1) & high
            if lf == 0 {
                column += 8 - cont.nonzeroBitCount
            } else {
                line += lf.nonzeroBitCount
                let lastLF = (63 - lf.leadingZeroBitCount) / 8          // byte index in the word
                let after: UInt64 = lastLF == 7 ? 0 : ~0 << UInt64((lastLF + 1) * 8)
                let bytesAfter = 7 - lastLF
                column = 1 + bytesAfter - (cont & after).nonzeroBitCount
            }
            i += 8
        }
        while i < count {
            step(p[i])
            i += 1
        }
    }

    @inline(__always)
    mutating func step(_ b: UInt8) {
        if b == 0x0A {
            if !lastWasCR { line += 1 }
            column = 1
            lastWasCR = false
        } else if b == 0x0D {
            line += 1
            column = 1
            lastWasCR = true
        } else {
            lastWasCR = false
            if b & 0xC0 != 0x80 { column += 1 }
        }
    }
}

/// Finds line and column of an absolute offset by re-reading the source from the last
/// point found (or from the start when the target lies before it).
final class _Locator {
    var offset = 0
    var counter = _LineCounter()

    func locate(_ target: Int, in source: any GeoJSONByteSource) -> SourceLocation {
        if target < offset {
            offset = 0
            counter = _LineCounter()
        }
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while offset < target {
            let want = min(chunk, target - offset)
            guard let n = source.reread(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want])), n > 0 else { break }
            counter.advance(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), n)
            offset += n
        }
        return SourceLocation(offset: target, line: counter.line, column: counter.column)
    }
}

/// Where each byte of the input is, by line and column, while a streaming reader lets go of
/// the bytes it has read: for sources that cannot be re-read, line and column at absolute
/// offset `countedTo` (counted over bytes before they are released), and the locations of
/// the offsets the parser may report after their bytes are gone (object and member starts);
/// for re-readable sources, a locator that re-reads up to an error.
struct _SourcePositions {
    var released = _LineCounter()
    var countedTo = 0
    var snapshots: [Int: SourceLocation] = [:]
    var rootSnapshot: (offset: Int, location: SourceLocation)?
    /// Where the last re-read location search ended, so errors in increasing order cost
    /// O(file) in all.
    let locator = _Locator()

    /// Counts the lines of the window's bytes up to absolute offset `target` before the
    /// window lets go of them.
    @inline(__always)
    mutating func countReleased(upTo target: Int, in w: _ReadWindow) {
        guard countedTo < target else { return }
        let from = countedTo - w.baseOffset
        released.advance(w.base + from, target - countedTo)
        countedTo = target
    }

    /// The location of window index `i`.
    func location(of i: Int, in w: _ReadWindow) -> SourceLocation {
        let target = w.baseOffset + min(i, w.end)
        if w.rereadable, let source = w.source {
            return locator.locate(target, in: source)
        }
        if let s = snapshots[target] { return s }
        if let r = rootSnapshot, r.offset == target { return r.location }
        // Bytes from `countedTo` on are still in the window.
        var c = released
        let from = countedTo - w.baseOffset
        let to = max(min(i, w.end), from)
        c.advance(w.base + from, to - from)
        return SourceLocation(offset: w.baseOffset + to, line: c.line, column: c.column)
    }

    /// Records the location of window index `i` (one-way sources only; see
    /// `_Tokenizer.remember`).
    @inline(never)
    mutating func remember(_ i: Int, root: Bool, in w: _ReadWindow) {
        let from = countedTo - w.baseOffset
        if i > from {
            released.advance(w.base + from, i - from)
            countedTo = w.baseOffset + i
        }
        let loc = SourceLocation(offset: w.baseOffset + i, line: released.line, column: released.column)
        if root { rootSnapshot = (loc.offset, loc) } else { snapshots[loc.offset] = loc }
    }

    /// Drops remembered locations (after a feature, whose offsets will not be reported).
    @inline(__always)
    mutating func forget() {
        if !snapshots.isEmpty { snapshots.removeAll(keepingCapacity: true) }
    }
}
