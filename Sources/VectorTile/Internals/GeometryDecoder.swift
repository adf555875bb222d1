import PBF

@usableFromInline
struct _GeometryDecoder<S: _GeometrySource> {
    @usableFromInline var source: S
    @usableFromInline let mode: GeometryMode
    @usableFromInline var x: Int64 = 0
    @usableFromInline var y: Int64 = 0

    @inlinable
    init(source: S, mode: GeometryMode) {
        self.source = source
        self.mode = mode
    }

    @inlinable @inline(__always)
    mutating func decode<H: GeometryHandler, L: _LinePoints>(_ type: Feature.GeometryType, _ h: inout H,
                                                             _ linePoints: L.Type) throws(MVTError)
    {
        switch type {
        case .unknown: return
        case .point:
            // One position, the usual POINT: the whole record read at once.
            if let base = source.rawBase, source.rawPosition == 0,
               let (px, py) = _singlePoint(base, source.rawEnd, source.rawBefore, source.rawLoadable)
            {
                h.point(x: px, y: py)
                return
            }
            try points(&h)
        case .lineString: try lines(&h, L.self)
        case .polygon: try polygons(&h, L.self)
        }
    }

    /// The next command, or nil at the end of the geometry.
    @usableFromInline @_transparent
    mutating func command() throws(MVTError) -> (id: UInt32, count: UInt32, offset: Int)? {
        guard let raw = try source.next() else { return nil }
        let id = raw & 7, count = raw >> 3
        guard _isCommandID(id) else { throw .invalidCommand(id, offset: source.lastOffset) }
        return (id, count, source.lastOffset)
    }

    /// The error for command `raw` (nil: the geometry's end) where the grammar wanted
    /// another: an unknown command id (§4.3.1, C3) as such, anything else as `grammar`.
    @inlinable @inline(__always)
    func _unexpected(_ raw: UInt32?, else grammar: @autoclosure () -> MVTError) -> MVTError {
        _unexpectedCommand(raw, source.lastOffset, grammar())
    }

    /// Reads one parameter pair and moves the cursor (§4.3.2, §4.3.3). `wide` reads values
    /// of three bytes inline (`nextWide`), for POINT coordinates and a part's MoveTo.
    @usableFromInline @_transparent
    mutating func pair(_ commandOffset: Int, wide: Bool = false) throws(MVTError) -> (dx: Int64, dy: Int64) {
        guard let px = try wide ? source.nextWide() : source.next(),
              let py = try wide ? source.nextWide() : source.next() else {
            throw .truncatedGeometry(offset: commandOffset)
        }
        let dx = Int64(ZigZag.decode(px)), dy = Int64(ZigZag.decode(py))
        x &+= dx
        y &+= dy
        return (dx, dy)
    }

    /// The `count` parameter pairs of a LineTo: moves the cursor and hands each new
    /// position to the handler as a line point, or as a ring point added to `area`
    /// (`K.ring`). A zero-length step is an error in strict mode and is dropped in
    /// tolerant mode (C8).
    ///
    /// Pairs in the packed record being read go through the raw loop below; a pair it does
    /// not take is read through the source, and the raw loop then resumes. (Transparent so
    /// that the loop is inlined into the polygon and line loops, with the cursor and the
    /// handler's state in registers across a ring's commands.)
    @usableFromInline @_transparent
    mutating func run<H: GeometryHandler, K: _RunKind>(_ count: UInt32, _ commandOffset: Int, _ h: inout H,
                                                       _ kind: K.Type, area: inout _ShoelaceSum) throws(MVTError)
    {
        let ring = K.ring
        var i: UInt32 = 0
        while true {
            if let base = source.rawBase {
                _fastRun(base, count, &i, &h, kind, &area)
            }
            guard i < count else { return }
            let px = x, py = y
            let d = try pair(commandOffset)
            i &+= 1
            if d.dx == 0 && d.dy == 0 {
                if mode == .strict { throw .zeroLengthSegment(offset: source.lastOffset) }
                continue
            }
            if ring {
                area.add(px, py, x, y)
                h.ringPoint(x: x, y: y)
            } else {
                h.linePoint(x: x, y: y)
            }
        }
    }

