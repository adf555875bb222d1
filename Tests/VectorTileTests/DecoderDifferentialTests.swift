import GraticuleTestSupport
import GraticuleSupport
import PBF
import XCTest
@testable import VectorTile

/// The decoder reads common input through raw-load fast paths (one- and two-byte varints,
/// small coordinates, one packed record) and everything else through checked loops that
/// take over mid-stream. These tests compare it with a plain reference decoder, written
/// here from MVT 2.1 §4.3 and protobuf's varint rules, on random input built to cross
/// between the paths: long and overlong varints, coordinates beyond ±2^20, zero-length
/// steps, truncation inside a varint or a pair, and out-of-range tag indices.
final class DecoderDifferentialTests: XCTestCase {
    enum Event: Equatable {
        case point(Int64, Int64)
        case lineBegin, linePoint(Int64, Int64), lineEnd
        case ringBegin, ringPoint(Int64, Int64), ringEnd(RingKind)
    }

    struct Recorder: GeometryHandler {
        var events: [Event] = []
        mutating func point(x: Int64, y: Int64) { events.append(.point(x, y)) }
        mutating func lineBegin() { events.append(.lineBegin) }
        mutating func linePoint(x: Int64, y: Int64) { events.append(.linePoint(x, y)) }
        mutating func lineEnd() { events.append(.lineEnd) }
        mutating func ringBegin() { events.append(.ringBegin) }
        mutating func ringPoint(x: Int64, y: Int64) { events.append(.ringPoint(x, y)) }
        mutating func ringEnd(_ kind: RingKind) { events.append(.ringEnd(kind)) }
    }

    /// A deterministic generator (the package's SplitMix64), so a failure names a
    /// reproducible seed; these tests count in UInt64.
    struct Rng {
        var base: SplitMix64
        init(seed: UInt64) { base = SplitMix64(seed: seed) }
        mutating func next() -> UInt64 { base.next() }
        mutating func below(_ n: UInt64) -> UInt64 { next() % n }
        mutating func chance(_ percent: UInt64) -> Bool { below(100) < percent }
    }

    // MARK: Reference

    /// Varints of a packed field per protobuf: at most 10 bytes, the 10th at most 1, read
    /// as uint32 by keeping the low 32 bits. `malformed` when the bytes end inside a varint
    /// or a varint is too long; the values before it are returned.
    static func referenceValues(_ bytes: [UInt8]) -> (values: [UInt32], malformed: Bool) {
        let (varints, malformed) = referenceVarints(bytes)
        return (varints.map(\.value), malformed)
    }

    /// `referenceValues`, each value with the offset in `bytes` where its varint starts.
    static func referenceVarints(_ bytes: [UInt8]) -> (values: [(value: UInt32, offset: Int)], malformed: Bool) {
        var out: [(value: UInt32, offset: Int)] = []
        var i = 0
        while i < bytes.count {
            var v: UInt64 = 0
            var n = 0
            while true {
                guard i + n < bytes.count, n < 10 else { return (out, true) }
                let b = bytes[i + n]
                if n == 9 && b > 1 { return (out, true) }
                v |= UInt64(b & 0x7F) << (7 * UInt64(n))
                n += 1
                if b < 0x80 { break }
            }
            out.append((UInt32(truncatingIfNeeded: v), i))
            i += n
        }
        return (out, false)
    }

    struct ReferenceError: Error {}

