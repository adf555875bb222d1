import GraticuleSupport
import XCTest
@testable import PBF

/// Varint, zigzag and wire-format tests. Rule ids refer to ../shared/specs/mvt-pbf.md §E.
final class PBFReaderTests: XCTestCase {
    func varints(_ bytes: [UInt8]) throws(PBFError) -> [UInt64] {
        try PBFReader.read(bytes) { (r: inout PBFReader) throws(PBFError) -> [UInt64] in
            var out: [UInt64] = []
            while !r.isAtEnd { out.append(try r.readVarint()) }
            return out
        }
    }

    func error(_ bytes: [UInt8], _ body: (inout PBFReader) throws(PBFError) -> Void) -> PBFError? {
        do throws(PBFError) {
            try PBFReader.read(bytes, body)
            return nil
        } catch { return error }
    }

    /// P1: edge values, encodings worked out by hand (7 bits per byte, low group first).
    func testEdgeValues() throws {
        XCTAssertEqual(try varints([0x00]), [0])
        XCTAssertEqual(try varints([0x7F]), [127])
        XCTAssertEqual(try varints([0x80, 0x01]), [128])
        XCTAssertEqual(try varints([0xFF, 0xFF, 0xFF, 0xFF, 0x07]), [2_147_483_647])
        XCTAssertEqual(try varints([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), [1 << 63])
        XCTAssertEqual(try varints([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]), [UInt64.max])
    }

    /// The same values through the fast path (≥ 10 bytes remain) and the careful path.
    func testFastAndCarefulPathsAgree() throws {
        let padded: [UInt8] = [0xAC, 0x02] + [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(try varints(padded), [300] + [UInt64](repeating: 0, count: 10))
        XCTAssertEqual(try varints([0xAC, 0x02]), [300])
    }

    /// P1: an 11th byte, or a 10th byte above 1, is too long; the offset names its start.
    func testTooLong() {
        let eleven: [UInt8] = [0x05] + [UInt8](repeating: 0x80, count: 10) + [0x01]
        XCTAssertEqual(error(eleven) { r throws(PBFError) in while !r.isAtEnd { _ = try r.readVarint() } },
                       .varintTooLong(offset: 1))
        let tenthTwo: [UInt8] = [UInt8](repeating: 0xFF, count: 9) + [0x02]
        XCTAssertEqual(error(tenthTwo) { r throws(PBFError) in _ = try r.readVarint() }, .varintTooLong(offset: 0))
    }

    /// P2: overlong encodings of up to 10 bytes are accepted.
    func testOverlongAccepted() throws {
        XCTAssertEqual(try varints([0x80, 0x00]), [0])
        XCTAssertEqual(try varints([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), [1])
    }

    /// P3: truncation at every offset of a sample message is an error, never a crash, and
    /// the cursor does not move on error.
    func testTruncationAtEveryOffset() throws {
        var w = PBFWriter()
        w.writeKey(field: 1, wireType: .varint); w.writeVarint(300)
        w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(Array("layer".utf8))
        w.writeKey(field: 3, wireType: .fixed32); w.writeFixed32(0xDEADBEEF)
        w.writeKey(field: 4, wireType: .fixed64); w.writeFixed64(42)
        w.writeKey(field: 5, wireType: .varint); w.writeVarint(UInt64.max)
        let message = w.bytes
        func walk(_ bytes: [UInt8]) throws(PBFError) -> Int {
            try PBFReader.read(bytes) { (r: inout PBFReader) throws(PBFError) -> Int in
                var fields = 0
                while !r.isAtEnd {
                    let (_, wire) = try r.readKey()
                    let before = r.offset
                    do throws(PBFError) { try r.skip(wire) } catch {
                        XCTAssertEqual(r.offset, before, "cursor must not move on error")
                        throw error
                    }
                    fields += 1
                }
                return fields
            }
        }
        XCTAssertEqual(try walk(message), 5)
        for cut in 1..<message.count {
            let prefix = Array(message[..<cut])
            do throws(PBFError) {
                let n = try walk(prefix)
                // A cut can fall exactly between fields.
                XCTAssertLessThan(n, 5)
            } catch {
                switch error {
                case .truncated(let o), .lengthOutOfBounds(_, _, let o):
                    XCTAssertLessThanOrEqual(o, cut)
                default: XCTFail("cut \(cut): unexpected \(error)")
                }
            }
        }
    }

    /// P11: zigzag values from the protobuf encoding documentation.
    func testZigZag() {
        XCTAssertEqual(ZigZag.encode(Int32(0)), 0)
        XCTAssertEqual(ZigZag.encode(Int32(-1)), 1)
        XCTAssertEqual(ZigZag.encode(Int32(1)), 2)
        XCTAssertEqual(ZigZag.encode(Int32(-2)), 3)
        XCTAssertEqual(ZigZag.encode(Int32.max), 0xFFFF_FFFE)
        XCTAssertEqual(ZigZag.encode(Int32.min), 0xFFFF_FFFF)
        XCTAssertEqual(ZigZag.decode(UInt32(0xFFFF_FFFF)), Int32.min)
        XCTAssertEqual(ZigZag.encode(Int64.min), UInt64.max)
        XCTAssertEqual(ZigZag.decode(UInt64.max), Int64.min)
        XCTAssertEqual(ZigZag.decode(UInt64.max - 1), Int64.max)
    }

    /// Property: reader(writer(x)) == x for random values of every width and encoding.
    func testRoundTripProperty() throws {
        var rng = SplitMix64(seed: 0x1234_5678)
        func rnd() -> UInt64 { rng.next() }
        var values: [UInt64] = [0, 1, 127, 128, 16383, 16384, UInt64(UInt32.max), 1 << 63, UInt64.max]
        for _ in 0..<2000 { values.append(rnd() >> (rnd() % 64)) }
        var w = PBFWriter()
        for v in values {
            w.writeVarint(v)
            w.writeSInt64(Int64(bitPattern: v))
            w.writeSInt32(Int32(truncatingIfNeeded: v))
            w.writeFixed32(UInt32(truncatingIfNeeded: v))
            w.writeFixed64(v)
            w.writeDouble(Double(bitPattern: v))
            w.writeInt64(Int64(truncatingIfNeeded: Int32(truncatingIfNeeded: v)))
        }
        try PBFReader.read(w.bytes) { (r: inout PBFReader) throws(PBFError) in
            for v in values {
                XCTAssertEqual(try r.readVarint(), v)
                XCTAssertEqual(try r.readSInt64(), Int64(bitPattern: v))
                XCTAssertEqual(try r.readSInt32(), Int32(truncatingIfNeeded: v))
                XCTAssertEqual(try r.readFixed32(), UInt32(truncatingIfNeeded: v))
                XCTAssertEqual(try r.readFixed64(), v)
                XCTAssertEqual(try r.readDouble().bitPattern, Double(bitPattern: v).bitPattern)
                // P10: int32 negatives are 10-byte varints; the uint32 reading truncates.
                XCTAssertEqual(try r.readUInt32(), UInt32(truncatingIfNeeded: v))
            }
            XCTAssertTrue(r.isAtEnd)
        }
    }

    /// P4, P5: field number 0, keys beyond 32 bits, wire types 6/7 and groups.
    func testKeys() {
        XCTAssertEqual(error([0x00]) { r throws(PBFError) in _ = try r.readKey() }, .invalidFieldNumber(offset: 0))
        XCTAssertEqual(error([0x0E]) { r throws(PBFError) in _ = try r.readKey() }, .invalidWireType(6, offset: 0))
        XCTAssertEqual(error([0x0F]) { r throws(PBFError) in _ = try r.readKey() }, .invalidWireType(7, offset: 0))
        XCTAssertEqual(error([0x0B]) { r throws(PBFError) in _ = try r.readKey() }, .deprecatedGroup(offset: 0))
        XCTAssertEqual(error([0x80, 0x80, 0x80, 0x80, 0x10]) { r throws(PBFError) in _ = try r.readKey() },
                       .invalidFieldNumber(offset: 0))
        XCTAssertNil(error([0xF8, 0xFF, 0xFF, 0xFF, 0x0F]) { r throws(PBFError) in
            let k = try r.readKey()
            XCTAssertEqual(k.field, (1 << 29) - 1)
            XCTAssertEqual(k.wireType, .varint)
        })
    }

    /// P3, P14: lengths are checked against the bytes remaining; sub-readers report
    /// offsets in the whole input; an empty packed field is legal (P15).
    func testLengthDelimited() throws {
        XCTAssertEqual(error([0x05, 0x01, 0x02]) { r throws(PBFError) in _ = try r.readLengthDelimited() },
                       .lengthOutOfBounds(length: 5, remaining: 2, offset: 0))
        XCTAssertEqual(error([0x80, 0x80, 0x80, 0x80, 0x08]) { r throws(PBFError) in _ = try r.readLengthDelimited() },
                       .lengthOutOfBounds(length: 1 << 31, remaining: 0, offset: 0))
        XCTAssertNil(error([0x00]) { r throws(PBFError) in
            var sub = try r.readLengthDelimited()
            var count = 0
            try sub.forEachVarint { _ in count += 1 }
            XCTAssertEqual(count, 0)
        })
        // Packed field [1, 300] starting at byte 1; its truncated inner varint reports an
        // offset in the outer buffer.
        XCTAssertEqual(error([0x00, 0x03, 0x01, 0xAC, 0x82]) { r throws(PBFError) in
            _ = try r.readVarint()
            var sub = try r.readLengthDelimited()
            XCTAssertEqual(try sub.readVarint(), 1)
            _ = try sub.readVarint()
        }, .truncated(offset: 3))
    }

    func testFixedWidthTruncation() {
        XCTAssertEqual(error([1, 2, 3]) { r throws(PBFError) in _ = try r.readFixed32() }, .truncated(offset: 0))
        XCTAssertEqual(error([1, 2, 3, 4, 5, 6, 7]) { r throws(PBFError) in _ = try r.readFixed64() }, .truncated(offset: 0))
        XCTAssertNil(error([0, 0, 0x80, 0x3F]) { r throws(PBFError) in XCTAssertEqual(try r.readFloat(), 1.0) })
    }

    /// Randomised robustness: arbitrary bytes never crash the reader, and every error
    /// offset lies inside the input.
    func testRandomBytesNeverCrash() {
        var state: UInt64 = 99
        for _ in 0..<3000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let n = Int(state >> 58)
            var bytes = [UInt8]()
            for _ in 0..<n {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            if let e = error(bytes, { r throws(PBFError) in
                while !r.isAtEnd {
                    let (_, wire) = try r.readKey()
                    try r.skip(wire)
                }
            }) {
                XCTAssertLessThanOrEqual(e.offset, bytes.count)
            }
        }
    }
}