    /// POINT: one MoveTo with count ≥ 1, nothing else (§4.3.4.2, D1).
    @inlinable
    mutating func points<H: GeometryHandler>(_ h: inout H) throws(MVTError) {
        guard let c = try command() else { throw .invalidGeometry(reason: "POINT without MoveTo", offset: source.lastOffset) }
        guard c.id == 1, c.count > 0 else {
            throw .invalidGeometry(reason: "POINT must be one MoveTo with count > 0", offset: c.offset)
        }
        for _ in 0..<c.count {
            _ = try pair(c.offset, wide: true)
            h.point(x: x, y: y)
        }
        if let extra = try command() {
            throw .invalidGeometry(reason: "POINT has a command after its MoveTo", offset: extra.offset)
        }
    }

    /// LINESTRING: repetitions of MoveTo(1), LineTo(n ≥ 1) (§4.3.4.3, D2).
    @inlinable
    mutating func lines<H: GeometryHandler, L: _LinePoints>(_ h: inout H, _ linePoints: L.Type) throws(MVTError) {
        var d = self   // a local copy, as in `polygons`
        var any = false
        // Commands compared whole, as in `polygons`: MoveTo(1) is 9, LineTo(n ≥ 1) is 2 + 8n.
        while let move = try d.source.next() {
            any = true
            let moveOffset = d.source.lastOffset
            guard move == 9 else {
                throw d._unexpected(move, else: .invalidGeometry(reason: move & 7 == 7 ? "ClosePath in a LINESTRING" : "LINESTRING part must start with MoveTo(1)", offset: moveOffset))
            }
            _ = try d.pair(moveOffset, wide: true)
            let line = try d.source.next()
            guard let line, line & 7 == 2, line >= 8 else {
                throw d._unexpected(line, else: .invalidGeometry(reason: "MoveTo must be followed by LineTo with count ≥ 1", offset: moveOffset))
            }
            let lineOffset = d.source.lastOffset
            h.lineBegin()
            h.linePoint(x: d.x, y: d.y)
            var count = line &>> 3
            if L.skipped, let base = d.source.rawBase {
                // Nothing reads the points: the pairs are only checked (`_checkLinePairs`),
                // as far as that check takes them, and the cursor is left behind (the
                // points after it are not handed to anyone either).
                let (p, left) = _checkLinePairs(base, d.source.rawPosition, d.source.rawEnd,
                                                d.source.rawLoadable, Int(count))
                d.source.rawPosition = p
                count = UInt32(truncatingIfNeeded: left)
            }
            if count > 0 {
                var unused = _ShoelaceSum()
                try d.run(count, lineOffset, &h, _LineRun.self, area: &unused)
            }
            h.lineEnd()
        }
        if !any { throw .invalidGeometry(reason: "empty LINESTRING geometry", offset: d.offset0) }
    }

