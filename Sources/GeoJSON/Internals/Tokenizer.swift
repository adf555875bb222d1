import CJSONSkip
import GeoModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The tokenizer of the GeoJSON reader, in one file: line counting of released bytes
// (`_LineCounter`, `_Locator`), the read window and its refill, the tokens (whitespace and
// punctuation, numbers, literals, strings and member names) and the value readers (any
// value, objects, skipping), each part under its own MARK.
//
// Kept as one struct in one file on measurement: the same code with the window, the
// positions of released bytes and the value readers as types of their own cost up to 2.3%
// more instructions in `geojson.parse` (ne_10m_populated_places geometry-only 355.5 ->
// 363.5 M, points-20k geometry-only 169.6 -> 170.9 M), and the same struct with its parts
// in files of their own (extensions) cost as much (363.3 M, 170.5 M): the order in which the
// compiler meets the functions changes how the skipping loop is inlined. This form measures
// 355.8 M and 169.6 M.

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

/// Finds line and column of an absolute offset by re-reading the source from the nearest
/// point already counted at or before it: the furthest point reached, the last few points
/// located, or a checkpoint kept every 256 KiB. Findings are located roughly in order, but
/// each one may ask for an earlier offset too (the start of its feature), so restarting
/// from the start of the input would make n findings cost O(n · size).
final class _Locator {
    var offset = 0
    var counter = _LineCounter()
    /// (offset, counter) every `checkpointStride` bytes counted, in offset order.
    var checkpoints: [(Int, _LineCounter)] = [(0, _LineCounter())]
    /// The last points located, most recent last.
    var recent: [(Int, _LineCounter)] = []
    static let checkpointStride = 1 << 18

