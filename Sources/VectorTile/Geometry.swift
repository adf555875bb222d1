import PBF

/// Receives a feature's geometry as it is decoded, so no array is built unless the handler
/// builds one. Coordinates are tile coordinates (0...extent inside the tile, §4.3.3),
/// accumulated in 64 bits so crafted deltas cannot overflow (C6).
///
/// Every method has an empty default, so a handler implements only what it needs.
public protocol GeometryHandler {
    /// One point of a POINT feature (a MultiPoint calls it once per point).
    mutating func point(x: Int64, y: Int64)
    mutating func lineBegin()
    mutating func linePoint(x: Int64, y: Int64)
    mutating func lineEnd()
    mutating func ringBegin()
    /// Ring vertices as encoded; the closing vertex (equal to the first) is not repeated.
    mutating func ringPoint(x: Int64, y: Int64)
    /// Ends a ring with its classification by the sign of its area (§4.3.4.4).
    mutating func ringEnd(_ kind: RingKind)
}

public extension GeometryHandler {
    @inlinable
    mutating func point(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineBegin() {}
    @inlinable
    mutating func linePoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func lineEnd() {}
    @inlinable
    mutating func ringBegin() {}
    @inlinable
    mutating func ringPoint(x: Int64, y: Int64) {}
    @inlinable
    mutating func ringEnd(_ kind: RingKind) {}
}

/// A ring's role, from the sign of its area in tile coordinates (y down): positive is an
/// exterior ring, negative an interior ring (§4.3.4.4, D4); zero area is degenerate (D7).
public enum RingKind: Sendable, Equatable {
    case exterior, interior, degenerate
}

/// How strictly geometry is decoded.
public enum GeometryMode: Sendable {
    /// Every rule of §4.3 is enforced, recoverable ones (zero-length LineTo, C8) included.
    case strict
    /// Recoverable problems are passed over: a zero-length LineTo vertex is dropped.
    case tolerant
}

extension Feature {
    /// Decodes the geometry into `handler`, enforcing the command grammar of the feature's
    /// type (§4.3.4.2–4.3.4.4). UNKNOWN features (B4) produce no calls.
    ///
    /// - Throws: `MVTError` — missing or repeated geometry (B1, B9), bad type (B3), bad
    ///   command (C3), truncation (C4), ClosePath count (C7), zero-length segment (C8,
    ///   strict mode only), commands not allowed for the type (D1–D3), a polygon starting
    ///   with an interior ring (D4).
    /// - Complexity: O(geometry bytes); every loop step consumes input, so a huge command
    ///   count in a short tile ends with `truncatedGeometry`, never a long loop (F); allocates
    ///   nothing.
    @inlinable
    public func decodeGeometry<H: GeometryHandler>(into handler: inout H, mode: GeometryMode = .strict)
        throws(MVTError)
    {
        if _scanFailed, let scanError { throw scanError }
        guard geometryRecords > 0 else { throw .missingGeometry(offset: offset) }
        if geometryRecords > 1, mode == .strict { throw .repeatedGeometry(offset: offset) }
        try _decodeCommands(into: &handler, mode: mode)
    }

    /// The command grammar alone, without the record-level checks.
    @inlinable @inline(__always)
    func _decodeCommands<H: GeometryHandler>(into handler: inout H, mode: GeometryMode) throws(MVTError) {
        guard let type else { throw .invalidType(rawType ?? 0, offset: offset) }
        var d = _GeometryDecoder(stream: geometryStream, mode: mode)
        switch type {
        case .unknown: return
        case .point: try d.points(&handler)
        case .lineString: try d.lines(&handler)
        case .polygon: try d.polygons(&handler)
        }
    }
}

@usableFromInline
struct _GeometryDecoder {
    @usableFromInline var stream: PackedUInt32Stream
    @usableFromInline let mode: GeometryMode
    @usableFromInline var x: Int64 = 0
    @usableFromInline var y: Int64 = 0

