import GraticuleSupport
import PBF

/// Seeded vector tiles (MVT 2.1) shaped like a street map's: a `poi` layer of points, a
/// `roads` layer of lines and a `buildings` layer of polygons (some with a courtyard hole),
/// each feature with a few properties, keys and values deduplicated per layer (§4.1).
///
/// Written straight with the wire writer, following §4.3: command integers, zigzag deltas
/// from a cursor carried across the feature, exterior rings clockwise on screen (positive
/// area in y-down coordinates) and holes counter-clockwise.
public enum SyntheticTiles {
    /// - Returns: the tiles packed with `TileSet.pack`, and the tile count.
    public static func generate(tiles count: Int, seed: UInt64 = 3) -> (bytes: [UInt8], items: Int) {
        var rng = SplitMix64(seed: seed)
        var tiles: [[UInt8]] = []
        for _ in 0..<count { tiles.append(tile(&rng)) }
        return (TileSet.pack(tiles), count)
    }

    struct LayerBuilder {
        var name: String
        var keys: [String] = []
        var keyIndex: [String: UInt32] = [:]
        var values: [[UInt8]] = []
        var valueIndex: [[UInt8]: UInt32] = [:]
        var features: [[UInt8]] = []

        mutating func key(_ k: String) -> UInt32 {
            if let i = keyIndex[k] { return i }
            keys.append(k); keyIndex[k] = UInt32(keys.count - 1)
            return UInt32(keys.count - 1)
        }

        mutating func value(string s: String) -> UInt32 {
            var w = PBFWriter(); w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array(s.utf8))
            return value(w.bytes)
        }
        mutating func value(int i: Int64) -> UInt32 {
            var w = PBFWriter(); w.writeKey(field: 4, wireType: .varint); w.writeInt64(i)
            return value(w.bytes)
        }
        mutating func value(double d: Double) -> UInt32 {
            var w = PBFWriter(); w.writeKey(field: 3, wireType: .fixed64); w.writeDouble(d)
            return value(w.bytes)
        }
        mutating func value(_ encoded: [UInt8]) -> UInt32 {
            if let i = valueIndex[encoded] { return i }
            values.append(encoded); valueIndex[encoded] = UInt32(values.count - 1)
            return UInt32(values.count - 1)
        }

        mutating func addFeature(id: UInt64, type: UInt64, tags: [UInt32], geometry: [UInt32]) {
            var w = PBFWriter()
            w.writeKey(field: 1, wireType: .varint); w.writeVarint(id)
            var t = PBFWriter(); for v in tags { t.writeVarint(UInt64(v)) }
            w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(t.bytes)
            w.writeKey(field: 3, wireType: .varint); w.writeVarint(type)
            var g = PBFWriter(); for v in geometry { g.writeVarint(UInt64(v)) }
            w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(g.bytes)
            features.append(w.bytes)
        }