    /// POLYGON: rings of MoveTo(1), LineTo(n ≥ 2), ClosePath(1); the first ring of each
    /// polygon exterior (§4.3.4.4, D3, D4).
    @inlinable
    mutating func polygons<H: GeometryHandler, L: _LinePoints>(_ h: inout H, _ linePoints: L.Type) throws(MVTError) {
        // The loop works on a local copy, which the optimiser can keep in registers; the
        // decoder is not used after its geometry is read, so nothing is written back.
        var d = self
        var rings = 0
        // Each command is compared whole with what the grammar expects here (MoveTo(1) is 9,
        // ClosePath(1) is 15, LineTo(n ≥ 2) is 2 + 8n); anything else goes to
        // `_unexpected`, which tells an unknown command id from a grammar error.
        while let move = try d.source.next() {
            let moveOffset = d.source.lastOffset
            guard move == 9 else {
                throw d._unexpected(move, else: .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: moveOffset))
            }
            _ = try d.pair(moveOffset, wide: true)
            let line = try d.source.next()
            guard let line, line & 7 == 2, line >= 16 else {
                throw d._unexpected(line, else: .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: moveOffset))
            }
            let lineOffset = d.source.lastOffset
            h.ringBegin()
            h.ringPoint(x: d.x, y: d.y)
            // Taken relative to the first vertex, rings far from the tile sum as exactly as
            // rings near it.
            var area = _ShoelaceSum(originX: d.x, originY: d.y)
            try d.run(line &>> 3, lineOffset, &h, _RingRun.self, area: &area)
            let close = try d.source.next()
            guard close == 15 else {
                let grammar: MVTError = close.map { $0 & 7 == 7 } == true
                    ? .invalidClosePath(count: close! &>> 3, offset: d.source.lastOffset)
                    : .invalidGeometry(reason: "ring must end with ClosePath", offset: lineOffset)
                throw d._unexpected(close, else: grammar)
            }
            area.close(d.x, d.y)
            let kind = area.kind
            if rings == 0 && kind == .interior { throw .interiorRingFirst(offset: moveOffset) }
            rings &+= 1
            h.ringEnd(kind)
            // More rings, for a handler that ignores them (`_CheckedOnly`), are checked apart.
            if L.laterRingsChecked, d.source.rawBase != nil, d.source.rawPosition < d.source.rawEnd {
                try d._checkLaterRings()
                return
            }
        }
        if rings == 0 { throw .invalidGeometry(reason: "empty POLYGON geometry", offset: d.offset0) }
    }

    /// The rings of a POLYGON geometry after its first, for a handler that ignores them
    /// (`_CheckedOnly`): their commands are checked as `polygons` checks them and their
    /// LineTo pairs as a line's (`_checkLinePairs`; a pair it does not take is decoded,
    /// and the check resumes after it), with the same errors at the same offsets; their
    /// points, areas and kinds are not computed, and the cursor is left behind. (Out of
    /// line, and without `run`, so that the validator's polygon loop keeps a single copy of
    /// the decoding loop, for the first ring.)
    @usableFromInline @inline(never)
    mutating func _checkLaterRings() throws(MVTError) {
        while let move = try source.next() {
            let moveOffset = source.lastOffset
            guard move == 9 else { throw _ringStartError(move, moveOffset) }
            _ = try pair(moveOffset, wide: true)
            let line = try source.next()
            guard let line, line & 7 == 2, line >= 16 else { throw _ringLineError(line, moveOffset) }
            let lineOffset = source.lastOffset
            var count = Int(line &>> 3)
            while count > 0 {
                if let base = source.rawBase {
                    let (p, left) = _checkLinePairs(base, source.rawPosition, source.rawEnd, source.rawLoadable, count)
                    source.rawPosition = p
                    count = left
                    if count == 0 { break }
                }
                // A pair the check did not take (or every pair, read through the stream),
                // decoded as `run` decodes it.
                let d = try pair(lineOffset)
                count &-= 1
                if d.dx == 0 && d.dy == 0 && mode == .strict { throw .zeroLengthSegment(offset: source.lastOffset) }
            }
            let close = try source.next()
            guard close == 15 else { throw _ringEndError(close, lineOffset) }
        }
    }

    /// The error for `move` (nil: the geometry's end) where a ring's MoveTo(1) belongs.
    @inlinable @inline(__always)
    func _ringStartError(_ move: UInt32?, _ moveOffset: Int) -> MVTError {
        _unexpected(move, else: .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: moveOffset))
    }

    /// The error for `line` where a ring's LineTo with count ≥ 2 belongs.
    @inlinable @inline(__always)
    func _ringLineError(_ line: UInt32?, _ moveOffset: Int) -> MVTError {
        _unexpected(line, else: .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: moveOffset))
    }

    /// The error for `close` where a ring's ClosePath(1) belongs.
    @inlinable @inline(__always)
    func _ringEndError(_ close: UInt32?, _ lineOffset: Int) -> MVTError {
        let grammar: MVTError = close.map { $0 & 7 == 7 } == true
            ? .invalidClosePath(count: close! &>> 3, offset: source.lastOffset)
            : .invalidGeometry(reason: "ring must end with ClosePath", offset: lineOffset)
        return _unexpected(close, else: grammar)
    }

    @inlinable
    var offset0: Int { source.startOffset }
}

/// Whether `id` is MoveTo, LineTo or ClosePath (§4.3.1).
@inlinable @inline(__always)
func _isCommandID(_ id: UInt32) -> Bool { id == 1 || id == 2 || id == 7 }

/// `_GeometryDecoder._unexpected`, out of line.
@usableFromInline @inline(never)
func _unexpectedCommand(_ raw: UInt32?, _ offset: Int, _ grammar: MVTError) -> MVTError {
    if let raw, !_isCommandID(raw & 7) { return .invalidCommand(raw & 7, offset: offset) }
    return grammar
}