    @inlinable
    init(stream: PackedUInt32Stream, mode: GeometryMode) {
        self.stream = stream
        self.mode = mode
    }

    /// The next command, or nil at the end of the geometry.
    @usableFromInline @_transparent
    mutating func command() throws(MVTError) -> (id: UInt32, count: UInt32, offset: Int)? {
        guard let raw = try stream.next() else { return nil }
        let id = raw & 7, count = raw >> 3
        guard id == 1 || id == 2 || id == 7 else { throw .invalidCommand(id, offset: stream.lastOffset) }
        return (id, count, stream.lastOffset)
    }

    /// Reads one parameter pair and moves the cursor (§4.3.2, §4.3.3).
    @usableFromInline @_transparent
    mutating func pair(_ commandOffset: Int) throws(MVTError) -> (dx: Int64, dy: Int64) {
        guard let px = try stream.next(), let py = try stream.next() else {
            throw .truncatedGeometry(offset: commandOffset)
        }
        let dx = Int64(ZigZag.decode(px)), dy = Int64(ZigZag.decode(py))
        x &+= dx
        y &+= dy
        return (dx, dy)
    }

    /// The `count` parameter pairs of a LineTo: moves the cursor and hands each new
    /// position to the handler as a line point, or as a ring point added to `area`
    /// (`ring`). A zero-length step is an error in strict mode and is dropped in
    /// tolerant mode (C8).
    ///
    /// Pairs inside the packed record being read are decoded from a local copy of its
    /// reader, so the loop keeps its state in registers; a pair that crosses into another
    /// record (or an unpacked value) goes through the stream. (The two loops hand vertices
    /// over with the same six lines on purpose: a shared inline helper measured 2–5% more
    /// instructions per tile.)
    @inlinable @inline(__always)
    mutating func run<H: GeometryHandler>(_ count: UInt32, _ commandOffset: Int, _ h: inout H,
                                          ring: Bool, area: inout _ShoelaceSum) throws(MVTError)
    {
        var i: UInt32 = 0
        var px = x, py = y
        // Fast loop: both varints of a pair are one or two bytes long and lie inside the
        // packed record being read. For rings, the area
        // terms are summed with wrapping arithmetic while every vertex lies within ±2^20
        // and fewer than 2^21 pairs have been summed: each term is then below 2^41 in
        // magnitude and the sum below 2^62, so the wrapping sum is exact. Anything else
        // (longer varints, a pair cut by the record's end, larger coordinates) leaves the loop
        // for the checked one below, which continues from the same state.
        if stream.inInner, let base = stream.inner.bytes.baseAddress {
            let end = stream.inner.bytes.count
            let strict = mode == .strict
            var p = stream.inner.offset
            var cx = x, cy = y
            var partial: Int64 = 0
            let bound: Int64 = 1 << 20
            // Pairs this loop may take: all of them for lines, at most 2^21 for rings.
            let budget = ring ? min(count, 1 << 21) : count
            var left = budget
            if !ring || UInt64(bitPattern: cx &+ bound) | UInt64(bitPattern: cy &+ bound) < UInt64(2 * bound) {
                while left > 0 && p < end {
                    // Safe: every load below is at an offset checked against `end` first.
                    var q = p
                    let b0 = UInt32(base.load(fromByteOffset: q, as: UInt8.self))
                    let ux: UInt32
                    if b0 < 0x80 {
                        ux = b0; q &+= 1
                    } else {
                        guard q &+ 1 < end else { break }
                        let b1 = UInt32(base.load(fromByteOffset: q &+ 1, as: UInt8.self))
                        guard b1 < 0x80 else { break }
                        ux = (b0 & 0x7F) | b1 &<< 7; q &+= 2
                    }
                    guard q < end else { break }
                    let c0 = UInt32(base.load(fromByteOffset: q, as: UInt8.self))
                    let uy: UInt32
                    if c0 < 0x80 {
                        uy = c0; q &+= 1
                    } else {
                        guard q &+ 1 < end else { break }
                        let c1 = UInt32(base.load(fromByteOffset: q &+ 1, as: UInt8.self))
                        guard c1 < 0x80 else { break }
                        uy = (c0 & 0x7F) | c1 &<< 7; q &+= 2
                    }
                    if ux | uy == 0 {
                        // A zero-length step: the cursor stays where it is (C8).
                        if strict {
                            x = cx; y = cy
                            let yAt = q &- 1
                            throw .zeroLengthSegment(offset: stream.inner.absoluteStart &+ yAt)
                        }
                        p = q
                        left &-= 1
                        continue
                    }
                    let nx = cx &+ Int64(ZigZag.decode(ux)), ny = cy &+ Int64(ZigZag.decode(uy))
                    if ring {
                        guard UInt64(bitPattern: nx &+ bound) | UInt64(bitPattern: ny &+ bound) < UInt64(2 * bound) else { break }
                        // The previous vertex is the cursor before this step.
                        partial &+= cx &* ny &- nx &* cy
                        h.ringPoint(x: nx, y: ny)
                    } else {
                        h.linePoint(x: nx, y: ny)
                    }
                    p = q
                    cx = nx
                    cy = ny
                    left &-= 1
                }
            }
            i = budget &- left
            x = cx; y = cy
            px = cx; py = cy
            stream.inner = stream.inner.positioned(at: p)
            if ring { area.addExact(partial) }
        }
        if stream.inInner {
            var r = stream.inner
            var cx = x, cy = y
            while i < count && !r.isAtEnd {
                let saved = r
                let ux: UInt32, uy: UInt32
                do throws(PBFError) { ux = try r.readUInt32() } catch { throw .malformed(error) }
                if r.isAtEnd { r = saved; break }
                let yAt = r.absoluteOffset
                do throws(PBFError) { uy = try r.readUInt32() } catch { throw .malformed(error) }
                i &+= 1
                let dx = Int64(ZigZag.decode(ux)), dy = Int64(ZigZag.decode(uy))
                cx &+= dx
                cy &+= dy
                if dx == 0 && dy == 0 {
                    if mode == .strict { throw .zeroLengthSegment(offset: yAt) }
                    continue
                }
                if ring {
                    area.add(px, py, cx, cy)
                    px = cx; py = cy
                    h.ringPoint(x: cx, y: cy)
                } else {
                    h.linePoint(x: cx, y: cy)
                }
            }
            x = cx; y = cy
            stream.inner = r
        }
        while i < count {
            let d = try pair(commandOffset)
            i &+= 1
            if d.dx == 0 && d.dy == 0 {
                if mode == .strict { throw .zeroLengthSegment(offset: stream.lastOffset) }
                continue
            }
            if ring {
                area.add(px, py, x, y)
                px = x; py = y
                h.ringPoint(x: x, y: y)
            } else {
                h.linePoint(x: x, y: y)
            }
        }
    }