        func encoded() -> [UInt8] {
            var w = PBFWriter()
            w.writeKey(field: 15, wireType: .varint); w.writeVarint(2)
            w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array(name.utf8))
            for f in features { w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(f) }
            for k in keys { w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array(k.utf8)) }
            for v in values { w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(v) }
            w.writeKey(field: 5, wireType: .varint); w.writeVarint(4096)
            return w.bytes
        }
    }

    /// Geometry command stream with the §4.3 cursor.
    struct Commands {
        var out: [UInt32] = []
        var x: Int32 = 0, y: Int32 = 0
        mutating func command(_ id: UInt32, _ count: Int) { out.append(id | UInt32(count) << 3) }
        mutating func to(_ nx: Int32, _ ny: Int32) {
            out.append(ZigZag.encode(nx &- x)); out.append(ZigZag.encode(ny &- y))
            x = nx; y = ny
        }
        /// A closed ring; `points` must not repeat the first vertex.
        mutating func ring(_ points: [(Int32, Int32)]) {
            command(1, 1); to(points[0].0, points[0].1)
            command(2, points.count - 1)
            for p in points.dropFirst() { to(p.0, p.1) }
            command(7, 1)
        }
    }

    /// One tile for z/x/y, seeded from (seed, z, x, y) so every tile is the same whatever
    /// order tiles are made in. `density` scales the feature counts (1 = a dense city tile of
    /// 240–510 features; 0.05 gives 12–25).
    public static func tile(z: Int, x: Int, y: Int, seed: UInt64 = 3, density: Double = 1) -> [UInt8] {
        var h = seed &* 0x9E37_79B9_7F4A_7C15
        for v in [UInt64(z), UInt64(x), UInt64(y)] { h = (h ^ v) &* 0xBF58_476D_1CE4_E5B9; h ^= h >> 31 }
        var rng = SplitMix64(seed: h)
        return tile(&rng, density: density)
    }

    static func tile(_ rng: inout SplitMix64, density: Double = 1) -> [UInt8] {
        func scaled(_ n: Int) -> Int { density == 1 ? n : max(1, Int(Double(n) * density)) }
        func coord(_ lo: Int, _ hi: Int) -> Int32 { Int32(lo + rng.below(hi - lo)) }
        var poi = LayerBuilder(name: "poi")
        let classes = ["cafe", "school", "park", "fuel", "bank", "shop", "pharmacy"]
        for i in 0..<scaled(80 + rng.below(120)) {
            var c = Commands()
            c.command(1, 1); c.to(coord(0, 4096), coord(0, 4096))
            let cls = classes[rng.below(classes.count)]
            let tags = [poi.key("class"), poi.value(string: cls), poi.key("name"),
                        poi.value(string: "\(cls) \(rng.below(500))"), poi.key("rank"),
                        poi.value(int: Int64(rng.below(10)))]
            poi.addFeature(id: UInt64(i + 1), type: 1, tags: tags, geometry: c.out)
        }
        var roads = LayerBuilder(name: "roads")
        let kinds = ["motorway", "primary", "secondary", "residential", "service", "path"]
        for i in 0..<scaled(60 + rng.below(80)) {
            var c = Commands()
            let n = 2 + rng.below(40)
            c.command(1, 1); c.to(coord(-64, 4160), coord(-64, 4160))
            c.command(2, n - 1)
            var px = c.x, py = c.y
            for _ in 1..<n {
                var dx = Int32(rng.normal() * 60)
                let dy = Int32(rng.normal() * 60)
                if dx == 0 && dy == 0 { dx = 1 }   // §4.3.3.2: no zero-length LineTo
                px &+= dx; py &+= dy
                c.to(px, py)
            }
            let tags = [roads.key("class"), roads.value(string: kinds[rng.below(kinds.count)]),
                        roads.key("lanes"), roads.value(int: Int64(1 + rng.below(4)))]
            roads.addFeature(id: UInt64(i + 1), type: 2, tags: tags, geometry: c.out)
        }
        var buildings = LayerBuilder(name: "buildings")
        for i in 0..<scaled(100 + rng.below(150)) {
            var c = Commands()
            let x0 = coord(0, 4000), y0 = coord(0, 4000)
            let w = Int32(20 + rng.below(80)), h = Int32(20 + rng.below(80))
            // Clockwise on screen (y down): positive area, an exterior ring (§4.3.4.4).
            c.ring([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])
            if w > 60 && h > 60 {
                // Courtyard: counter-clockwise, an interior ring.
                c.ring([(x0 + 20, y0 + 20), (x0 + 20, y0 + h - 20), (x0 + w - 20, y0 + h - 20), (x0 + w - 20, y0 + 20)])
            }
            let tags = [buildings.key("height"), buildings.value(double: Double(3 + rng.below(40)) + 0.5)]
            buildings.addFeature(id: UInt64(i + 1), type: 3, tags: tags, geometry: c.out)
        }
        var w = PBFWriter()
        for l in [poi, roads, buildings] {
            w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(l.encoded())
        }
        return w.bytes
    }
}

/// A container for several tiles in one dataset: each tile preceded by its length as a
/// protobuf varint.
public enum TileSet {
    public static func pack(_ tiles: [[UInt8]]) -> [UInt8] {
        var w = PBFWriter()
        for t in tiles { w.writeLengthDelimited(t) }
        return w.bytes
    }

    /// The byte ranges of the tiles in a container.
    public static func unpack(_ bytes: [UInt8]) throws -> [Range<Int>] {
        try bytes.withUnsafeBytes { raw in
            var r = PBFReader(bytes: raw)
            var out: [Range<Int>] = []
            while !r.isAtEnd {
                let sub = try r.readLengthDelimited()
                out.append(sub.absoluteStart..<(sub.absoluteStart + sub.bytes.count))
            }
            return out
        }
    }
}