    func locate(_ target: Int, in source: any GeoJSONByteSource) -> SourceLocation {
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
    private func count(from start: (Int, _LineCounter), to target: Int, in source: any GeoJSONByteSource,
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

/// The one place that touches raw bytes: a window `base[0..<end]` over the input, the
/// read position `pos`, and (when streaming) a source that refills the window.
///
/// Tokens are always scanned from contiguous bytes: when a token runs into the end of the
/// window before the input ends, `refill()` keeps the bytes from `pos` (the token's start),
/// reads more and the token is scanned again. So results never depend on where reads cut
/// the input, and the window only grows beyond the chunk size for a single larger token.
struct _Tokenizer {
    var base: UnsafePointer<UInt8>
    var pos = 0
    var end: Int
    /// True when no byte will follow `end`.
    var atEnd: Bool

    // Streaming state.
    var storage: UnsafeMutablePointer<UInt8>?
    var capacity = 0
    var source: (any GeoJSONByteSource)?
    var chunkSize = 0
    /// Absolute offset of `base[0]` in the input.
    var baseOffset = 0
    /// For sources that cannot be re-read: line/column at absolute offset `countedTo`
    /// (counted over bytes before they are released), and the locations of the offsets
    /// the parser may report after their bytes are gone (object and member starts).
    var released = _LineCounter()
    var countedTo = 0
    var snapshots: [Int: SourceLocation] = [:]
    var rootSnapshot: (offset: Int, location: SourceLocation)?
    /// True when the source can re-read released bytes; then lines are not counted while
    /// reading, and an error's line and column are found by re-reading up to it.
    var rereadable = false
    /// True for a source that cannot re-read (`source` set, `rereadable` false): the case
    /// `remember` records locations for. A stored flag, so that the test per object and
    /// member does not copy the optional existential `source` (measured: about 48
    /// instructions per copy and as many to destroy it, several times per feature).
    var oneWay = false
    /// Where the last re-read location search ended, so errors in increasing order cost
    /// O(file) in all.
    let locator = _Locator()
    var maxDepth: Int
    /// Scratch for strings with escapes.
    var scratch: [UInt8] = []
    /// Recently seen member names (see `readKey`).
    var keyCache: [String?] = []
    /// Members of the last object read, to size the next one.
    var lastObjectSize = 0
    /// The member names of the last object read at each depth (modulo
    /// `sharedKeyDepths`), shared by the next object with the same names.
    var sharedKeys: [[String]] = []
    /// For the slots whose bit is set in `sharedKeyTables`, the names of `sharedKeys` as
    /// they appear in the text: each name's UTF-8 and its closing quote, back to back
    /// (nothing for a name that JSON must escape), and where each begins (one more entry
    /// for the end). Built once an object has repeated the last one's names.
    var sharedKeyText: [[UInt8]] = []
    var sharedKeyStarts: [[Int]] = []
    var sharedKeyTables: UInt8 = 0
    /// Arrays and objects are skipped under the structural contract
    /// (`GeoJSONReadOptions.SkipContract.structural`).
    var structuralSkip = false
    /// Absolute offset of bytes a reader may need to go back to (the start of the current
    /// feature); refills keep them. Nil: only the current token is kept.
    var mark: Int?

    /// A cursor over a whole document held by the caller.
    init(borrowing bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        // Safe: a zero-length buffer may have a nil base; point at a static byte instead.
        base = bytes.count > 0 ? bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) : _Tokenizer.emptyByte
        end = bytes.count
        atEnd = true
        self.maxDepth = maxDepth
    }

    /// A cursor that pulls `chunkSize`-byte reads from `source` into its own window.
    init(source: any GeoJSONByteSource, chunkSize: Int, maxDepth: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        capacity = max(chunkSize, 64)
        // The window is the C heap's, so that growing it can use `realloc` (see `refill`).
        guard let s = malloc(capacity)?.assumingMemoryBound(to: UInt8.self) else { fatalError("out of memory") }
        storage = s
        base = UnsafePointer(s)
        end = 0
        atEnd = false
        self.source = source
        self.chunkSize = chunkSize
        self.maxDepth = maxDepth
        rereadable = source.reread(at: 0, into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) != nil
        oneWay = !rereadable
    }

    nonisolated(unsafe) static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// Frees the window (streaming cursors only). The owner calls this once.
    mutating func deallocate() {
        free(storage)
        storage = nil
    }

    /// Absolute offset of window index `i`.
    @inline(__always) func offset(_ i: Int) -> Int { baseOffset + i }

    /// Drops the bytes before `pos`, reads more after the kept ones. Returns true when the
    /// caller should scan again (bytes arrived, or the input just turned out to end), false
    /// when nothing can change.
    @inline(never)
    mutating func refill() throws(GeoJSONError) -> Bool {
        guard !atEnd else { return false }
        guard let storage, source != nil else {
            atEnd = true
            return true
        }
        var keep = pos
        if let mark { keep = min(keep, max(mark - baseOffset, 0)) }
        if !rereadable && countedTo < baseOffset + keep {
            let from = countedTo - baseOffset
            released.advance(base + from, keep - from)
            countedTo = baseOffset + keep
        }
        baseOffset += keep
        let remaining = end - keep
        if keep > 0 {
            // Safe: both ranges lie inside the window; memmove semantics via update(from:).
            storage.update(from: storage + keep, count: remaining)
        }
        pos -= keep
        end = remaining
        if end > capacity / 2 {
            // Kept bytes (one token, or the feature being read) fill half the window: grow
            // it, so reads stay chunk-sized. `realloc` can move a large block's pages instead
            // of copying its bytes (the doublings from 64 KiB to hold a 2.2 MB feature copied
            // about 4 MB).
            guard let bigger = realloc(storage, capacity * 2)?.assumingMemoryBound(to: UInt8.self) else {
                fatalError("out of memory")
            }
            self.storage = bigger
            capacity *= 2
            base = UnsafePointer(bigger)
        }
        // Read a chunk, and at least as many bytes as are kept: a token (or feature) longer
        // than a chunk is scanned again from its start after each refill, so the bytes
        // read must double it each time for the rescans to sum to O(length) rather than
        // O(length² / chunk). (The window was grown above so the room is there.)
        let room = min(capacity - end, max(chunkSize, end, 1))
        let wanted = min(room, max(end, 1))
        var got = 0
        repeat {
            let n: Int
            do {
                n = try source!.read(into: UnsafeMutableRawBufferPointer(start: self.storage! + end, count: room - got))
            } catch {
                throw GeoJSONError(kind: .readFailed(error.message), location: location(of: end))
            }
            if n == 0 {
                atEnd = true
                break
            }
            end += n
            got += n
        } while got < wanted
        return true
    }

    /// The location of window index `i`.
    func location(of i: Int) -> SourceLocation {
        let target = baseOffset + min(i, end)
        if rereadable, let source {
            return locator.locate(target, in: source)
        }
        if let s = snapshots[target] { return s }
        if let r = rootSnapshot, r.offset == target { return r.location }
        // Bytes from `countedTo` on are still in the window.
        var c = released
        let from = countedTo - baseOffset
        let to = max(min(i, end), from)
        c.advance(base + from, to - from)
        return SourceLocation(offset: baseOffset + to, line: c.line, column: c.column)
    }

    /// Records the location of window index `i` for a later error report, when the source
    /// is one-way (a no-op otherwise: whole buffers keep every byte, re-readable sources
    /// re-read). Locations are asked for in increasing order, so the counting is one pass.
    @inline(__always)
    mutating func remember(_ i: Int, root: Bool = false) {
        guard oneWay else { return }
        rememberSlow(i, root: root)
    }

    @inline(never)
    mutating func rememberSlow(_ i: Int, root: Bool) {
        let from = countedTo - baseOffset
        if i > from {
            released.advance(base + from, i - from)
            countedTo = baseOffset + i
        }
        let loc = SourceLocation(offset: baseOffset + i, line: released.line, column: released.column)
        if root { rootSnapshot = (loc.offset, loc) } else { snapshots[loc.offset] = loc }
    }

    /// Drops remembered locations (after a feature, whose offsets will not be reported).
    @inline(__always)
    mutating func forgetRemembered() {
        if !snapshots.isEmpty { snapshots.removeAll(keepingCapacity: true) }
    }

    func error(_ kind: GeoJSONError.Kind, at i: Int) -> GeoJSONError {
        GeoJSONError(kind: kind, location: location(of: i))
    }

    // MARK: Whitespace and punctuation

    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Skips whitespace and returns the next byte without consuming it; nil at the end.
    @inline(__always)
    mutating func peekNonWhitespace() throws(GeoJSONError) -> UInt8? {
        while true {
            while pos < end {
                let b = base[pos]
                if b > 0x20 || !_Tokenizer.isWhitespace(b) { return b }
                pos += 1
            }
            if try !refill() { return nil }
        }
    }

    /// The next non-whitespace byte, consumed; an error at the end of input.
    @inline(__always)
    mutating func nextNonWhitespace(expected: String) throws(GeoJSONError) -> UInt8 {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        pos += 1
        return b
    }

    /// Consumes `byte` after optional whitespace, or throws naming `expected`.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ expected: String) throws(GeoJSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        guard b == byte else { throw error(.unexpectedByte(b, expected: expected), at: pos) }
        pos += 1
    }

    /// Skips a leading UTF-8 byte order mark (RFC 8259 §8.1 lets parsers ignore it).
    mutating func skipBOM() throws(GeoJSONError) {
        while end - pos < 3 && !atEnd { _ = try refill() }
        if end - pos >= 3, base[pos] == 0xEF, base[pos + 1] == 0xBB, base[pos + 2] == 0xBF { pos += 3 }
    }

    /// After an array element: consumes `,` (true: another element follows) or `]`
    /// (false: the array ended).
    @inline(__always)
    mutating func afterArrayElement() throws(GeoJSONError) -> Bool {
        let d = try nextNonWhitespace(expected: "',' or ']'")
        if d == UInt8(ascii: "]") { return false }
        guard d == UInt8(ascii: ",") else { throw error(.unexpectedByte(d, expected: "',' or ']'"), at: pos - 1) }
        return true
    }

    // MARK: Numbers

    /// Reads a number at `pos` (after whitespace was skipped).
    @inline(__always)
    mutating func readNumber() throws(GeoJSONError) -> ScannedNumber {
        while true {
            switch NumberParser.scan(base, start: pos, end: end, atEnd: atEnd) {
            case .number(let n, let e):
                pos = e
                return n
            case .incomplete:
                _ = try refill()
            case .invalid(let at, let reason):
                throw error(.invalidNumber(reason), at: at)
            case .outOfRange:
                throw error(.numberOutOfRange, at: pos)
            }
        }
    }

    // MARK: Literals

    /// Reads `true`, `false` or `null` starting at `pos`.
    mutating func readLiteral() throws(GeoJSONError) -> PropertyValue {
        if pos &+ 4 <= end {
            // Safe: four bytes from `pos` lie in the window.
            let w = UInt32(littleEndian: UnsafeRawPointer(base + pos).loadUnaligned(as: UInt32.self))
            switch w {
            case 0x6C6C_756E: pos &+= 4; return .null                    // "null"
            case 0x6575_7274: pos &+= 4; return .bool(true)              // "true"
            case 0x736C_6166 where pos &+ 5 <= end && base[pos &+ 4] == UInt8(ascii: "e"):
                pos &+= 5; return .bool(false)                           // "false"
            default: break
            }
        }
        let b = base[pos]
        let word: StaticString = b == UInt8(ascii: "t") ? "true" : b == UInt8(ascii: "f") ? "false" : "null"
        let n = word.utf8CodeUnitCount
        while end - pos < n && !atEnd { _ = try refill() }
        let w = word.utf8Start
        for k in 0..<n {
            guard pos + k < end else { throw error(.unexpectedEnd, at: end) }
            guard base[pos + k] == w[k] else {
                throw error(.unexpectedByte(base[pos + k], expected: "a JSON value"), at: pos + k)
            }
        }
        pos += n
        switch b {
        case UInt8(ascii: "t"): return .bool(true)
        case UInt8(ascii: "f"): return .bool(false)
        default: return .null
        }
    }

    // MARK: Strings

    /// Scans the string whose opening quote is at `pos`: validates it, leaves `pos` after
    /// the closing quote and returns the window range of its contents (valid until the
    /// next refill) and whether it holds escapes.
    @inline(__always)
    mutating func scanString() throws(GeoJSONError) -> (start: Int, end: Int, escaped: Bool) {
        while true {
            var i = pos + 1
            var escaped = false
            // Safe: every read is guarded by `i < end`, `i + 8 <= end` or by the explicit
            // length checks.
            scan: while true {
                // Plain ASCII eight bytes at a time; stop at the first byte that needs a look.
                while i &+ 8 <= end {
                    let m = _ByteMasks.stringStop(NumberParser.load8(base + i))
                    if m != 0 {
                        i &+= m.trailingZeroBitCount >> 3
                        break
                    }
                    i &+= 8
                }
                guard i < end else { break scan }
                let b = base[i]
                if b == UInt8(ascii: "\"") {
                    let start = pos + 1
                    pos = i + 1
                    return (start, i, escaped)
                }
                if b >= 0x20 && b < 0x80 && b != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                if b == UInt8(ascii: "\\") {
                    escaped = true
                    guard i + 1 < end else { break scan }
                    switch base[i + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        i += 2
                    case UInt8(ascii: "u"):
                        guard i + 6 <= end else { break scan }
                        guard let u = _Tokenizer.hex4(base, i + 2) else { throw error(.invalidEscape, at: i) }
                        if u >= 0xD800 && u <= 0xDBFF {
                            // A high surrogate must be followed by an escaped low one. What
                            // is there already decides: a lone surrogate before `"}}` is an
                            // invalid escape at its byte, not the end of the input.
                            guard i + 12 <= end else {
                                for k in 6..<min(12, end - i) {
                                    let c = base[i + k]
                                    let fits = k == 6 ? c == UInt8(ascii: "\\") : k == 7 ? c == UInt8(ascii: "u")
                                        : _Tokenizer.isHexDigit(c)
                                    if !fits { throw error(.invalidEscape, at: i) }
                                }
                                break scan
                            }
                            guard base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u"),
                                  let l = _Tokenizer.hex4(base, i + 8), l >= 0xDC00 && l <= 0xDFFF
                            else { throw error(.invalidEscape, at: i) }
                            i += 12
                        } else if u >= 0xDC00 && u <= 0xDFFF {
                            throw error(.invalidEscape, at: i)
                        } else {
                            i += 6
                        }
                    default:
                        throw error(.invalidEscape, at: i)
                    }
                    continue
                }
                if b < 0x20 { throw error(.controlCharacterInString, at: i) }
                // Multi-byte UTF-8 (RFC 3629 §4).
                guard let lead = UTF8Lead(b) else { throw error(.invalidUTF8, at: i) }
                guard i + lead.continuations < end else { break scan }
                let at = i
                guard lead.accepts({ base[at + $0] }) else { throw error(.invalidUTF8, at: i) }
                i += lead.continuations + 1
            }
            // Ran out of bytes inside the string.
            if try !refill() { throw error(.unexpectedEnd, at: end) }
        }
    }

    @inline(__always)
    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }

    static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = p[i + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - 0x41 + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Reads a string at `pos` into a Swift String.
    mutating func readString() throws(GeoJSONError) -> String {
        let (s, e, escaped) = try scanString()
        if !escaped {
            return String(decoding: UnsafeBufferPointer(start: base + s, count: e - s), as: UTF8.self)
        }
        decodeEscapes(s, e)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a member name, reusing the String of an identical earlier name: the features
    /// of a collection repeat the same property names, so most names cost a hash and a
    /// byte comparison instead of building and validating a new String.
    @inline(__always)
    mutating func readKey() throws(GeoJSONError) -> String {
        let (s, e, escaped) = try scanString()
        let n = e - s
        guard !escaped, n <= 64 else {
            if !escaped { return String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self) }
            decodeEscapes(s, e)
            return String(decoding: scratch, as: UTF8.self)
        }
        let slot = _Tokenizer.keySlot(base, s, e)
        if keyCache.isEmpty { keyCache = Array(repeating: nil, count: _Tokenizer.keyCacheSize) }
        if let cached = keyCache[slot], cached.utf8.count == n,
           cached.utf8.withContiguousStorageIfAvailable({ c in
               c.baseAddress.map { _Tokenizer.sameBytes($0, base + s, n) } ?? (n == 0)
           }) == true {
            return cached
        }
        let key = String(decoding: UnsafeBufferPointer(start: base + s, count: n), as: UTF8.self)
        keyCache[slot] = key
        return key
    }

    static let keyCacheSize = 512

    /// The cache slot of the name in `base[s..<e]`: a multiplicative hash of its bytes
    /// taken eight at a time, the last partial word read as the word that ends at `e`.
    @inline(__always)
    static func keySlot(_ base: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Int {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: e - s) &* k
        var i = s
        while i &+ 8 <= e {
            h = (h ^ NumberParser.load8(base + i)) &* k
            h ^= h >> 32
            i &+= 8
        }
        if i < e {
            var tail: UInt64 = 0
            if e >= 8 {
                // Safe: base[e-8..<e] lies in the window; the bytes before `i` are dropped.
                tail = NumberParser.load8(base + e - 8) >> UInt64((8 - (e - i)) * 8)
            } else {
                for j in i..<e { tail |= UInt64(base[j]) << UInt64((j - i) * 8) }
            }
            h = (h ^ tail) &* k
        }
        return Int(truncatingIfNeeded: h >> UInt64(64 - keyCacheSize.trailingZeroBitCount))
    }

    /// True when the `n` bytes at `a` and `b` are equal, compared eight at a time.
    @inline(__always)
    static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while i &+ 8 <= n {
            if NumberParser.load8(a + i) != NumberParser.load8(b + i) { return false }
            i &+= 8
        }
        while i < n {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }

    /// Decodes an already validated string body with escapes into `scratch`.
    mutating func decodeEscapes(_ s: Int, _ e: Int) {
        scratch.removeAll(keepingCapacity: true)
        var i = s
        while i < e {
            let b = base[i]
            guard b == UInt8(ascii: "\\") else {
                scratch.append(b)
                i += 1
                continue
            }
            let c = base[i + 1]
            switch c {
            case UInt8(ascii: "b"): scratch.append(0x08); i += 2
            case UInt8(ascii: "f"): scratch.append(0x0C); i += 2
            case UInt8(ascii: "n"): scratch.append(0x0A); i += 2
            case UInt8(ascii: "r"): scratch.append(0x0D); i += 2
            case UInt8(ascii: "t"): scratch.append(0x09); i += 2
            case UInt8(ascii: "u"):
                var u = _Tokenizer.hex4(base, i + 2)!
                i += 6
                if u >= 0xD800 && u <= 0xDBFF {
                    let l = _Tokenizer.hex4(base, i + 2)!
                    u = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00)
                    i += 6
                }
                appendUTF8(u)
            default: scratch.append(c); i += 2      // \" \\ \/
            }
        }
    }