    /// POINT: one MoveTo with count ≥ 1, nothing else (§4.3.4.2, D1).
    @inlinable
    mutating func points<H: GeometryHandler>(_ h: inout H) throws(MVTError) {
        guard let c = try command() else { throw .invalidGeometry(reason: "POINT without MoveTo", offset: stream.lastOffset) }
        guard c.id == 1, c.count > 0 else {
            throw .invalidGeometry(reason: "POINT must be one MoveTo with count > 0", offset: c.offset)
        }
        for _ in 0..<c.count {
            _ = try pair(c.offset)
            h.point(x: x, y: y)
        }
        if let extra = try command() {
            throw .invalidGeometry(reason: "POINT has a command after its MoveTo", offset: extra.offset)
        }
    }

    /// LINESTRING: repetitions of MoveTo(1), LineTo(n ≥ 1) (§4.3.4.3, D2).
    @inlinable
    mutating func lines<H: GeometryHandler>(_ h: inout H) throws(MVTError) {
        var any = false
        while let m = try command() {
            any = true
            guard m.id == 1, m.count == 1 else {
                throw .invalidGeometry(reason: m.id == 7 ? "ClosePath in a LINESTRING" : "LINESTRING part must start with MoveTo(1)", offset: m.offset)
            }
            _ = try pair(m.offset)
            guard let l = try command(), l.id == 2, l.count >= 1 else {
                throw .invalidGeometry(reason: "MoveTo must be followed by LineTo with count ≥ 1", offset: m.offset)
            }
            h.lineBegin()
            h.linePoint(x: x, y: y)
            var unused = _ShoelaceSum()
            try run(l.count, l.offset, &h, ring: false, area: &unused)
            h.lineEnd()
        }
        if !any { throw .invalidGeometry(reason: "empty LINESTRING geometry", offset: offset0) }
    }