    /// Geometry per §4.3.4: the events and whether decoding fails (after those events).
    static func referenceGeometry(type: UInt64, bytes: [UInt8], strict: Bool) -> (events: [Event], fails: Bool) {
        let (values, malformed) = referenceValues(bytes)
        var at = 0
        var events: [Event] = []
        var x: Int64 = 0, y: Int64 = 0
        func next() throws -> UInt32? {
            if at < values.count { at += 1; return values[at - 1] }
            if malformed { throw ReferenceError() }
            return nil
        }
        func command() throws -> (id: UInt32, count: UInt32)? {
            guard let c = try next() else { return nil }
            guard [1, 2, 7].contains(c & 7) else { throw ReferenceError() }
            return (c & 7, c >> 3)
        }
        func zz(_ v: UInt32) -> Int64 { Int64(Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1)))) }
        func pair() throws -> (Int64, Int64) {
            guard let a = try next(), let b = try next() else { throw ReferenceError() }
            x += zz(a); y += zz(b)
            return (zz(a), zz(b))
        }
        do {
            switch type {
            case 1:
                guard let c = try command(), c.id == 1, c.count > 0 else { throw ReferenceError() }
                for _ in 0..<c.count { _ = try pair(); events.append(.point(x, y)) }
                if try command() != nil { throw ReferenceError() }
            case 2:
                var parts = 0
                while let m = try command() {
                    parts += 1
                    guard m.id == 1, m.count == 1 else { throw ReferenceError() }
                    _ = try pair()
                    guard let l = try command(), l.id == 2, l.count >= 1 else { throw ReferenceError() }
                    events.append(.lineBegin)
                    events.append(.linePoint(x, y))
                    for _ in 0..<l.count {
                        let d = try pair()
                        if d == (0, 0) { if strict { throw ReferenceError() }; continue }
                        events.append(.linePoint(x, y))
                    }
                    events.append(.lineEnd)
                }
                if parts == 0 { throw ReferenceError() }
            case 3:
                var rings = 0
                while let m = try command() {
                    guard m.id == 1, m.count == 1 else { throw ReferenceError() }
                    _ = try pair()
                    var ring: [(Int64, Int64)] = [(x, y)]
                    guard let l = try command(), l.id == 2, l.count >= 2 else { throw ReferenceError() }
                    events.append(.ringBegin)
                    events.append(.ringPoint(x, y))
                    for _ in 0..<l.count {
                        let d = try pair()
                        if d == (0, 0) { if strict { throw ReferenceError() }; continue }
                        ring.append((x, y))
                        events.append(.ringPoint(x, y))
                    }
                    guard let c = try command(), c.id == 7, c.count == 1 else { throw ReferenceError() }
                    // Shoelace in 128 bits: no overflow for any coordinates this test makes.
                    var twiceArea: Int128 = 0
                    for i in ring.indices {
                        let (x1, y1) = ring[i], (x2, y2) = ring[(i + 1) % ring.count]
                        twiceArea += Int128(x1) * Int128(y2) - Int128(x2) * Int128(y1)
                    }
                    let kind: RingKind = twiceArea > 0 ? .exterior : twiceArea < 0 ? .interior : .degenerate
                    if rings == 0 && kind == .interior { throw ReferenceError() }
                    rings += 1
                    events.append(.ringEnd(kind))
                }
                if rings == 0 { throw ReferenceError() }
            default:
                break
            }
        } catch {
            return (events, true)
        }
        return (events, false)
    }

    // MARK: Random input

    /// `v` as a varint of at least its minimal length, padded with continuation bytes to
    /// `length` bytes (overlong encodings are valid, P2).
    static func varint(_ v: UInt64, length: Int) -> [UInt8] { TestVarint.encode(v, length: length) }

    static func encode(_ values: [UInt64], _ rng: inout Rng) -> [UInt8] {
        var out: [UInt8] = []
        for v in values {
            let minimal = varint(v, length: 1).count
            let length = rng.chance(8) ? min(10, minimal + 1 + Int(rng.below(4))) : minimal
            out += varint(v, length: length)
        }
        return out
    }

    /// A feature message holding the tags record `bytes`: last (`place` 0..<4, after a type
    /// and a polygon geometry), first (4..<8, the same fields after it) or alone (8..<10);
    /// `payload` is where the record's bytes start. With `longerGeometry`, the geometry is
    /// one ring or two, so that more bytes may follow a first record.
    static func tagsMessage(_ bytes: [UInt8], _ rng: inout Rng, longerGeometry: Bool)
        -> (message: PBFWriter, place: UInt64, payload: Int)
    {
        var f = PBFWriter()
        let place = rng.below(10)
        if place >= 4 { f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(bytes) }
        if place < 8 {
            let ring: [UInt8] = [9, 2, 2, 26, 4, 0, 0, 4, 15]
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(3)
            f.writeKey(field: 4, wireType: .lengthDelimited)
            f.writeLengthDelimited(longerGeometry && !rng.chance(50) ? ring + ring : ring)
        }
        if place < 4 { f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(bytes) }
        return (f, place, place < 4 ? f.bytes.count - bytes.count : 1 + varint(UInt64(bytes.count), length: 1).count)
    }

    static func zigzag(_ d: Int64) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: (d << 1) ^ (d >> 63))) }

    static func randomDelta(_ rng: inout Rng) -> Int64 {
        switch rng.below(100) {
        case 0..<8: return 0                                                   // zero-length step
        case 8..<70: return Int64(rng.below(120)) - 60                         // one byte
        case 70..<92: return Int64(rng.below(16000)) - 8000                    // two bytes
        default: return Int64(rng.below(1 << 23)) - (1 << 22)                  // beyond ±2^20 soon
        }
    }

    /// A command stream that is mostly well formed for `type`, with random damage.
    static func randomGeometry(type: UInt64, _ rng: inout Rng) -> [UInt64] {
        var v: [UInt64] = []
        func cmd(_ id: UInt64, _ count: UInt64) { v.append(id | count << 3) }
        func pairs(_ n: Int) { for _ in 0..<n { v.append(zigzag(randomDelta(&rng))); v.append(zigzag(randomDelta(&rng))) } }
        switch type {
        case 1:
            let n = 1 + Int(rng.below(5))
            cmd(1, UInt64(n)); pairs(n)
        case 2:
            for _ in 0..<(1 + rng.below(3)) {
                cmd(1, 1); pairs(1)
                let n = rng.chance(10) ? 50 + Int(rng.below(150)) : 1 + Int(rng.below(12))
                cmd(2, UInt64(n)); pairs(n)
            }
        default:
            for _ in 0..<(1 + rng.below(3)) {
                cmd(1, 1); pairs(1)
                // Now and then a ring longer than the raw loop's 64-pair blocks.
                let n = rng.chance(10) ? 50 + Int(rng.below(150)) : 2 + Int(rng.below(12))
                cmd(2, UInt64(n)); pairs(n)
                cmd(7, 1)
            }
        }
        // Damage: a wrong count, a bad command id, a value beyond 32 bits, or a cut.
        if rng.chance(15), !v.isEmpty {
            let i = Int(rng.below(UInt64(v.count)))
            switch rng.below(4) {
            case 0: v[i] = v[i] & 7 | (rng.below(20) << 3)
            case 1: v[i] = (v[i] & ~7) | rng.below(8)
            case 2: v[i] |= rng.below(1 << 8) << 32
            default: v.removeLast(Int(rng.below(UInt64(v.count))))
            }
        }
        return v
    }

    // MARK: Tests

    func testGeometryMatchesReferenceDecoder() throws {
        var rng = Rng(seed: 0x6D76_7464_6966_6600)
        for iteration in 0..<6000 {
            let type = 1 + rng.below(3)
            var bytes = Self.encode(Self.randomGeometry(type: type, &rng), &rng)
            if rng.chance(6), !bytes.isEmpty { bytes.removeLast(1 + Int(rng.below(UInt64(min(3, bytes.count))))) }
            let unpacked = rng.chance(10)
            let strict = rng.chance(30)
            // The geometry bytes go in raw, so they hold exactly what was built above.
            var f = PBFWriter()
            f.writeKey(field: 1, wireType: .varint); f.writeVarint(7)
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(type)
            if unpacked {
                let (values, malformed) = Self.referenceValues(bytes)
                if malformed { continue }
                for value in values { f.writeKey(field: 4, wireType: .varint); f.writeVarint(UInt64(value)) }
            } else {
                f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            }
            // Now and then a tags record after the geometry, so the raw loads that read past
            // a record's end (into the rest of the message) see bytes that look like geometry;
            // nothing after the record's end may be taken as part of it.
            if rng.chance(50) {
                let tags = (0..<rng.below(40)).map { _ in UInt8(rng.chance(30) ? [9, 2, 10, 15, 18][Int(rng.below(5))] : rng.below(128)) }
                f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(tags)
            }
            var expected = Self.referenceGeometry(type: type, bytes: bytes, strict: strict)
            // Unpacked values are one geometry record each; strict mode refuses more than
            // one record before decoding anything (B9).
            if unpacked && strict && Self.referenceValues(bytes).values.count > 1 { expected = ([], true) }
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                var rec = Recorder()
                var fails = false
                do { try feature.decodeGeometry(into: &rec, mode: strict ? .strict : .tolerant) } catch { fails = true }
                XCTAssertEqual(rec.events, expected.events, "iteration \(iteration), type \(type), strict \(strict), unpacked \(unpacked), bytes \(bytes)")
                XCTAssertEqual(fails, expected.fails, "iteration \(iteration), type \(type), strict \(strict), unpacked \(unpacked), bytes \(bytes)")
                if rec.events != expected.events || fails != expected.fails { throw ReferenceError() }
            }
        }
    }

    /// A POINT of one position (MoveTo(1) and one pair, §4.3.4.2) is read from one 8-byte
    /// load when its values take one to three bytes (`_singlePoint`); anything else goes to
    /// the command loop. Both must give the reference decoder's result: values of one to
    /// four bytes, some overlong (P2) or at the three-byte limit, a command or any value
    /// after the pair (D1), a cut pair, with the record first in its feature (two bytes before it, so
    /// short records cannot take the load that ends at the record's end) or after other
    /// fields, and followed by the type or a tags record, whose bytes must not be taken.
    func testSinglePointsMatchReferenceDecoder() throws {
        var rng = Rng(seed: 0x7069_6E74_7331_0000)
        var fast = 0, other = 0
        for iteration in 0..<20_000 {
            func value() -> [UInt8] {
                let v: UInt64
                switch rng.below(10) {
                case 0..<3: v = rng.below(128)
                case 3..<6: v = rng.below(1 << 14)
                case 6..<8: v = rng.below(1 << 21)
                case 8: v = (1 << 21) - 1 - rng.below(3)
                default: v = rng.below(1 << 32)
                }
                let minimal = Self.varint(v, length: 1).count
                return Self.varint(v, length: rng.chance(10) ? min(10, minimal + 1) : minimal)
            }
            var bytes: [UInt8] = [rng.chance(95) ? 0x09 : UInt8(rng.below(32))]
            bytes += value() + value()
            if rng.chance(10) { bytes += [0x0F] }                        // ClosePath(1) after the pair
            if rng.chance(10) { bytes += Self.varint(rng.below(1 << 21), length: 1) }   // any value after it
            if rng.chance(5) { bytes.removeLast(1 + Int(rng.below(2))) }  // cut
            let strict = rng.chance(50)
            var f = PBFWriter()
            if rng.chance(60) { f.writeKey(field: 1, wireType: .varint); f.writeVarint(rng.below(1 << 20)) }
            let typeFirst = rng.chance(60)
            if typeFirst { f.writeKey(field: 3, wireType: .varint); f.writeVarint(1) }
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            if !typeFirst { f.writeKey(field: 3, wireType: .varint); f.writeVarint(1) }
            if rng.chance(40) {
                let tags = (0..<rng.below(12)).map { _ in UInt8(rng.chance(30) ? [9, 2, 0x80, 15][Int(rng.below(4))] : rng.below(128)) }
                f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(tags)
            }
            let expected = Self.referenceGeometry(type: 1, bytes: bytes, strict: strict)
            // The shape the one-load read takes: MoveTo(1), then two varints of one to three
            // bytes that end exactly at the record's end.
            let ends = bytes.indices.dropFirst().filter { bytes[$0] < 0x80 }
            if bytes.first == 0x09, ends.count == 2, ends[1] == bytes.count - 1, ends[0] <= 3, ends[1] - ends[0] <= 3 {
                fast += 1
            } else {
                other += 1
            }
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                XCTAssertEqual(feature.type, .point)
                var rec = Recorder()
                var fails = false
                do { try feature.decodeGeometry(into: &rec, mode: strict ? .strict : .tolerant) } catch { fails = true }
                let context = "iteration \(iteration), strict \(strict), bytes \(bytes), feature \(f.bytes)"
                XCTAssertEqual(rec.events, expected.events, context)
                XCTAssertEqual(fails, expected.fails, context)
                if rec.events != expected.events || fails != expected.fails { throw ReferenceError() }
            }
        }
        // Both paths were taken often.
        XCTAssertGreaterThan(fast, 3000)
        XCTAssertGreaterThan(other, 3000)
    }

    func testLinePairsCheckedWithoutDecodingEndAsDecodingThem() throws {
        var rng = Rng(seed: 0x6C69_6E65_7300_0001)
        var taken = 0, errors = 0
        for iteration in 0..<8000 {
            var v = Self.randomGeometry(type: 2, &rng)
            // More of what the check must leave to the decoder: zero-length pairs, and
            // zero values written with two bytes or more (a byte 0x80).
            if rng.chance(20), v.count > 4 {
                let i = 3 + 2 * Int(rng.below(UInt64((v.count - 3) / 2)))
                if i + 1 < v.count { v[i] = 0; v[i + 1] = 0 }
            }
            let bytes = Self.checkInput(v, &rng)
            let f = Self.checkFeature(type: 2, bytes, &rng)
            for mode in [GeometryMode.strict, .tolerant] {
                try f.bytes.withUnsafeBytes { raw in
                    let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                    let (checked, checkedError, decoded, decodedError) = LineOutcomes.of(feature, mode)
                    let context = "iteration \(iteration), \(mode), bytes \(bytes)"
                    XCTAssertEqual(checkedError, decodedError, context)
                    XCTAssertEqual(checked.parts, decoded.parts, context)
                    XCTAssertEqual(checked.ends, decoded.ends, context)
                    if checkedError != decodedError { throw ReferenceError() }
                    if decodedError == nil { taken += decoded.points } else { errors += 1 }
                }
            }
        }
        // Both outcomes occur often enough for the comparison to mean something.
        XCTAssertGreaterThan(taken, 100_000)
        XCTAssertGreaterThan(errors, 1_000)
    }

    /// Geometry values as bytes, with more of what the pair check must leave to the
    /// decoder than `encode` writes: zero values written with two bytes or more, values of
    /// five bytes read as zero (2^32·k, P10), values with a byte 0x80, a cut, and now and
    /// then a varint of six to twelve bytes (too long from eleven, P1) inside the run,
    /// across the check's eight-byte words.
    static func checkInput(_ v: [UInt64], _ rng: inout Rng) -> [UInt8] {
        var bytes: [UInt8] = []
        for (i, value) in v.enumerated() {
            var value = value
            if i > 2, rng.chance(3) { value = (1 << 32) * (1 + rng.below(15)) }
            else if i > 2, rng.chance(3) { value = 128 * (1 + rng.below(127)) + (rng.chance(50) ? 0 : 128 * 128 * rng.below(4)) }
            let minimal = Self.varint(value, length: 1).count
            let length = rng.chance(value == 0 ? 15 : 4) ? min(10, minimal + 1 + Int(rng.below(3))) : minimal
            bytes += Self.varint(value, length: length)
        }
        if rng.chance(6), !bytes.isEmpty { bytes.removeLast(1 + Int(rng.below(UInt64(min(3, bytes.count))))) }
        if rng.chance(8), bytes.count > 8 {
            let at = 6 + Int(rng.below(UInt64(bytes.count - 6)))
            bytes.insert(contentsOf: [UInt8](repeating: 0x80 | UInt8(rng.below(128)), count: 5 + Int(rng.below(7))), at: at)
        }
        return bytes
    }

    /// A feature message of `type` with `geometry` as its record, followed half the time by
    /// a tags record of bytes that look like geometry (zero, 0x80, commands), which the
    /// check's eight-byte loads reach and must not take.
    static func checkFeature(type: UInt64, _ geometry: [UInt8], _ rng: inout Rng) -> PBFWriter {
        var f = PBFWriter()
        f.writeKey(field: 3, wireType: .varint); f.writeVarint(type)
        f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(geometry)
        if rng.chance(50) {
            let tags = (0..<rng.below(24)).map { _ in UInt8(rng.chance(30) ? [0, 0x80, 2, 9, 10, 15][Int(rng.below(6))] : rng.below(128)) }
            f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(tags)
        }
        return f
    }

    /// The validator without warnings checks a polygon's rings after the first as it
    /// checks a line's pairs (`_CheckedOnly`; only the first ring's kind is judged, D4):
    /// it must end in exactly the error (kind and offset) that decoding every pair ends in,
    /// or in none, in either mode.
    func testLaterRingsCheckedWithoutDecodingEndAsDecodingThem() throws {
        var rng = Rng(seed: 0x7269_6E67_7300_0001)
        var clean = 0, errors = 0, zeroSteps = 0
        for iteration in 0..<8000 {
            var v = Self.randomGeometry(type: 3, &rng)
            // A zero-length pair (C8), most often in a later ring, and pairs with a zero
            // value, which are not.
            for _ in 0..<rng.below(3) where v.count > 6 {
                let i = 3 + 2 * Int(rng.below(UInt64((v.count - 3) / 2)))
                guard i + 1 < v.count else { continue }
                switch rng.below(3) {
                case 0: v[i] = 0; v[i + 1] = 0
                case 1: v[i] = 0
                default: v[i + 1] = 0
                }
            }
            let bytes = rng.chance(50) ? Self.checkInput(v, &rng) : v.flatMap { Self.varint($0, length: 1) }
            let f = Self.checkFeature(type: 3, bytes, &rng)
            for mode in [GeometryMode.strict, .tolerant] {
                try f.bytes.withUnsafeBytes { raw in
                    let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                    let (checkedError, decodedError) = LineOutcomes.checkedOnly(feature, mode)
                    XCTAssertEqual(checkedError, decodedError, "iteration \(iteration), \(mode), bytes \(bytes)")
                    if checkedError != decodedError { throw ReferenceError() }
                    switch decodedError {
                    case nil: clean += 1
                    case .zeroLengthSegment?: zeroSteps += 1; errors += 1
                    default: errors += 1
                    }
                }
            }
        }
        // Every outcome occurs often enough for the comparison to mean something.
        XCTAssertGreaterThan(clean, 2_000)
        XCTAssertGreaterThan(errors, 2_000)
        XCTAssertGreaterThan(zeroSteps, 500)
    }

    /// The validator without warnings reads no ring's area but each polygon geometry's
    /// first; with warnings it reads them all (D7). Both must report the same errors, in
    /// the same order, on every real-world tile of the shared corpus and on damaged copies.
    func testValidatorFindsTheSameErrorsWithAndWithoutWarnings() throws {
        let tiles = try realWorldTiles()
        var rng = Rng(seed: 0x7761_726E_0000_0001)
        var damagedWithErrors = 0
        for (label, bytes) in tiles {
            for copy in 0..<4 {
                var b = bytes
                // The tile itself, then copies with a few bytes changed.
                if copy > 0 {
                    for _ in 0..<(1 + rng.below(4)) {
                        let i = Int(rng.below(UInt64(b.count)))
                        b[i] = [0, 0x80, b[i] ^ 1, UInt8(rng.below(256))][Int(rng.below(4))]
                    }
                }
                b.withUnsafeBytes { raw in
                    let tile = VectorTile(bytes: raw)
                    let errors = MVTValidator.validate(tile, warnings: false)
                    let all = MVTValidator.validate(tile, warnings: true)
                    XCTAssertEqual(errors, all.filter { $0.severity != .warning }, "\(label), copy \(copy)")
                    XCTAssert(errors.allSatisfy { $0.severity != .warning })
                    if copy == 0 { XCTAssertEqual(errors, [], label) }
                    if copy > 0 && !errors.isEmpty { damagedWithErrors += 1 }
                }
            }
        }
        XCTAssertGreaterThan(tiles.count, 100)
        XCTAssertGreaterThan(damagedWithErrors, 100)
    }

    /// Every input the fuzzer ever failed on (corpora/regressions/mvt) decodes without a
    /// crash, and the validator's line-pair check ends each line as decoding its pairs
    /// does. (The first such input held an eleven-byte varint, too long, spread over two of
    /// the check's words, each with another varint's end: the check took it, then met
    /// the end of the record, where decoding reports the long varint.)
    func testFuzzRegressionsDecodeAlike() throws {
        let dir = URL(fileURLWithPath: TestPaths.corpora("regressions/mvt"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertFalse(names.isEmpty)
        var lines = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            bytes.withUnsafeBytes { raw in
                _ = MVTValidator.validate(VectorTile(bytes: raw))
                guard let layers = try? VectorTile(bytes: raw).layers() else { return }
                for layer in layers {
                    layer.forEachFeature { (f: Feature) in
                        guard f.type == .lineString else { return }
                        lines += 1
                        for mode in [GeometryMode.strict, .tolerant] {
                            let outcomes = LineOutcomes.of(f, mode)
                            XCTAssertEqual(outcomes.checkedError, outcomes.decodedError, "\(name), feature at \(f.offset), \(mode)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(lines, 0)
    }

    /// `_checkLinePairs` itself: whatever it takes ends exactly where a whole number of
    /// pairs ends, and it takes every pair of a run of one- and two-byte values in their
    /// shortest form with no zero-length pair when eight bytes can be loaded past the run's
    /// end.
    func testLinePairCheckTakesWholePairs() {
        var rng = Rng(seed: 0x636B_7061_6972_7300)
        var clean = 0
        for iteration in 0..<20000 {
            let pairs = 1 + Int(rng.below(rng.chance(20) ? 60 : 6))
            let plain = rng.chance(50)
            var bytes: [UInt8] = []
            var ends: [Int] = []   // offset after each pair
            for _ in 0..<pairs {
                var pair: [UInt64] = []
                for _ in 0..<2 {
                    // Plain values are written in their shortest form, take one or two
                    // bytes, and are zero in at most one place of a pair; their byte 0x80,
                    // when a two-byte value's low seven bits are zero, is followed by
                    // neither 0x00 nor 0x80.
                    let v: UInt64 = plain
                        ? [1 + rng.below(127), 128 * (1 + rng.below(126)) + 1 + rng.below(127), 128 * (1 + rng.below(127)), 0][Int(rng.below(4))]
                        : [0, 1, 127, 128, 16384, 1 << 28, 1 << 32, UInt64(rng.below(1 << 14))][Int(rng.below(8))]
                    pair.append(v)
                }
                if plain && pair == [0, 0] { pair[rng.below(2) == 0 ? 0 : 1] = 1 + rng.below(127) }
                for v in pair {
                    let minimal = Self.varint(v, length: 1).count
                    bytes += Self.varint(v, length: !plain && rng.chance(10) ? minimal + 1 : minimal)
                }
                ends.append(bytes.count)
            }
            let end = bytes.count
            let cut = rng.chance(10) ? Int(rng.below(UInt64(end))) : end   // a record shorter than the run
            bytes += (0..<Int(rng.below(12))).map { _ in UInt8(rng.below(256)) }
            let loadable = bytes.count
            bytes.withUnsafeBytes { raw in
                let (p, left) = _checkLinePairs(raw.baseAddress!, 0, cut, loadable, pairs)
                let context = "iteration \(iteration), bytes \(Array(bytes[..<end])), cut \(cut)"
                XCTAssertTrue(left >= 0 && left <= pairs, context)
                XCTAssertEqual(p, left == pairs ? 0 : ends[pairs - left - 1], context)
                XCTAssertLessThanOrEqual(p, cut, context)
                if plain && cut == end && loadable >= end + 8 {
                    clean += 1
                    XCTAssertEqual(left, 0, context)
                }
            }
        }
        XCTAssertGreaterThan(clean, 1000)
    }

    /// Unclipped geometry holds deltas of three to five bytes. The raw loop takes them in
    /// lines, and in rings only below ±2^20, where its block sums cannot overflow; larger
    /// ones (up to ±2^31, which move the cursor far enough for a block's terms to pass
    /// 2^63) go through the checked path. Rings of such deltas, with a ring area of either
    /// sign, must be classified as the 128-bit reference classifies them.
    func testLongDeltasInRingsAndLines() throws {
        var rng = Rng(seed: 0x6C6F_6E67_0000_0004)
        func delta() -> Int64 {
            switch rng.below(5) {
            case 0: return Int64(rng.below(1 << 31)) - (1 << 31) + Int64(rng.below(2)) * ((1 << 31) - 1)  // ±2^31
            case 1: return Int64(rng.below(1 << 25)) - (1 << 24)                                            // four bytes
            case 2: return (rng.chance(50) ? 1 : -1) * ((1 << 20) - 2 + Int64(rng.below(5)))              // around ±2^20
            case 3: return Int64(rng.below(1 << 21)) - (1 << 20)                                            // three bytes
            default: return Int64(rng.below(120)) - 60                                                      // one byte
            }
        }
        for iteration in 0..<3000 {
            let type: UInt64 = rng.chance(70) ? 3 : 2
            var v: [UInt64] = []
            for _ in 0..<(1 + rng.below(3)) {
                v.append(9); v.append(Self.zigzag(delta())); v.append(Self.zigzag(delta()))
                let n = 2 + Int(rng.below(rng.chance(20) ? 150 : 30))
                v.append(UInt64(n) << 3 | 2)
                for _ in 0..<n { v.append(Self.zigzag(delta())); v.append(Self.zigzag(delta())) }
                if type == 3 { v.append(15) }
            }
            let bytes = Self.encode(v, &rng)
            var f = PBFWriter()
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(type)
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            let expected = Self.referenceGeometry(type: type, bytes: bytes, strict: false)
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                var rec = Recorder()
                var fails = false
                do { try feature.decodeGeometry(into: &rec, mode: .tolerant) } catch { fails = true }
                XCTAssertEqual(fails, expected.fails, "iteration \(iteration)")
                XCTAssertEqual(rec.events, expected.events, "iteration \(iteration)")
                if rec.events != expected.events { throw ReferenceError() }
            }
        }
    }

    /// POINT coordinates and the MoveTo that starts a ring or a line part are read with
    /// values of up to three bytes inline. A varint cut at the record's end must be
    /// reported as truncated at its own offset (P1, P4), even when the bytes after the
    /// record (here a tags record) would complete it: nothing past the record is part of
    /// the geometry.
    func testMoveToCutAtTheRecordsEndIsTruncatedThere() {
        // (geometry bytes, index of the cut varint within them)
        let cases: [([UInt8], Int)] = [
            ([9, 0x80, 0x80], 1),          // x cut after two continuation bytes
            ([9, 0x80], 1),                // x cut after one
            ([9, 4, 0x80, 0x80], 2),       // y cut after two
            ([9, 0x81, 0x80, 0x01, 0x80, 0x80], 4),  // a three-byte x, then y cut
        ]
        for type: UInt64 in [1, 2, 3] {
            for (geometry, cut) in cases {
                var f = PBFWriter()
                f.writeKey(field: 3, wireType: .varint); f.writeVarint(type)
                f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(geometry)
                let geometryStart = f.bytes.count - geometry.count
                // Bytes below 0x80 right after the record.
                f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited([1, 1])
                f.bytes.withUnsafeBytes { raw in
                    let feature = Feature(PBFReader(bytes: raw), keyCount: 2, valueCount: 2)
                    var rec = Recorder()
                    for mode in [GeometryMode.strict, .tolerant] {
                        do throws(MVTError) {
                            try feature.decodeGeometry(into: &rec, mode: mode)
                            XCTFail("type \(type), \(geometry): decoded")
                        } catch {
                            XCTAssertEqual(error, .malformed(.truncated(offset: geometryStart + cut)), "type \(type), \(geometry)")
                        }
                    }
                    XCTAssertEqual(rec.events, [], "type \(type), \(geometry)")
                }
            }
        }
    }

    /// Ring areas are taken relative to each ring's first vertex, so a small ring far from
    /// the origin is classified by its exact area. Here thousands of small triangles, of
    /// either winding and some with several vertices, are moved out to about ±2^44 by
    /// their MoveTo steps; in tile coordinates their shoelace terms would be near 2^88.
    func testSmallRingsFarFromTheOriginKeepTheirExactKind() throws {
        var rng = Rng(seed: 0x6661_7200_0000_0003)
        for iteration in 0..<4 {
            let sx: Int64 = iteration & 1 == 0 ? 1 : -1, sy: Int64 = iteration & 2 == 0 ? 1 : -1
            var v: [UInt64] = []
            for r in 0..<(1 << 13) {
                v.append(9)
                let step = Int64(1 << 31) - 1 - Int64(rng.below(1 << 20))
                v.append(Self.zigzag(sx * step)); v.append(Self.zigzag(sy * step))
                // A triangle of legs a and b, either winding, as two or three LineTo pairs
                // (the third repeats nothing: it splits the last edge). The first ring is
                // always the exterior one.
                let a = 1 + Int64(rng.below(r % 3 == 0 ? 3 : 9000)), b = 1 + Int64(rng.below(9000))
                let flip: Int64 = r == 0 || rng.chance(50) ? 1 : -1
                let half = b / 2
                var legs: [(Int64, Int64)] = [(a, 0)]
                if rng.chance(30) && half > 0 {
                    legs.append((-a, flip * half))
                    legs.append((0, flip * (b - half)))
                } else {
                    legs.append((-a, flip * b))
                }
                v.append(UInt64(legs.count) << 3 | 2)
                for (dx, dy) in legs { v.append(Self.zigzag(dx)); v.append(Self.zigzag(dy)) }
                v.append(15)
            }
            let bytes = Self.encode(v, &rng)
            var f = PBFWriter()
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(3)
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            let expected = Self.referenceGeometry(type: 3, bytes: bytes, strict: false)
            XCTAssertFalse(expected.fails)
            XCTAssertEqual(expected.events.filter { $0 == .ringEnd(.interior) }.count > 1000, true)
            f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                var rec = Recorder()
                var fails = false
                do { try feature.decodeGeometry(into: &rec, mode: .tolerant) } catch { fails = true }
                XCTAssertFalse(fails, "iteration \(iteration)")
                XCTAssertEqual(rec.events.count, expected.events.count, "iteration \(iteration)")
                let wrong = zip(rec.events, expected.events).filter { $0 != $1 }.count
                XCTAssertEqual(wrong, 0, "iteration \(iteration)")
            }
        }
    }

    /// `_fiveInARow`, which lets the line-pair check leave a varint of ten bytes or more to
    /// the decoding loop (P1), against its definition on every pattern of eight flag bytes.
    func testFiveInARowOnEveryPattern() {
        for pattern in 0..<256 {
            var flags: UInt64 = 0
            for i in 0..<8 where pattern >> i & 1 == 1 { flags |= 0x80 << (8 * UInt64(i)) }
            let run = (0...3).contains { k in (k..<(k + 5)).allSatisfy { pattern >> $0 & 1 == 1 } }
            XCTAssertEqual(_fiveInARow(flags) != 0, run, "pattern \(String(pattern, radix: 2))")
        }
    }

    /// A ring's raw loop sums its short steps in blocks with wrapping arithmetic, which is
    /// exact only while the cursor stays near the ring's first vertex (§4.3.4.4, D4). Here
    /// 12,600 steps of 2^31 − 1 (taken one by one, checked) carry the cursor some 2.7·10^13
    /// out, then 64 short steps follow, whose terms together pass 2^63: summed in a block
    /// they would wrap and flip the ring's kind. The ring must be classified as the 128-bit
    /// reference classifies it, in either winding (an interior ring after a small exterior).
    func testShortStepsFarOutAfterLongStepsKeepTheRingsKind() throws {
        for winding: Int64 in [1, -1] {
            var v: [UInt64] = []
            if winding < 0 { v += [9, 0, 0, 26, 2, 0, 0, 2, 1, 0, 15] }   // a 1×1 exterior square
            let long = 12_600, short = 64
            v.append(9); v.append(0); v.append(0)
            v.append(UInt64(2 * long + short) << 3 | 2)
            for _ in 0..<long { v.append(Self.zigzag((1 << 31) - 1)); v.append(0) }
            for _ in 0..<short { v.append(0); v.append(Self.zigzag(winding * 4000)) }
            for _ in 0..<long { v.append(Self.zigzag(-((1 << 31) - 1))); v.append(0) }
            v.append(15)
            let bytes = v.flatMap { Self.varint($0, length: 1) }
            var f = PBFWriter()
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(3)
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited(bytes)
            let expected = Self.referenceGeometry(type: 3, bytes: bytes, strict: false)
            XCTAssertFalse(expected.fails)
            XCTAssertEqual(expected.events.last, .ringEnd(winding > 0 ? .exterior : .interior))
            f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: 0, valueCount: 0)
                for mode in [GeometryMode.strict, .tolerant] {
                    var rec = Recorder()
                    var fails = false
                    do { try feature.decodeGeometry(into: &rec, mode: mode) } catch { fails = true }
                    XCTAssertFalse(fails, "winding \(winding), \(mode)")
                    XCTAssertEqual(rec.events.count, expected.events.count, "winding \(winding), \(mode)")
                    XCTAssertEqual(rec.events.last, expected.events.last, "winding \(winding), \(mode)")
                }
            }
        }
    }

    /// A layer value as the reference reads it (strings as their bytes, floats as bits).
    enum RefValue: Equatable {
        case string([UInt8]), float(UInt32), double(UInt64), int(Int64), uint(UInt64), sint(Int64), bool(Bool)

        init(_ v: MVTValue) {
            switch v {
            case .string(let b): self = .string(Array(b))
            case .float(let f): self = .float(f.bitPattern)
            case .double(let d): self = .double(d.bitPattern)
            case .int(let i): self = .int(i)
            case .uint(let u): self = .uint(u)
            case .sint(let i): self = .sint(i)
            case .bool(let b): self = .bool(b)
            }
        }
    }

    /// A Value message per §4.1 and protobuf: typed fields 1–7 with their wire types, the
    /// last one winning (P8); no typed field, an unknown field or a wrong wire type makes it
    /// invalid (A10, P5).
    static func referenceValue(_ bytes: [UInt8]) -> RefValue? {
        var i = 0
        var value: RefValue?
        func varint() -> UInt64? {
            var v: UInt64 = 0
            var n = 0
            while true {
                guard i < bytes.count, n < 10 else { return nil }
                let b = bytes[i]
                if n == 9 && b > 1 { return nil }
                v |= UInt64(b & 0x7F) << (7 * UInt64(n))
                i += 1; n += 1
                if b < 0x80 { return v }
            }
        }
        func fixed(_ count: Int) -> UInt64? {
            guard i + count <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<count { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            i += count
            return v
        }
        while i < bytes.count {
            guard let key = varint() else { return nil }
            switch (key >> 3, key & 7) {
            case (1, 2):
                guard let length = varint(), length <= UInt64(bytes.count - i) else { return nil }
                value = .string(Array(bytes[i..<(i + Int(length))]))
                i += Int(length)
            case (2, 5): guard let v = fixed(4) else { return nil }; value = .float(UInt32(v))
            case (3, 1): guard let v = fixed(8) else { return nil }; value = .double(v)
            case (4, 0): guard let v = varint() else { return nil }; value = .int(Int64(bitPattern: v))
            case (5, 0): guard let v = varint() else { return nil }; value = .uint(v)
            case (6, 0): guard let v = varint() else { return nil }; value = .sint(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1))
            case (7, 0): guard let v = varint() else { return nil }; value = .bool(v != 0)
            default: return nil
            }
        }
        return value
    }

    /// Layers whose keys and values are read by the raw scans (and, past 1,024 of them, by
    /// the second scan into a buffer of the counted size) must hold exactly what a plain
    /// reading of the wire format gives: every key, every value of every type and length,
    /// in order, interleaved with features or not; a broken value is an error.
    func testLayerTablesMatchReference() throws {
        var rng = Rng(seed: 0x7461_626C_6573_0004)
        for iteration in 0..<300 {
            let large = rng.chance(40)
            let tableCount = large ? 1000 + Int(rng.below(2500)) : Int(rng.below(40))
            let interleaved = rng.chance(50)
            let broken = rng.chance(15)
            var expectedKeys: [[UInt8]] = []
            var expectedValues: [RefValue] = []
            var valid = true
            var w = PBFWriter()
            w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
            w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("layer".utf8))
            w.writeKey(field: 5, wireType: .varint); w.writeVarint(4096)
            // Features carry their position as id, and some are written with a two-byte
            // field key, so the feature walk's raw and checked paths are both compared.
            var expectedIDs: [UInt64] = []
            func feature() {
                let id = UInt64(expectedIDs.count)
                expectedIDs.append(id)
                if rng.chance(4) { w.writeRaw([0x92, 0x00]) } else { w.writeKey(field: 2, wireType: .lengthDelimited) }
                var f = PBFWriter()
                f.writeKey(field: 1, wireType: .varint); f.writeVarint(id)
                f.writeRaw([0x18, 1, 0x22, 3, 9, 2, 2])
                w.writeLengthDelimited(f.bytes)
            }
            if !interleaved { for _ in 0..<(1 + rng.below(5)) { feature() } }
            for t in 0..<tableCount {
                if interleaved && rng.chance(20) { feature() }
                // Now and then an unknown field between the tables, or a key or value record
                // whose field key is written in two bytes (a valid varint, P1): both leave
                // the raw record scan for the checked reader.
                if rng.chance(3) { w.writeKey(field: 9, wireType: .varint); w.writeVarint(rng.below(300)) }
                let longKey = rng.chance(4)
                if rng.chance(15) {
                    let key = (0..<rng.below(12)).map { _ in UInt8(97 + rng.below(26)) }
                    if longKey { w.writeRaw([0x9A, 0x00]) } else { w.writeKey(field: 3, wireType: .lengthDelimited) }
                    w.writeLengthDelimited(key)
                    expectedKeys.append(key)
                    continue
                }
                var v = PBFWriter()
                let lengths: [Int] = [1, 1, 2, 3, 5, 7, 9, 10]
                let bits = UInt64(7 * lengths[Int(rng.below(UInt64(lengths.count)))])
                let x = bits >= 64 ? rng.next() : rng.next() & ((1 << bits) - 1)
                var tail: [UInt8] = []
                switch rng.below(7) {
                case 0:
                    // Now and then a message of 128 bytes or more, whose length takes two bytes.
                    let str = (0..<(rng.chance(8) ? 120 + rng.below(200) : rng.below(30))).map { _ in UInt8(rng.below(256)) }
                    v.writeKey(field: 1, wireType: .lengthDelimited); v.writeLengthDelimited(str)
                case 1: v.writeKey(field: 2, wireType: .fixed32); v.writeFixed32(UInt32(truncatingIfNeeded: x))
                case 2: v.writeKey(field: 3, wireType: .fixed64); v.writeFixed64(x)
                default:
                    // int, uint, sint or bool, minimal or overlong (P2).
                    v.writeKey(field: UInt32(rng.below(4) + 4), wireType: .varint)
                    let minimal = Self.varint(x, length: 1).count
                    tail = Self.varint(x, length: rng.chance(10) ? min(10, minimal + Int(rng.below(3))) : minimal)
                }
                var bytes = v.bytes + tail
                if rng.chance(3) {
                    // Two typed fields: the last wins.
                    var extra = PBFWriter()
                    extra.writeKey(field: 7, wireType: .varint); extra.writeVarint(rng.below(3))
                    bytes += extra.bytes
                }
                if broken && t == tableCount / 2 {
                    // A wrong wire type, a cut message, an empty one or an unknown field.
                    switch rng.below(4) {
                    case 0: bytes[0] = bytes[0] & ~7 | 5
                    case 1: bytes.removeLast()
                    case 2: bytes = []
                    default: bytes += [0x48, 1]
                    }
                }
                if longKey { w.writeRaw([0xA2, 0x00]) } else { w.writeKey(field: 4, wireType: .lengthDelimited) }
                w.writeLengthDelimited(bytes)
                if let value = Self.referenceValue(bytes) { expectedValues.append(value) } else { valid = false }
            }
            if interleaved { feature() }
            var t = PBFWriter()
            t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
            try t.bytes.withUnsafeBytes { raw in
                let result: Result<[Layer], MVTError>
                do throws(MVTError) { result = .success(try VectorTile(bytes: raw).layers()) } catch { result = .failure(error) }
                switch result {
                case .failure(let error):
                    XCTAssertFalse(valid, "iteration \(iteration): \(error)")
                case .success(let layers):
                    XCTAssertTrue(valid, "iteration \(iteration)")
                    guard valid else { throw ReferenceError() }
                    let layer = layers[0]
                    XCTAssertEqual(layer.keys.map { Array($0) }, expectedKeys, "iteration \(iteration)")
                    XCTAssertEqual(layer.values.count, expectedValues.count, "iteration \(iteration)")
                    let wrong = zip(layer.values, expectedValues).filter { RefValue($0) != $1 }.count
                    XCTAssertEqual(wrong, 0, "iteration \(iteration)")
                    var ids: [UInt64] = []
                    layer.forEachFeature { f in
                        XCTAssertEqual(f.type, .point, "iteration \(iteration)")
                        ids.append(f.id)
                    }
                    XCTAssertEqual(ids, expectedIDs, "iteration \(iteration)")
                    XCTAssertEqual(layer.featureCount, expectedIDs.count, "iteration \(iteration)")
                }
            }
        }
    }

    /// Value messages of one varint field (int, uint, sint, bool: fields 4–7, A9) of every
    /// length from 1 to 10 bytes, minimal or overlong (P2), and broken ones (the last byte
    /// still continued, cut short, a stray byte after it), with any bytes after the message
    /// that the raw loads may see: each reads as the reference reads it, or fails when the
    /// reference finds it invalid.
    func testVarintValuesMatchReference() throws {
        var rng = Rng(seed: 0x7661_6C75_6573_0005)
        for iteration in 0..<20000 {
            let length = 1 + Int(rng.below(10))
            let x = length >= 10 ? rng.next() : rng.next() & ((1 << UInt64(7 * length)) - 1)
            let minimal = Self.varint(x, length: 1)
            var bytes = [UInt8(0x20 + 8 * rng.below(4))] + Self.varint(x, length: max(length, minimal.count))
            switch rng.below(6) {
            case 0: bytes[bytes.count - 1] |= 0x80              // still continued at the end
            case 1: if bytes.count > 2 { bytes.removeLast() }   // cut inside the varint
            case 2: bytes.append(UInt8(rng.below(256)))         // a stray byte after it
            default: break
            }
            let after = (0..<rng.below(12)).map { _ in UInt8(rng.below(256)) }
            let expected = Self.referenceValue(bytes)
            let buffer = bytes + after
            buffer.withUnsafeBytes { raw in
                let view = UnsafeRawBufferPointer(rebasing: raw[0..<bytes.count])
                let got: RefValue?
                do throws(MVTError) {
                    got = RefValue(try MVTValue._read(view, loadable: raw.count, origin: 0))
                } catch {
                    got = nil
                }
                XCTAssertEqual(got, expected, "iteration \(iteration), bytes \(bytes), after \(after)")
            }
        }
    }

    func testTagsMatchReference() throws {
        var rng = Rng(seed: 0x7461_6773_0000_0001)
        for iteration in 0..<6000 {
            // Small tables give one- and two-byte indices; large ones (up to 2^21 entries, as
            // counts only) three-byte ones.
            let keyCount = Int(rng.chance(20) ? rng.below(1 << 21) : rng.below(260))
            let valueCount = Int(rng.chance(30) ? rng.below(1 << 21) : rng.below(260))
            var tags: [UInt64] = []
            for _ in 0..<(rng.below(12) * 2 + (rng.chance(5) ? 1 : 0)) {
                let count = tags.count % 2 == 0 ? keyCount : valueCount
                tags.append(rng.chance(90) ? rng.below(UInt64(max(count, 1)) + 2) : rng.below(1 << 33))
            }
            var bytes = Self.encode(tags, &rng)
            if rng.chance(5), !bytes.isEmpty, bytes.last! < 0x80, bytes.count > 1, bytes[bytes.count - 2] >= 0x80 {
                bytes.removeLast()   // ends inside a varint
            }
            // The tags record first (the raw loads may reach into the fields after it) or
            // last (nothing after it to load).
            var f = PBFWriter()
            let tagsLast = rng.chance(50)
            if !tagsLast { f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(bytes) }
            f.writeKey(field: 3, wireType: .varint); f.writeVarint(1)
            f.writeKey(field: 4, wireType: .lengthDelimited); f.writeLengthDelimited([9, 2, 2])
            if tagsLast { f.writeKey(field: 2, wireType: .lengthDelimited); f.writeLengthDelimited(bytes) }

            let (values, malformed) = Self.referenceValues(bytes)
            var expected: [[Int]] = []
            var expectedFails = false
            var i = 0
            while true {
                if i >= values.count { expectedFails = malformed; break }
                if i + 1 >= values.count { expectedFails = true; break }
                guard Int(values[i]) < keyCount, Int(values[i + 1]) < valueCount else { expectedFails = true; break }
                expected.append([Int(values[i]), Int(values[i + 1])])
                i += 2
            }
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: keyCount, valueCount: valueCount)
                var got: [[Int]] = []
                var fails = false
                do { try feature.forEachTag { got.append([$0, $1]) } } catch { fails = true }
                XCTAssertEqual(got, expected, "iteration \(iteration), keys \(keyCount), values \(valueCount), bytes \(bytes)")
                XCTAssertEqual(fails, expectedFails, "iteration \(iteration), keys \(keyCount), values \(valueCount), bytes \(bytes)")
                if got != expected || fails != expectedFails { throw ReferenceError() }
            }
        }
    }

    enum TagVerdict: Equatable { case ok, malformed, error(MVTError) }

    /// The reference's verdict on a tags record whose bytes start at `payload` in the
    /// message, from B6, B7 and protobuf's varint rules (errors at their offsets in the
    /// message), and the offsets in the record after each whole, valid pair before the first
    /// problem (0 first).
    static func referenceTagVerdict(_ bytes: [UInt8], payload: Int, keyCount: Int, valueCount: Int)
        -> (verdict: TagVerdict, boundaries: [Int])
    {
        let (varints, malformed) = referenceVarints(bytes)
        var boundaries = [0]
        var k = 0
        while k < varints.count {
            if k + 1 == varints.count {
                return (malformed ? .malformed : .error(.oddTagCount(offset: payload + varints[k].offset)), boundaries)
            }
            if Int(varints[k].value) >= keyCount {
                return (.error(.tagIndexOutOfRange(index: varints[k].value, offset: payload + varints[k].offset)), boundaries)
            }
            if Int(varints[k + 1].value) >= valueCount {
                let offset = payload + varints[k + 1].offset
                return (.error(.tagIndexOutOfRange(index: varints[k + 1].value, offset: offset)), boundaries)
            }
            // The pair ends where its value index's varint does.
            var end = varints[k + 1].offset
            while bytes[end] >= 0x80 { end += 1 }
            boundaries.append(end + 1)
            k += 2
        }
        return (malformed ? .malformed : .ok, boundaries)
    }

    /// Whether the validator's `_checkTags` gives `expected` (a malformed varint counted
    /// whatever its error) and the error `forEachTag` gives; asserts both.
    static func tagVerdictsAgree(_ feature: Feature, _ expected: TagVerdict, _ context: String) -> Bool {
        var viaLoops: MVTError? = nil
        do throws(MVTError) { try feature.forEachTag { _, _ in } } catch { viaLoops = error }
        var got = TagVerdict.ok
        var checkError: MVTError? = nil
        do throws(MVTError) { try feature._checkTags { _, _ in } } catch {
            checkError = error
            if case .malformed = error { got = .malformed } else { got = .error(error) }
        }
        XCTAssertEqual(got, expected, context)
        XCTAssertEqual(checkError, viaLoops, context)
        return got == expected && checkError == viaLoops
    }

    /// The validator's tag check (`_checkTags`: eight bytes at a time when both tables have
    /// at most 128 entries) against the reference, written here from B6, B7 and protobuf's
    /// varint rules: the same verdict, the same odd-count (B6) or out-of-range (B7) error at
    /// the same offset, and for malformed varints the same error as `forEachTag`.
    ///
    /// Records of 0 to 40 bytes, mostly one-byte indices just below the tables' counts,
    /// with now and then an index at or past a count, a wide or overlong index, an odd
    /// count or a record cut inside a varint. The record is the last field of the message
    /// (nothing after it to load), the first, or the only one (so that a short record's
    /// last eight bytes would start before the message).
    func testTagCheckMatchesReference() throws {
        var rng = Rng(seed: 0x7461_6763_0000_0001)
        var checked = (fast: 0, errors: 0)
        for iteration in 0..<20000 {
            let keyCount = Int(rng.chance(10) ? 129 + rng.below(300) : rng.below(129))
            let valueCount = Int(rng.chance(10) ? 129 + rng.below(300) : rng.below(129))
            let badPercent: UInt64 = rng.chance(50) ? 0 : 1 + rng.below(4)
            var tags: [UInt64] = []
            for j in 0..<(Int(rng.below(21)) * 2 + (rng.chance(5) ? 1 : 0)) {
                let count = UInt64(j % 2 == 0 ? keyCount : valueCount)
                if rng.chance(badPercent) {
                    tags.append(rng.chance(60) ? count + rng.below(3) : rng.below(1 << 14))
                } else {
                    // The top of the range most often, where an off-by-one would show.
                    tags.append(count == 0 ? 0 : rng.chance(30) ? count - 1 : rng.below(count))
                }
            }
            var bytes = rng.chance(10) ? Self.encode(tags, &rng) : tags.flatMap { Self.varint($0, length: 1) }
            if rng.chance(3), !bytes.isEmpty, bytes.last! < 0x80, bytes.count > 1, bytes[bytes.count - 2] >= 0x80 {
                bytes.removeLast()   // ends inside a varint
            }
            let (f, place, payload) = Self.tagsMessage(bytes, &rng, longerGeometry: false)

            let (expected, _) = Self.referenceTagVerdict(bytes, payload: payload, keyCount: keyCount, valueCount: valueCount)
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: keyCount, valueCount: valueCount)
                let context = "iteration \(iteration), keys \(keyCount), values \(valueCount), place \(place), bytes \(bytes)"
                guard Self.tagVerdictsAgree(feature, expected, context) else { throw ReferenceError() }
            }
            // The eight-byte path's conditions, as `_checkTags` tests them.
            if keyCount | valueCount <= 128 && bytes.count % 2 == 0 && payload + bytes.count >= 8 { checked.fast += 1 }
            if expected != .ok { checked.errors += 1 }
        }
        // The run must have gone through the eight-byte check and found errors often.
        XCTAssertGreaterThan(checked.fast, 8000)
        XCTAssertGreaterThan(checked.errors, 4000)
    }

    /// The validator's 16-byte tag check for large tables (`gr_check_tags`, through
    /// `_checkTagBlocks` and `_checkTags`) against the reference written from B6, B7 and the
    /// varint rules. Tables from 1 to past 2^21 entries, so that indices take one to three
    /// bytes (and the check is skipped past 2^21); indices most often at the top of the range
    /// and where their top digit equals the largest index's, where a wrong digit comparison
    /// would show; now and then one at or past the count, an overlong form, a run of
    /// continuation bytes (a varint of four bytes or more), an odd count or a record cut
    /// inside a varint. The record is the
    /// message's last field, its first (with bytes after it to load), or its only one.
    ///
    /// For each record: `_checkTags` gives the reference's verdict and `forEachTag`'s error;
    /// the block check stops at a pair boundary with no error before it; and on records it
    /// must take whole (valid, canonical, 8 bytes or more, 16 bytes loadable, no index
    /// whose upper digits equal the largest index's) it takes them whole.
    func testTagBlockCheckMatchesReference() throws {
        #if arch(x86_64) || arch(i386)
        var rng = Rng(seed: 0x7461_6762_0000_0002)
        var seen = (whole: 0, stopped: 0, errors: 0, skipped: 0, mustTakeWhole: 0)
        func count(_ r: inout Rng) -> Int {
            switch r.below(8) {
            case 0: return Int(r.below(129))                     // one-byte indices (0: empty)
            case 1, 2, 3: return 129 + Int(r.below(16384 - 128)) // two bytes
            case 4, 5: return 16385 + Int(r.below((1 << 21) - 16384))   // three bytes
            case 6: return [128, 129, 16384, 16385, 1 << 21][Int(r.below(5))]
            default: return r.chance(80) ? 129 + Int(r.below(400)) : (1 << 21) + 1 + Int(r.below(1000))
            }
        }
        for iteration in 0..<30000 {
            let keyCount = count(&rng), valueCount = count(&rng)
            let badPercent: UInt64 = rng.chance(50) ? 0 : 1 + rng.below(3)
            var tags: [UInt64] = []
            var conservative = false   // an index the check may leave to the loops though valid
            for j in 0..<(Int(rng.below(24)) * 2 + (rng.chance(4) ? 1 : 0)) {
                let c = UInt64(j % 2 == 0 ? keyCount : valueCount)
                let v: UInt64
                if rng.chance(badPercent) {
                    v = rng.chance(60) ? c + rng.below(3) : rng.below(1 << 22)
                } else if c == 0 {
                    v = 0
                } else {
                    let m = c - 1
                    switch rng.below(10) {
                    case 0, 1: v = m
                    case 2, 3: v = m - min(m, rng.below(128))           // the top digit often equal
                    case 4: v = m - min(m, rng.below(1 << 14))
                    default: v = rng.below(c)
                    }
                }
                let m = c &- 1
                let length = m < 1 << 7 ? 1 : m < 1 << 14 ? 2 : 3
                if length == 3 && v < c && v >> 14 == m >> 14 && (v >> 7) & 127 >= (m >> 7) & 127 && Self.varint(v, length: 1).count == 3 {
                    conservative = true
                }
                tags.append(v)
            }
            var overlong = rng.chance(10)
            var bytes = overlong ? Self.encode(tags, &rng) : tags.flatMap { Self.varint($0, length: 1) }
            if rng.chance(4) {
                // A run of continuation bytes (a varint of four bytes or more, overlong or too
                // long to read) anywhere in the record, so that a block may hold few ends or
                // none.
                bytes.insert(contentsOf: Array(repeating: UInt8(0x80), count: 3 + Int(rng.below(30))),
                             at: Int(rng.below(UInt64(bytes.count + 1))))
                overlong = true
            }
            if rng.chance(3), bytes.count > 1, bytes.last! < 0x80, bytes[bytes.count - 2] >= 0x80 {
                bytes.removeLast()   // ends inside a varint
            }
            let (f, place, payload) = Self.tagsMessage(bytes, &rng, longerGeometry: true)

            let (expected, boundaries) = Self.referenceTagVerdict(bytes, payload: payload, keyCount: keyCount,
                                                                 valueCount: valueCount)
            try f.bytes.withUnsafeBytes { raw in
                let feature = Feature(PBFReader(bytes: raw), keyCount: keyCount, valueCount: valueCount)
                let context = "iteration \(iteration), keys \(keyCount), values \(valueCount), place \(place), bytes \(bytes)"
                let agree = Self.tagVerdictsAgree(feature, expected, context)

                // The block check alone, where `_checkTagsOnLoops` would call it.
                let loadable = raw.count - payload
                guard keyCount | valueCount > 128, bytes.count >= 8, payload + bytes.count >= 16 || loadable >= 16 else {
                    seen.skipped += 1
                    if !agree { throw ReferenceError() }
                    return
                }
                // With bounds made as the validator makes them for a layer.
                var bounds = _PairBounds(first: UInt32(keyCount), second: UInt32(valueCount))
                let stop = withUnsafePointer(to: &bounds) { feature._checkTagBlocks($0) }
                let validEnd = expected == .ok ? bytes.count : boundaries.last!
                XCTAssertTrue(stop == bytes.count ? expected == .ok : boundaries.contains(stop) && stop <= validEnd,
                              "stopped at \(stop), boundaries \(boundaries), \(context)")
                let lengthsChecked = keyCount >= 1 && valueCount >= 1 && keyCount <= 16384 && valueCount <= 1 << 21
                if expected == .ok && !overlong && !conservative && lengthsChecked {
                    XCTAssertEqual(stop, bytes.count, "a valid record not taken whole, \(context)")
                    seen.mustTakeWhole += 1
                }
                if stop == bytes.count { seen.whole += 1 } else { seen.stopped += 1 }
                if expected != .ok { seen.errors += 1 }
                if !agree { throw ReferenceError() }
            }
        }
        // The block check must have taken many records whole and stopped at many errors.
        XCTAssertGreaterThan(seen.mustTakeWhole, 5000, "\(seen)")
        XCTAssertGreaterThan(seen.whole, 6000, "\(seen)")
        XCTAssertGreaterThan(seen.stopped, 3000, "\(seen)")
        XCTAssertGreaterThan(seen.errors, 3000, "\(seen)")
        #else
        throw XCTSkip("the 16-byte tag check is x86 only; elsewhere the loops run alone")
        #endif
    }

    /// Feature headers with one-byte keys go through the raw scan; others (a multi-byte
    /// key, an unknown field, a wrong wire type, a cut message) through the general one.
    /// Both must agree with the plain wire-format reading.
    func testFeatureScanMatchesWireFormat() throws {
        var rng = Rng(seed: 0x7363_616E_0000_0002)
        for iteration in 0..<4000 {
            var w = PBFWriter()
            var id: UInt64? = nil, type: UInt64? = nil
            var geometryRecords = 0, tagRecords = 0
            var broken = false, unpackedTags = false
            // Half the messages hold each field at most once, in field order (id, tags, type,
            // geometry), so every record is found whole; the rest are random.
            let ordered = rng.chance(50)
            let picks: [UInt64] = ordered
                ? [0, 2, 1, 3].filter { _ in rng.chance(75) }
                : (0..<rng.below(6)).map { _ in rng.below(7) }
            for pick in picks {
                switch pick {
                case 0: let v = rng.next() >> rng.below(64); w.writeKey(field: 1, wireType: .varint); w.writeVarint(v); id = v
                case 1: let v = rng.below(5); w.writeKey(field: 3, wireType: .varint); w.writeVarint(v); type = v
                case 2: w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited([1, 2]); tagRecords += 1
                case 3: w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited([9, 2, 2]); geometryRecords += 1
                case 4: w.writeKey(field: 20, wireType: .varint); w.writeVarint(3)
                case 5: w.writeKey(field: 4, wireType: .fixed32); w.writeFixed32(1); broken = true
                default: w.writeKey(field: 2, wireType: .varint); w.writeVarint(1); tagRecords += 1; unpackedTags = true
                }
                if broken { break }
            }
            var bytes = w.bytes
            var cut = false
            if rng.chance(10), !bytes.isEmpty {
                bytes.removeLast(1 + Int(rng.below(UInt64(bytes.count))))
                cut = true
            }
            try bytes.withUnsafeBytes { raw in
                let f = Feature(PBFReader(bytes: raw), keyCount: 3, valueCount: 3)
                // The scan stops at the first problem; a cut message may keep any prefix of
                // the fields, so only complete messages are compared field by field.
                if !cut {
                    XCTAssertEqual(f.hasID, id != nil, "iteration \(iteration)")
                    XCTAssertEqual(f.id, id ?? 0, "iteration \(iteration)")
                    if !broken {
                        XCTAssertEqual(f.rawType, type, "iteration \(iteration)")
                        XCTAssertEqual(f.geometryRecords, geometryRecords, "iteration \(iteration)")
                        XCTAssertEqual(f.tagRecords, tagRecords, "iteration \(iteration)")
                    }
                    XCTAssertEqual(f.scanError != nil, broken, "iteration \(iteration)")
                    if !broken {
                        // The records' payloads are found where they are.
                        var s = f.geometryStream
                        var values: [UInt32] = []
                        while let v = try? s.next() { values.append(v) }
                        XCTAssertEqual(values, Array(Array(repeating: [UInt32(9), 2, 2], count: geometryRecords).joined()), "iteration \(iteration)")
                        if !unpackedTags {
                            var pairs: [[Int]] = []
                            XCTAssertNoThrow(try f.forEachTag { pairs.append([$0, $1]) }, "iteration \(iteration)")
                            XCTAssertEqual(pairs, Array(repeating: [1, 2], count: tagRecords), "iteration \(iteration)")
                        }
                    }
                }
            }
        }
    }
}
