/// A cover's tiles as text, formatted run by run into a reused buffer: what `graticule
/// cover geometry` writes, with no allocation per tile.
extension TileRuns {
    /// One tile a line: `z/x/y` or the quadkey.
    public enum TextFormat: Sendable {
        case lines, quadkeys
    }

    /// Formats every tile, one a line, into a buffer of about `chunkBytes` that `sink` is
    /// given each time it fills (and once at the end, with the rest); the buffer is reused.
    ///
    /// - Complexity: O(tiles) time; O(`chunkBytes`) memory beyond the runs.
    public func writeText(_ format: TextFormat, chunkBytes: Int = 1 << 20,
                          to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(chunkBytes + 64)
        func drain() throws {
            try buffer.withUnsafeBytes { try sink($0) }
            buffer.removeAll(keepingCapacity: true)
        }
        switch format {
        case .lines:
            try writeLines(chunkBytes: chunkBytes, to: sink)
            return
        case .quadkeys:
            for r in runs {
                var x = r.firstColumn
                while true {
                    // Digit k (from the most significant) is 2·y bit + x bit at level k.
                    var level = zoom
                    while level > 0 {
                        level -= 1
                        let digit = UInt8(truncatingIfNeeded: ((r.row >> UInt32(level)) & 1) << 1 | ((x >> UInt32(level)) & 1))
                        buffer.append(UInt8(ascii: "0") + digit)
                    }
                    buffer.append(UInt8(ascii: "\n"))
                    if buffer.count >= chunkBytes { try drain() }
                    if x == r.lastColumn { break }
                    x += 1
                }
            }
        }
        if !buffer.isEmpty { try drain() }
    }

    /// `z/x/y` lines written straight into one buffer: the row's `/y\n` tail once per
    /// run, and the column as a decimal counter incremented in place (no division per
    /// tile).
    func writeLines(chunkBytes: Int, to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let limit = Swift.max(chunkBytes, 1)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: limit + 64)
        defer { out.deallocate() }
        var n = 0
        // "z/" and "/y\n" (at most 3 + 12 bytes), and the column's digits, least significant
        // first (at most 10).
        var prefix: (UInt64, UInt64) = (0, 0), tail: (UInt64, UInt64) = (0, 0), digits: (UInt64, UInt64) = (0, 0)
        try withUnsafeMutableBytes(of: &prefix) { p in
            try withUnsafeMutableBytes(of: &tail) { t in
                try withUnsafeMutableBytes(of: &digits) { d in
                    var zoomText: [UInt8] = []
                    Self.appendDecimal(UInt32(zoom), to: &zoomText)
                    let prefixCount = zoomText.count + 1
                    for (i, b) in zoomText.enumerated() { p[i] = b }
                    p[prefixCount - 1] = UInt8(ascii: "/")
                    var rowText: [UInt8] = []
                    for r in runs {
                        rowText.removeAll(keepingCapacity: true)
                        Self.appendDecimal(r.row, to: &rowText)
                        t[0] = UInt8(ascii: "/")
                        for (i, b) in rowText.enumerated() { t[i + 1] = b }
                        let tailCount = rowText.count + 2
                        t[tailCount - 1] = UInt8(ascii: "\n")
                        var v = r.firstColumn, used = 0
                        repeat { d[used] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10; used += 1 } while v > 0
                        var x = r.firstColumn
                        while true {
                            for i in 0..<prefixCount { out[n &+ i] = p[i] }
                            n &+= prefixCount
                            var k = used
                            while k > 0 { k &-= 1; out[n] = d[k]; n &+= 1 }
                            for i in 0..<tailCount { out[n &+ i] = t[i] }
                            n &+= tailCount
                            if n >= limit {
                                try sink(UnsafeRawBufferPointer(start: out, count: n))
                                n = 0
                            }
                            if x == r.lastColumn { break }
                            x &+= 1
                            // Add one to the decimal counter.
                            var i = 0
                            while true {
                                if i == used { d[i] = UInt8(ascii: "1"); used &+= 1; break }
                                if d[i] == UInt8(ascii: "9") { d[i] = UInt8(ascii: "0"); i &+= 1 } else { d[i] &+= 1; break }
                            }
                        }
                    }
                }
            }
        }
        if n > 0 { try sink(UnsafeRawBufferPointer(start: out, count: n)) }
    }

    /// Appends the decimal digits of `v`.
    @inline(__always)
    static func appendDecimal(_ v: UInt32, to buffer: inout [UInt8]) {
        if v < 10 { buffer.append(UInt8(ascii: "0") + UInt8(v)); return }
        var digits: (UInt64, UInt64) = (0, 0)
        var n = v, count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            var i = count - 1
            while i >= 0 { buffer.append(d[i]); i -= 1 }
        }
    }
}
