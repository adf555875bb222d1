/// The one place that touches raw bytes: a window `base[0..<end]` over the input, the
/// read position `pos`, and (when streaming) a source that refills the window.
///
/// Tokens are always scanned from contiguous bytes: when a token runs into the end of the
/// window before the input ends, `refill` keeps the bytes from `pos` (the token's start),
/// reads more and the token is scanned again. So results never depend on where reads cut
/// the input, and the window only grows beyond the chunk size for a single larger token.
struct _ReadWindow {
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
    /// True when the source can re-read released bytes; then lines are not counted while
    /// reading, and an error's line and column are found by re-reading up to it.
    var rereadable = false
    /// Absolute offset of bytes a reader may need to go back to (the start of the current
    /// feature); refills keep them. Nil: only the current token is kept.
    var mark: Int?

    /// A window over a whole document held by the caller.
    init(borrowing bytes: UnsafeRawBufferPointer) {
        // Safe: a zero-length buffer may have a nil base; point at a static byte instead.
        base = bytes.count > 0 ? bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) : _ReadWindow.emptyByte
        end = bytes.count
        atEnd = true
    }

    /// A window of its own that pulls `chunkSize`-byte reads from `source`.
    init(source: any GeoJSONByteSource, chunkSize: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        capacity = max(chunkSize, 64)
        let s = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        storage = s
        base = UnsafePointer(s)
        end = 0
        atEnd = false
        self.source = source
        self.chunkSize = chunkSize
        rereadable = source.reread(at: 0, into: UnsafeMutableRawBufferPointer(start: nil, count: 0)) != nil
    }

    nonisolated(unsafe) static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// Frees the window (streaming windows only). The owner calls this once.
    mutating func deallocate() {
        storage?.deallocate()
        storage = nil
    }

    /// Absolute offset of window index `i`.
    @inline(__always) func offset(_ i: Int) -> Int { baseOffset + i }

    /// Drops the bytes before `pos` (or before `mark`), counting their lines into
    /// `positions` first when the source is one-way, and reads more after the kept ones.
    /// Returns true when the caller should scan again (bytes arrived, or the input just
    /// turned out to end), false when nothing can change.
    @inline(never)
    mutating func refill(_ positions: inout _SourcePositions) throws(GeoJSONError) -> Bool {
        guard !atEnd else { return false }
        guard let storage, source != nil else {
            atEnd = true
            return true
        }
        var keep = pos
        if let mark { keep = min(keep, max(mark - baseOffset, 0)) }
        if !rereadable { positions.countReleased(upTo: baseOffset + keep, in: self) }
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
            // it, so reads stay chunk-sized.
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: storage, count: end)
            storage.deallocate()
            self.storage = bigger
            capacity *= 2
            base = UnsafePointer(bigger)
        }
        let target = self.storage! + end
        let room = min(capacity - end, max(chunkSize, 1))
        let n: Int
        do {
            n = try source!.read(into: UnsafeMutableRawBufferPointer(start: target, count: room))
        } catch {
            throw GeoJSONError(kind: .readFailed(error.message), location: positions.location(of: end, in: self))
        }
        if n == 0 {
            atEnd = true
        } else {
            end += n
        }
        return true
    }
}
