import CJSONSkip
import GeoModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The tokenizer of the JSON reader: the read window over the input and its refill, and
// where an offset is (line and column). Its tokens are in Tokenizer+Tokens.swift, its
// value readers and skippers in Tokenizer+Values.swift. Kept as one struct, so the
// readers step through the window with no call between tokens.

/// The one place that touches raw bytes: a window `base[0..<end]` over the input, the
/// read position `pos`, and (when streaming) a source that refills the window.
///
/// Tokens are always scanned from contiguous bytes: when a token runs into the end of the
/// window before the input ends, `refill()` keeps the bytes from `pos` (the token's start),
/// reads more and the token is scanned again. So results never depend on where reads cut
/// the input, and the window only grows beyond the chunk size for a single larger token
/// (or for the bytes a reader marked to come back to, `mark`).
@usableFromInline package struct JSONTokenizer {
    @usableFromInline package var base: UnsafePointer<UInt8>
    @usableFromInline package var pos = 0
    @usableFromInline package var end: Int
    /// True when no byte will follow `end`.
    @usableFromInline package var atEnd: Bool

    // Streaming state.
    @usableFromInline package var storage: UnsafeMutablePointer<UInt8>?
    @usableFromInline package var capacity = 0
    @usableFromInline package var source: (any JSONByteSource)?
    @usableFromInline package var chunkSize = 0
    /// Absolute offset of `base[0]` in the input.
    @usableFromInline package var baseOffset = 0
    /// For sources that cannot be re-read: line/column at absolute offset `countedTo`
    /// (counted over bytes before they are released), and the locations of the offsets
    /// the parser may report after their bytes are gone (object and member starts).
    @usableFromInline package var released = _LineCounter()
    @usableFromInline package var countedTo = 0
    @usableFromInline package var snapshots: [Int: SourceLocation] = [:]
    @usableFromInline package var rootSnapshot: (offset: Int, location: SourceLocation)?
    /// True when the source can re-read released bytes; then lines are not counted while
    /// reading, and an error's line and column are found by re-reading up to it.
    @usableFromInline package var rereadable = false
    /// True for a source that cannot re-read (`source` set, `rereadable` false): the case
    /// `remember` records locations for. A stored flag, so that the test per object and
    /// member does not copy the optional existential `source` (measured: about 48
    /// instructions per copy and as many to destroy it, several times per feature).
    @usableFromInline package var oneWay = false
    /// Where the last re-read location search ended, so errors in increasing order cost
    /// O(file) in all.
    @usableFromInline package let locator = _Locator()
    @usableFromInline package var maxDepth: Int
    /// Scratch for strings with escapes.
    @usableFromInline package var scratch: [UInt8] = []
    /// Recently seen member names (see `readKey`).
    @usableFromInline package var keyCache: [String?] = []
    /// Members of the last object read, to size the next one.
    @usableFromInline package var lastObjectSize = 0
    /// The member names of the last object read at each depth (modulo
    /// `sharedKeyDepths`), shared by the next object with the same names.
    @usableFromInline package var sharedKeys: [[String]] = []
    /// For the slots whose bit is set in `sharedKeyTables`, the names of `sharedKeys` as
    /// they appear in the text: each name's UTF-8 and its closing quote, back to back
    /// (nothing for a name that JSON must escape), and where each begins (one more entry
    /// for the end). Built once an object has repeated the last one's names.
    @usableFromInline package var sharedKeyText: [[UInt8]] = []
    @usableFromInline package var sharedKeyStarts: [[Int]] = []
    @usableFromInline package var sharedKeyTables: UInt8 = 0
    /// Arrays and objects are skipped under the structural contract
    /// (`GeoJSONReadOptions.SkipContract.structural`).
    @usableFromInline package var structuralSkip = false
    /// Absolute offset of bytes a reader may need to go back to (the start of the current
    /// feature); refills keep them. Nil: only the current token is kept.
    @usableFromInline package var mark: Int?

    /// A cursor over a whole document held by the caller.
    @inlinable package init(borrowing bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        // Safe: a zero-length buffer may have a nil base; point at a static byte instead.
        base = bytes.count > 0 ? bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) : JSONTokenizer.emptyByte
        end = bytes.count
        atEnd = true
        self.maxDepth = maxDepth
    }

    /// A cursor that pulls `chunkSize`-byte reads from `source` into its own window.
    @inlinable package init(source: any JSONByteSource, chunkSize: Int, maxDepth: Int) {
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

    @usableFromInline package nonisolated(unsafe) static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// Frees the window (streaming cursors only). The owner calls this once.
    @inlinable package mutating func deallocate() {
        free(storage)
        storage = nil
    }

    /// Absolute offset of window index `i`.
    @inline(__always) @inlinable package func offset(_ i: Int) -> Int { baseOffset + i }

    /// Drops the bytes before `pos`, reads more after the kept ones. Returns true when the
    /// caller should scan again (bytes arrived, or the input just turned out to end), false
    /// when nothing can change.
    @inline(never)
    @inlinable package mutating func refill() throws(JSONError) -> Bool {
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
                // A failed read consumed nothing. When earlier reads of this refill brought
                // bytes, those are read first and the source is asked again when they run
                // out, so a failure is reported at the first byte the reader needs and
                // cannot have, whatever the sizes of the reads before it.
                if got > 0 { break }
                throw JSONError(kind: .readFailed(error.message), location: location(of: end))
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
    @inlinable package func location(of i: Int) -> SourceLocation {
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
    @inlinable package mutating func remember(_ i: Int, root: Bool = false) {
        guard oneWay else { return }
        rememberSlow(i, root: root)
    }

    @inline(never)
    @inlinable package mutating func rememberSlow(_ i: Int, root: Bool) {
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
    @inlinable package mutating func forgetRemembered() {
        if !snapshots.isEmpty { snapshots.removeAll(keepingCapacity: true) }
    }

    @inlinable package func error(_ kind: JSONError.Kind, at i: Int) -> JSONError {
        JSONError(kind: kind, location: location(of: i))
    }
}