    /// POLYGON: rings of MoveTo(1), LineTo(n ≥ 2), ClosePath(1); the first ring of each
    /// polygon exterior (§4.3.4.4, D3, D4).
    @inlinable
    mutating func polygons<H: GeometryHandler>(_ h: inout H) throws(MVTError) {
        var rings = 0
        while let m = try command() {
            guard m.id == 1, m.count == 1 else {
                throw .invalidGeometry(reason: "ring must start with MoveTo(1)", offset: m.offset)
            }
            _ = try pair(m.offset)
            let x0 = x, y0 = y
            guard let l = try command(), l.id == 2, l.count >= 2 else {
                throw .invalidGeometry(reason: "ring needs LineTo with count ≥ 2", offset: m.offset)
            }
            h.ringBegin()
            h.ringPoint(x: x, y: y)
            var area = _ShoelaceSum()
            try run(l.count, l.offset, &h, ring: true, area: &area)
            area.add(x, y, x0, y0)
            guard let c = try command(), c.id == 7 else {
                throw .invalidGeometry(reason: "ring must end with ClosePath", offset: l.offset)
            }
            guard c.count == 1 else { throw .invalidClosePath(count: c.count, offset: c.offset) }
            let kind = area.kind
            if rings == 0 && kind == .interior { throw .interiorRingFirst(offset: m.offset) }
            rings += 1
            h.ringEnd(kind)
        }
        if rings == 0 { throw .invalidGeometry(reason: "empty POLYGON geometry", offset: offset0) }
    }

    @inlinable
    var offset0: Int { stream.outer.absoluteStart }
}

/// Twice the signed area of a ring (shoelace), exact in 64-bit integers while it fits and
/// in floating point after that, so crafted coordinates cannot trap (D4).
@usableFromInline
struct _ShoelaceSum {
    @usableFromInline var exact: Int64 = 0
    @usableFromInline var approx: Double = 0
    @usableFromInline var overflowed = false

    @inlinable init() {}

    @inlinable
    mutating func add(_ x1: Int64, _ y1: Int64, _ x2: Int64, _ y2: Int64) {
        if !overflowed {
            let (a, o1) = x1.multipliedReportingOverflow(by: y2)
            let (b, o2) = x2.multipliedReportingOverflow(by: y1)
            let (d, o3) = a.subtractingReportingOverflow(b)
            let (s, o4) = exact.addingReportingOverflow(d)
            if o1 || o2 || o3 || o4 {
                overflowed = true
                approx = Double(exact)
            } else {
                exact = s
                return
            }
        }
        approx += Double(x1) * Double(y2) - Double(x2) * Double(y1)
    }

    /// Adds a partial sum known to be exact.
    @inlinable
    mutating func addExact(_ partial: Int64) {
        if !overflowed {
            let (s, o) = exact.addingReportingOverflow(partial)
            if !o { exact = s; return }
            overflowed = true
            approx = Double(exact)
        }
        approx += Double(partial)
    }

    /// Positive area (y down, clockwise on screen) is exterior (§4.3.4.4).
    @inlinable
    var kind: RingKind {
        let v = overflowed ? (approx > 0 ? 1 : approx < 0 ? -1 : 0) : exact.signum()
        return v > 0 ? .exterior : v < 0 ? .interior : .degenerate
    }
}
