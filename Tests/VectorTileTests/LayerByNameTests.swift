import PBF
import XCTest
@testable import VectorTile

/// Reading one source layer of a tile by name: the layers a style asks for by their
/// `source-layer`, every other layer passed over unread (layers are self-contained, A13).
final class LayerByNameTests: XCTestCase {
    func names(_ bytes: [UInt8], _ name: String) throws -> [(name: String, features: Int, keys: [String])] {
        try bytes.withUnsafeBytes { raw in
            var out: [(name: String, features: Int, keys: [String])] = []
            try VectorTile(bytes: raw).forEachLayer(named: name, storage: LayerStorage()) { l in
                out.append((l.name, l.featureCount, l.keys.map { String(decoding: $0, as: UTF8.self) }))
            }
            return out
        }
    }

    /// The layers with the name, in tile order and decoded as `layers()` decodes them;
    /// none for a name the tile does not have (names compare byte for byte).
    func testMatchesTheLayersOfThatName() throws {
        var roads = TileBuilder.LayerSpec(); roads.name = "roads"; roads.keys = ["class"]
        roads.features = [.init(), .init()]
        var water = TileBuilder.LayerSpec(); water.name = "water"; water.keys = ["kind"]
        var roads2 = TileBuilder.LayerSpec(); roads2.name = "roads"; roads2.keys = ["ref"]
        roads2.features = [.init(), .init(), .init()]
        var accented = TileBuilder.LayerSpec(); accented.name = "rou\u{0308}te"
        let tile = TileBuilder.tile([roads, water, roads2, accented])
        let found = try names(tile, "roads")
        XCTAssertEqual(found.map(\.name), ["roads", "roads"])
        XCTAssertEqual(found.map(\.features), [2, 3])
        XCTAssertEqual(found.map(\.keys), [["class"], ["ref"]])
        XCTAssertEqual(try names(tile, "water").map(\.keys), [["kind"]])
        XCTAssertTrue(try names(tile, "Roads").isEmpty)
        XCTAssertTrue(try names(tile, "road").isEmpty)
        // "rou\u{0308}te" and "roüte" are equal Strings but different bytes in the tile.
        XCTAssertTrue(try names(tile, "ro\u{00FC}te").isEmpty)
        XCTAssertEqual(try names(tile, "rou\u{0308}te").count, 1)
    }

    /// A repeated `name` field is read as protobuf reads a repeated scalar: the last wins,
    /// as `Layer.name` does; the name may follow the features.
    func testTheLastNameFieldWins() throws {
        var w = PBFWriter()
        w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("first".utf8))
        w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(TileBuilder.feature(.init()))
        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array("second".utf8))
        var t = PBFWriter()
        t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
        XCTAssertTrue(try names(t.bytes, "first").isEmpty)
        XCTAssertEqual(try names(t.bytes, "second").map(\.name), ["second"])
        let all = try t.bytes.withUnsafeBytes { try VectorTile(bytes: $0).layers().map(\.name) }
        XCTAssertEqual(all, ["second"])
    }

    /// A broken layer of another name is passed over when its fields can still be walked
    /// (its header is not read); a layer whose fields cannot be walked, or a broken layer of
    /// the name asked for, is an error.
    func testErrors() {
        var good = TileBuilder.LayerSpec(); good.name = "good"
        var noVersion = TileBuilder.LayerSpec(); noVersion.name = "other"; noVersion.version = nil
        XCTAssertEqual(try names(TileBuilder.tile([noVersion, good]), "good").count, 1)
        var broken = TileBuilder.LayerSpec(); broken.name = "good"; broken.version = nil
        XCTAssertThrowsError(try names(TileBuilder.tile([broken]), "good"))
        // A layer whose name field has the wrong wire type (P5).
        var w = PBFWriter()
        w.writeKey(field: 1, wireType: .varint); w.writeVarint(3)
        var t = PBFWriter()
        t.writeKey(field: 3, wireType: .lengthDelimited); t.writeLengthDelimited(w.bytes)
        XCTAssertThrowsError(try names(t.bytes, "good"))
        // Cut short (P3).
        XCTAssertThrowsError(try names(TileBuilder.tile([good]) + [0x1A, 0x05, 0x01], "good"))
    }
}