    mutating func appendUTF8(_ u: UInt32) {
        switch u {
        case 0..<0x80: scratch.append(UInt8(u))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | u >> 6)); scratch.append(UInt8(0x80 | u & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | u >> 12)); scratch.append(UInt8(0x80 | (u >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | u & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | u >> 18)); scratch.append(UInt8(0x80 | (u >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (u >> 6) & 0x3F)); scratch.append(UInt8(0x80 | u & 0x3F))
        }
    }

    // MARK: Generic values

    /// Reads any JSON value into a `PropertyValue` (objects keep member order; duplicate
    /// member names are kept as they come, see `GeoJSONReader`).
    mutating func readValue(depth: Int) throws(GeoJSONError) -> PropertyValue {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        switch b {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let (value, e) = NumberParser.quick(base, start: pos, end: end) {
                pos = e
                return value
            }
            return try readNumber().propertyValue
        case UInt8(ascii: "{"):
            return .object(try readObject(depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            var items: [PropertyValue] = []
            if try peekNonWhitespace() == UInt8(ascii: "]") {
                pos += 1
                return .array(items)
            }
            repeat {
                do {
                    items.append(try readValue(depth: depth + 1))
                } catch {
                    throw error.prefixed(.index(items.count))
                }
            } while try afterArrayElement()
            return .array(items)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try readLiteral()
        default:
            throw error(.unexpectedByte(b, expected: "a JSON value"), at: pos)
        }
    }

    /// Reads an object at `pos` (its `{` not yet consumed) into a property list.
    mutating func readObject(depth: Int) throws(GeoJSONError) -> PropertyList {
        guard depth <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
        try expect(UInt8(ascii: "{"), "'{'")
        var list = PropertyList()
        if try peekNonWhitespace() == UInt8(ascii: "}") {
            pos += 1
            return list
        }
        // Features of one collection usually share a schema: size for the last object, and
        // while the names repeat the last object's at this depth, share its array of names
        // instead of building a new one (`matched` names so far; the array is copied out
        // only at the first difference).
        let slot = depth & (_Tokenizer.sharedKeyDepths - 1)
        if sharedKeys.isEmpty { sharedKeys = Array(repeating: [], count: _Tokenizer.sharedKeyDepths) }
        let previous = sharedKeys[slot]
        var matched = 0
        var sharing = !previous.isEmpty
        // While the names repeat the last object's, each is compared with its expected
        // bytes in the text (the table is taken here: a nested object of the same slot
        // may replace it).
        let hasTable = sharing && sharedKeyTables & (1 << UInt8(slot)) != 0
        let expectedText = hasTable ? sharedKeyText[slot] : [], expectedStarts = hasTable ? sharedKeyStarts[slot] : []
        list.values.reserveCapacity(max(lastObjectSize, previous.count))
        if !sharing, lastObjectSize > 0 { list.keys.reserveCapacity(lastObjectSize) }
        defer { lastObjectSize = list.count }
        while true {
            let q = try nextNonWhitespace(expected: "a member name")
            guard q == UInt8(ascii: "\"") else { throw error(.unexpectedByte(q, expected: "a member name"), at: pos - 1) }
            pos -= 1
            let key: String
            if sharing, hasTable, matched < previous.count,
               let e = _Tokenizer.expectedName(matched, expectedText, expectedStarts, base, pos, end) {
                key = previous[matched]
                pos = e
            } else {
                key = try readKey()
            }
            try expect(UInt8(ascii: ":"), "':'")
            let value: PropertyValue
            do {
                value = try readValue(depth: depth)
            } catch {
                throw error.prefixed(.key(key))
            }
            if sharing, matched < previous.count, previous[matched] == key {
                matched += 1
                list.values.append(value)
            } else {
                if sharing {
                    sharing = false
                    list.keys = Array(previous[0..<matched])
                }
                list.append(key: key, value: value)
            }
            let c = try nextNonWhitespace(expected: "',' or '}'")
            if c == UInt8(ascii: "}") {
                if sharing {
                    if matched == previous.count {
                        list.keys = previous
                        if !hasTable { buildNameTable(slot) }
                        return list
                    }
                    list.keys = Array(previous[0..<matched])
                }
                sharedKeys[slot] = list.keys
                sharedKeyTables &= ~(1 << UInt8(slot))
                return list
            }
            guard c == UInt8(ascii: ",") else { throw self.error(.unexpectedByte(c, expected: "',' or '}'"), at: pos - 1) }
        }
    }

    /// Object depths (modulo) that remember their last object's names.
    static let sharedKeyDepths = 8

    /// The window index after the closing quote of the name at `pos` when it is the
    /// expected name `index` of a table, byte for byte; nil otherwise (then `readKey`
    /// reads it). A name in the table needs no escape, so equal bytes are that string.
    @inline(__always)
    static func expectedName(_ index: Int, _ text: [UInt8], _ starts: [Int],
                             _ base: UnsafePointer<UInt8>, _ pos: Int, _ end: Int) -> Int? {
        let s = starts[index], n = starts[index + 1] - s
        guard n > 0, pos + 1 + n <= end else { return nil }
        let same = text.withUnsafeBufferPointer { t in _Tokenizer.sameBytes(t.baseAddress! + s, base + pos + 1, n) }
        return same ? pos + 1 + n : nil
    }

    /// Builds the name table of `slot` from `sharedKeys[slot]`.
    mutating func buildNameTable(_ slot: Int) {
        if sharedKeyText.isEmpty {
            sharedKeyText = Array(repeating: [], count: _Tokenizer.sharedKeyDepths)
            sharedKeyStarts = Array(repeating: [], count: _Tokenizer.sharedKeyDepths)
        }
        var text: [UInt8] = []
        var starts: [Int] = [0]
        for name in sharedKeys[slot] {
            if !name.utf8.contains(where: _ByteMasks.mustEscape) {
                text += name.utf8
                text.append(UInt8(ascii: "\""))
            }
            starts.append(text.count)
        }
        sharedKeyText[slot] = text
        sharedKeyStarts[slot] = starts
        sharedKeyTables |= 1 << UInt8(slot)
    }

    /// Skips any JSON value without building anything, checking it as `structuralSkip`
    /// says (fully by default).
    ///
    /// Arrays and objects go first through `gr_json_skip` (CJSONSkip), which finds the end
    /// of a valid value held whole in the window with no call per token (under the
    /// structural contract, `gr_skip_structural`, which checks structure and UTF-8 over
    /// 64-byte blocks, with AVX2 where the CPU has it, and leaves scalars' grammar
    /// unchecked); whatever it does not accept (bad input, a value cut by the window's end,
    /// rare numbers) is skipped by `skipValueScalar`, which reports errors. Only the
    /// outermost value tries the fast path: the scalar skipper never calls back into it, so a
    /// refused value costs one extra pass at most, whatever its nesting.
    mutating func skipValue(depth: Int) throws(GeoJSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            let e = structuralSkip ? gr_skip_structural(base, pos, end, maxDepth - depth, 2)
                                   : gr_json_skip(base, pos, end, maxDepth - depth)
            if e >= 0 {
                pos = e
                return
            }
        }
        try skipValueScalar(depth: depth)
    }

    /// Skips any JSON value, validating it token by token (the reference for the fast path
    /// of `skipValue`).
    mutating func skipValueScalar(depth: Int) throws(GeoJSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        switch b {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Most skipped numbers only need their grammar checked; `readNumber` decides
            // the rest (exponents, errors, a number at the window's end).
            if let e = NumberParser.skim(base, start: pos, end: end) { pos = e } else { _ = try readNumber() }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try readLiteral()
        case UInt8(ascii: "["):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            if try peekNonWhitespace() == UInt8(ascii: "]") {
                pos += 1
                return
            }
            var index = 0
            repeat {
                do { try skipValueScalar(depth: depth + 1) } catch { throw error.prefixed(.index(index)) }
                index += 1
            } while try afterArrayElement()
        case UInt8(ascii: "{"):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            if try peekNonWhitespace() == UInt8(ascii: "}") {
                pos += 1
                return
            }
            while true {
                let q = try nextNonWhitespace(expected: "a member name")
                guard q == UInt8(ascii: "\"") else { throw error(.unexpectedByte(q, expected: "a member name"), at: pos - 1) }
                pos -= 1
                // The name is decoded only if its value turns out bad; the mark keeps its
                // bytes in the window until then.
                let keyAbs = offset(pos)
                let savedMark = mark
                mark = min(savedMark ?? keyAbs, keyAbs)
                let (ks, ke, kEscaped) = try scanString()
                let keyLength = ke - ks
                try expect(UInt8(ascii: ":"), "':'")
                do {
                    // Strings and numbers, most members, without a call per value.
                    switch try peekNonWhitespace() ?? 0 {   // 0: the end, which skipValue reports
                    case UInt8(ascii: "\""):
                        _ = try scanString()
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        if let e = NumberParser.skim(base, start: pos, end: end) { pos = e } else { _ = try readNumber() }
                    default:
                        try skipValueScalar(depth: depth + 1)
                    }
                } catch {
                    let s = keyAbs - baseOffset + 1
                    let key: String
                    if kEscaped {
                        decodeEscapes(s, s + keyLength)
                        key = String(decoding: scratch, as: UTF8.self)
                    } else {
                        key = String(decoding: UnsafeBufferPointer(start: base + s, count: keyLength), as: UTF8.self)
                    }
                    mark = savedMark
                    throw error.prefixed(.key(key))
                }
                mark = savedMark
                let c = try nextNonWhitespace(expected: "',' or '}'")
                if c == UInt8(ascii: "}") { return }
                guard c == UInt8(ascii: ",") else { throw self.error(.unexpectedByte(c, expected: "',' or '}'"), at: pos - 1) }
            }
        default:
            throw error(.unexpectedByte(b, expected: "a JSON value"), at: pos)
        }
    }
}

extension GeoJSONError {
    /// The same error one level further out in the member path.
    func prefixed(_ c: JSONPathComponent) -> GeoJSONError {
        var e = self
        e.path.insert(c, at: 0)
        return e
    }
}
