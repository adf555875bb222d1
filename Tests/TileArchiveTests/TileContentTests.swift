import XCTest
@testable import TileArchive

/// Image formats and dimensions told from tile bytes (PM21), on headers written here byte by
/// byte from each format's layout, and metadata read as the PMTiles specification's §5 asks.
final class TileContentTests: XCTestCase {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }

    func png(_ w: Int, _ h: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(w) + be32(h) + [8, 6, 0, 0, 0] + be32(0)
    }

    func webp(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le(4 + 8 + payload.count, 4) + Array("WEBP".utf8) + Array(chunk.utf8) + le(payload.count, 4) + payload
    }

    func box(_ type: String, _ content: [UInt8]) -> [UInt8] { be32(8 + content.count) + Array(type.utf8) + content }

    func testFormatsAndSizes() {
        XCTAssertEqual(TileContent.format(of: png(256, 256)), .png)
        XCTAssertEqual(TileContent.imageSize(png(512, 256)), TileContent.Size(width: 512, height: 256))
        // JPEG: SOI, an APP0 segment of 16 bytes, then SOF0 with height 240, width 320.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0, count: 14)
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0xF0, 0x01, 0x40, 0x03] + Array(repeating: 0, count: 9)
        XCTAssertEqual(TileContent.format(of: jpeg), .jpeg)
        XCTAssertEqual(TileContent.imageSize(jpeg), TileContent.Size(width: 320, height: 240))
        // A DHT segment (C4) is not a frame and is skipped.
        let jpegDHT: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x04, 0x00, 0x00] + [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0x00, 0x02, 0x00]
        XCTAssertEqual(TileContent.imageSize(jpegDHT), TileContent.Size(width: 512, height: 256))
        // WebP lossy: frame tag, start code, 14-bit width and height.
        let lossy = webp("VP8 ", [0, 0, 0, 0x9D, 0x01, 0x2A] + le(256, 2) + le(128, 2))
        XCTAssertEqual(TileContent.format(of: lossy), .webp)
        XCTAssertEqual(TileContent.imageSize(lossy), TileContent.Size(width: 256, height: 128))
        // WebP lossless: 0x2F, then width − 1 and height − 1 in 14 bits each.
        let lossless = webp("VP8L", [0x2F] + le(255 | (511 << 14), 4))
        XCTAssertEqual(TileContent.imageSize(lossless), TileContent.Size(width: 256, height: 512))
        // WebP extended: flags, then 24-bit width − 1 and height − 1.
        let extended = webp("VP8X", [0, 0, 0, 0] + le(511, 3) + le(511, 3))
        XCTAssertEqual(TileContent.imageSize(extended), TileContent.Size(width: 512, height: 512))
        // AVIF: ftyp, then meta (a full box) → iprp → ipco → ispe (full box: width, height).
        let ispe = box("ispe", [0, 0, 0, 0] + be32(256) + be32(256))
        let avif = box("ftyp", Array("avif".utf8) + be32(0) + Array("mif1".utf8))
            + box("meta", [0, 0, 0, 0] + box("hdlr", Array(repeating: 0, count: 20)) + box("iprp", box("ipco", box("colr", [1, 2]) + ispe)))
        XCTAssertEqual(TileContent.format(of: avif), .avif)
        XCTAssertEqual(TileContent.imageSize(avif), TileContent.Size(width: 256, height: 256))
        XCTAssertEqual(TileContent.format(of: [0x1F, 0x8B, 8, 0]), .gzip)
        XCTAssertEqual(TileContent.format(of: [0x28, 0xB5, 0x2F, 0xFD, 0]), .zstd)
        XCTAssertEqual(TileContent.format(of: [0x1A, 0x02, 0x78, 0x02]), .other)
        XCTAssertEqual(TileContent.format(of: []), .other)
    }

    /// Every prefix of every header, and every single-byte change, gives a size or nil,
    /// never a trap or a read past the buffer.
    func testCutAndDamagedHeadersNeverTrap() {
        let samples = [png(256, 256), webp("VP8L", [0x2F] + le(255 | (255 << 14), 4)), webp("VP8X", [0, 0, 0, 0] + le(9, 3) + le(9, 3)),
                       box("ftyp", Array("avif".utf8)) + box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", box("ispe", [0, 0, 0, 0] + be32(1) + be32(1)))))]
        var rng = SystemRandomNumberGenerator()
        for s in samples {
            for n in 0..<s.count { _ = TileContent.imageSize(Array(s.prefix(n))) }
            XCTAssertNil(TileContent.imageSize(Array(s.prefix(12))))
            for _ in 0..<500 {
                var m = s
                m[Int.random(in: 0..<m.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                _ = TileContent.imageSize(m)
            }
        }
        // A box size that points past the buffer, and a JPEG whose segment length runs out.
        XCTAssertNil(TileContent.imageSize(box("ftyp", Array("avif".utf8)) + be32(1000) + Array("meta".utf8)))
        XCTAssertNil(TileContent.imageSize([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF]))
    }

    func testMetadataRules() {
        func problems(_ s: String, vector: Bool = true) -> [String] {
            ArchiveMetadata(text: Array(s.utf8), vector: vector).problems.map(\.rule)
        }
        XCTAssertEqual(problems(#"{"vector_layers":[{"id":"a","fields":{"x":"Number"}}]}"#), [])
        XCTAssertEqual(problems(""), ["PM18"])
        XCTAssertEqual(problems("[]"), ["PM18"])
        XCTAssertEqual(problems(#"{"name":"#), ["PM18"])
        XCTAssertEqual(problems("{}"), ["PM19"])
        XCTAssertEqual(problems("{}", vector: false), [])
        XCTAssertEqual(problems(#"{"vector_layers":[{"fields":{}}]}"#), ["PM19"])
        XCTAssertEqual(problems(#"{"vector_layers":[{"id":"a","fields":[]}]}"#), ["PM19"])
        XCTAssertEqual(problems(#"{"name":1,"type":"overlay","version":"1.2.3-rc.1+b.5"}"#, vector: false), ["PM20"])
        XCTAssertEqual(problems(#"{"type":"base"}"#, vector: false), ["PM20"])
        let m = ArchiveMetadata(text: Array(#"{"name":"n","attribution":"© x","vector_layers":[{"id":"a","fields":{"k":"String","v":"Number"}}]}"#.utf8), vector: true)
        XCTAssertEqual(m.name, "n")
        XCTAssertEqual(m.attribution, "© x")
        XCTAssertEqual(m.vectorLayers, [ArchiveMetadata.VectorLayer(id: "a", fields: ["k", "v"])])
        let located = ArchiveMetadata(text: Array("{\n  \"a\": tru }".utf8), vector: false).problems
        XCTAssertEqual(located.first?.offset, 12, "the space that ends `tru`")
        XCTAssertTrue(located.first?.message.contains("line 2") == true, "\(located)")
    }

    /// Semantic Versioning 2.0.0 §2, §9, §10 examples and counter-examples.
    func testSemanticVersions() {
        for good in ["0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0-x.7.z.92",
                     "1.0.0-alpha+001", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.0.0-alpha-a.b-c"] {
            XCTAssertTrue(ArchiveMetadata.isSemanticVersion(good), good)
        }
        for bad in ["2", "1.2", "01.2.3", "1.02.3", "1.2.3-", "1.2.3-01", "1.2.3+", "1.2.3-a..b", "v1.2.3", "1.2.3.4", "1.2.3-α"] {
            XCTAssertFalse(ArchiveMetadata.isSemanticVersion(bad), bad)
        }
    }

    func testDegrees() {
        XCTAssertEqual(PMTiles.degrees(-850_511_287), "-85.0511287")
        XCTAssertEqual(PMTiles.degrees(1_800_000_000), "180")
        XCTAssertEqual(PMTiles.degrees(-5_000_000), "-0.5")
        XCTAssertEqual(PMTiles.degrees(10), "0.000001")
    }
}
