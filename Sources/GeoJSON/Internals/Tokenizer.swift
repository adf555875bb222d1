import GeoModel

/// The tokenizer: JSON's tokens (whitespace and punctuation, numbers, literals, strings and
/// member names) scanned from a read window, with the positions needed to locate any byte
/// in an error. The GeoJSON parser and the value readers (`_ValueReader`) read through it.
struct _Tokenizer {
    var window: _ReadWindow
    var positions = _SourcePositions()
    var maxDepth: Int
    /// Scratch for strings with escapes.
    var scratch: [UInt8] = []
    /// Recently seen member names (see `readKey`).
    var keyCache: [String?] = []
    /// Members of the last object read, to size the next one.
    var lastObjectSize = 0

    /// A tokenizer over a whole document held by the caller.
    init(borrowing bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        window = _ReadWindow(borrowing: bytes)
        self.maxDepth = maxDepth
    }

    /// A tokenizer that pulls `chunkSize`-byte reads from `source` into its own window.
    init(source: any GeoJSONByteSource, chunkSize: Int, maxDepth: Int) {
        window = _ReadWindow(source: source, chunkSize: chunkSize)
        self.maxDepth = maxDepth
    }

    // The window's state, as the tokenizer and its readers use it.
    var base: UnsafePointer<UInt8> { @inline(__always) get { window.base } }
    var pos: Int {
        @inline(__always) get { window.pos }
        @inline(__always) set { window.pos = newValue }
    }
    var end: Int { @inline(__always) get { window.end } }
    var atEnd: Bool { @inline(__always) get { window.atEnd } }
    var baseOffset: Int { @inline(__always) get { window.baseOffset } }
    var mark: Int? {
        @inline(__always) get { window.mark }
        @inline(__always) set { window.mark = newValue }
    }

    /// Frees the window (streaming tokenizers only). The owner calls this once.
    mutating func deallocate() { window.deallocate() }

    /// Absolute offset of window index `i`.
    @inline(__always) func offset(_ i: Int) -> Int { window.offset(i) }

    /// Refills the window (see `_ReadWindow.refill`).
    @inline(__always)
    mutating func refill() throws(GeoJSONError) -> Bool { try window.refill(&positions) }

    /// The location of window index `i`.
    func location(of i: Int) -> SourceLocation { positions.location(of: i, in: window) }

    /// Records the location of window index `i` for a later error report, when the source
    /// is one-way (a no-op otherwise: whole buffers keep every byte, re-readable sources
    /// re-read). Locations are asked for in increasing order, so the counting is one pass.
    @inline(__always)
    mutating func remember(_ i: Int, root: Bool = false) {
        guard !window.rereadable, window.source != nil else { return }
        positions.remember(i, root: root, in: window)
    }

    /// Drops remembered locations (after a feature, whose offsets will not be reported).
    @inline(__always)
    mutating func forgetRemembered() { positions.forget() }

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
}
