import GeoJSON
import GeoModel
import TileArchive
import TileCover
import VectorTile

/// What is in a dataset: counts by geometry type (and by zoom and layer for tiles),
/// vertices and properties per feature, the most common property keys, tile sizes, the
/// coverage at one zoom, and validation findings with their locations. `graticule profile`
/// fills one while it streams a dataset (`profile(path:)`) and writes it as text, CSV, a
/// heat map and an HTML page.
///
/// Memory is bounded: histograms of fixed size, key and layer tables capped, the coverage
/// grid at one zoom, tile sizes as counts by distinct size (`SizeCounts`).
public struct DatasetProfile {
    /// The zoom of the coverage grid.
    public let zoom: Int
    /// How many findings keep their text (all are counted).
    public let keep: Int
    /// The layout read ("MBTiles", "GeoJSON text sequence (RFC 8142)", ...).
    public var format = ""
    public var sourceBytes = 0
    /// Wall-clock seconds and peak resident bytes of the run, set by the caller.
    public var seconds = 0.0
    public var peakResident = 0
    /// Archive metadata worth showing, in order.
    public var metadata: [(String, String)] = []

    public internal(set) var features = 0
    public internal(set) var byType: [String: Int] = [:]
    public internal(set) var vertices = Log2Histogram()
    public internal(set) var properties = Log2Histogram()
    /// Features (or tile layers) per property key, for at most 10,000 distinct keys;
    /// `otherKeys` counts the uses of keys beyond them.
    public var keyCounts: [String: Int] {
        Dictionary(uniqueKeysWithValues: keySlots.lazy.map { ($0.key, self.keyTotals[$0.value]) })
    }
    public internal(set) var otherKeys = 0
    /// Where each counted key's total is in `keyTotals`; `keyNames` holds the keys by
    /// slot, in the order they were first seen.
    var keySlots: [String: Int] = [:]
    var keyTotals: [Int] = []
    var keyNames: [String] = []
    /// The keys of the last feature and their slots (-1: beyond the cap), so that a
    /// feature with the same keys in the same order, the usual case in a collection, costs
    /// a comparison per key instead of a hash lookup.
    var lastKeys: [String] = []
    var lastSlots: [Int] = []
    /// Features per tile of the coverage grid, by `TileID.x << 32 | y`.
    public internal(set) var coverage: [UInt64: Int] = [:]
    /// Tiles above the coverage zoom, not counted in the grid.
    public internal(set) var coverageSkipped = 0
    /// The cover of the feature being counted, and its tile keys (`row << 32 | column`),
    /// reused from feature to feature.
    var cover: TileCoverage.Accumulator?
    var coverKeys: [UInt64] = []

    public internal(set) var tiles = 0
    /// Stored tile sizes by zoom.
    public internal(set) var tileSizes: [Int: SizeCounts] = [:]
    public internal(set) var rawBytes: [Int: Int] = [:]
    public internal(set) var layers: [String: (features: Int, tiles: Int)] = [:]
    /// Tiles that are not decoded as vector tiles, by what they are: `png 256×256`,
    /// `jpeg 512×512`, `mlt (not decoded)`.
    public internal(set) var tileContents: [String: Int] = [:]
    /// The names of `layers` in the order they were first seen.
    var layerOrder: [String] = []

    public internal(set) var errors = 0, warnings = 0
    /// The first `keep` findings, as text.
    public internal(set) var shown: [String] = []
    /// How the part of a sequence file profiled as a shard ended, and its problems
    /// (`profile(path:shard:)` on a GeoJSON sequence); nil otherwise.
    var sequenceShard: ShardSequence?

    public init(zoom: Int, keep: Int) { self.zoom = zoom; self.keep = keep }

    /// Counts a finding and keeps its text while fewer than `keep` are kept. The text is
    /// built only then: a tile of a million findings costs a count each, not a message.
    public mutating func finding(error: Bool, _ text: @autoclosure () -> String) {
        if error { errors += 1 } else { warnings += 1 }
        if shown.count < keep { shown.append((error ? "error: " : "warning: ") + text()) }
    }

    /// The most distinct property keys and layers a profile keeps (memory stays bounded).
    public static let maxKeys = 10_000
    public static let maxLayers = 1000

    /// Adds the profile of the data that follows this profile's, giving exactly what one
    /// profile over both parts in order gives: counts, histograms, coverage and tile sizes
    /// add up; the capped tables take the later part's keys and layers in the order it
    /// first saw them, as one pass would have; the findings kept are the first `keep` of
    /// both in order. Exact because a key or layer beyond the later part's own cap would
    /// have found the table full in one pass too.
    ///
    /// The source fields (`format`, `sourceBytes`, `metadata`, `seconds`, `peakResident`)
    /// are the caller's and are left as they are.
    public mutating func merge(_ later: DatasetProfile) {
        features += later.features
        for (k, v) in later.byType { byType[k, default: 0] += v }
        vertices.merge(later.vertices)
        properties.merge(later.properties)
        for (slot, k) in later.keyNames.enumerated() { add(key: k, count: later.keyTotals[slot]) }
        otherKeys += later.otherKeys
        for (k, v) in later.coverage { coverage[k, default: 0] += v }
        coverageSkipped += later.coverageSkipped
        tiles += later.tiles
        for (z, sizes) in later.tileSizes { tileSizes[z, default: SizeCounts()].merge(sizes) }
        for (z, n) in later.rawBytes { rawBytes[z, default: 0] += n }
        for name in later.layerOrder {
            if let e = later.layers[name] { addLayer(name, features: e.features, tiles: e.tiles) }
        }
        for (k, n) in later.tileContents { tileContents[k, default: 0] += n }
        errors += later.errors
        warnings += later.warnings
        shown += later.shown.prefix(max(0, keep - shown.count))
    }

    /// Counts `count` uses of `k` and returns its slot (-1 when the table is full and `k`
    /// is not in it; the table never shrinks, so such a key stays out).
    @discardableResult
    mutating func add(key k: String, count: Int = 1) -> Int {
        if let slot = keySlots[k] {
            keyTotals[slot] += count
            return slot
        }
        guard keySlots.count < Self.maxKeys else {
            otherKeys += count
            return -1
        }
        keySlots[k] = keyTotals.count
        keyTotals.append(count)
        keyNames.append(k)
        return keyTotals.count - 1
    }

    /// Adds to the layer `name`'s counts; a layer first seen once the table is full is
    /// not counted (the table never shrinks).
    mutating func addLayer(_ name: String, features: Int, tiles: Int) {
        if let mine = layers[name] {
            layers[name] = (mine.features + features, mine.tiles + tiles)
        } else if layers.count < Self.maxLayers {
            layers[name] = (features, tiles)
            layerOrder.append(name)
        }
    }

    /// Counts the keys of one feature's properties.
    mutating func keys(of list: PropertyList) {
        // String equality first compares the strings' storage, which a reader's shared
        // member names make equal; only a different schema pays for the lookups.
        if list.keys == lastKeys {
            for slot in lastSlots {
                if slot >= 0 { keyTotals[slot] += 1 } else { otherKeys += 1 }
            }
            return
        }
        lastSlots.removeAll(keepingCapacity: true)
        for k in list.keys { lastSlots.append(add(key: k)) }
        lastKeys = list.keys
    }

    static func key(_ t: TileID) -> UInt64 { UInt64(t.x) << 32 | UInt64(t.y) }

    /// Adds one feature of a GeoJSON dataset.
    ///
    /// - Parameter f: the feature.
    public mutating func addFeature(_ f: GeoFeature) {
        features += 1
        let props = f.properties?.count ?? 0
        properties.add(props)
        if let p = f.properties { keys(of: p) }
        guard let g = f.geometry else { byType["null", default: 0] += 1; return }
        byType[g.kind.rawValue, default: 0] += 1
        vertices.add(Self.vertexCount(g))
        if cover == nil { cover = TileCoverage.Accumulator(zoom: zoom) }
        cover!.add(g)
        countCover()
    }

    /// Adds every feature of a column batch of a GeoJSON dataset, read from its columns
    /// (no feature is built); the same counts as `addFeature` for each.
    ///
    /// - Parameter b: the batch.
    public mutating func addFeatures(batch b: GeoJSONFeatureBatch) {
        // Column index to key slot for this batch (-2: not looked up yet).
        var columnSlots = [Int](repeating: -2, count: b.columns.count)
        for i in 0..<b.count {
            features += 1
            let members = b.memberOffsets[i]..<b.memberOffsets[i + 1]
            properties.add(members.count)
            for m in members {
                let c = Int(b.memberColumns[m])
                let slot: Int
                if c >= 0 && columnSlots[c] != -2 {
                    slot = columnSlots[c]
                    if slot >= 0 { keyTotals[slot] += 1 } else { otherKeys += 1 }
                } else {
                    slot = add(key: b.memberName(m))
                    if c >= 0 { columnSlots[c] = slot }
                }
            }
            let entries = b.featureGeometryOffsets[i]..<b.featureGeometryOffsets[i + 1]
            guard let first = entries.first, let kind = GeoJSONFeatureBatch.kind(ofCode: b.geometryTypes[first]) else {
                byType["null", default: 0] += 1
                continue
            }
            byType[kind.rawValue, default: 0] += 1
            vertices.add(b.geometryPositionOffsets[entries.upperBound] - b.geometryPositionOffsets[first])
            if cover == nil { cover = TileCoverage.Accumulator(zoom: zoom) }
            for g in entries where b.geometryTypes[g] != 7 { cover!.add(b.flatGeometry(entry: g)) }
            countCover()
        }
    }

    /// Counts one feature in every tile of what `cover` holds, and empties it.
    mutating func countCover() {
        var keys: [UInt64] = []
        swap(&keys, &coverKeys)
        cover?.finish(into: &keys)
        // Row << 32 | column, to the grid's column << 32 | row.
        for k in keys { coverage[k << 32 | k >> 32, default: 0] += 1 }
        swap(&keys, &coverKeys)
    }

    static func vertexCount(_ g: Geometry) -> Int {
        g.kind == .geometryCollection ? g.geometries.reduce(0) { $0 + vertexCount($1) } : g.coordinates.count / max(g.dimensions, 1)
    }

    /// Counts vertices (the other callbacks keep the protocol's empty defaults).
    struct _VertexCounter: GeometryHandler {
        var n = 0
        mutating func point(x: Int64, y: Int64) { n += 1 }
        mutating func linePoint(x: Int64, y: Int64) { n += 1 }
        mutating func ringPoint(x: Int64, y: Int64) { n += 1 }
    }

    /// What an archive says its tiles are (PMTiles header tile type, MBTiles `format`).
    public enum DeclaredContent: Equatable, Sendable {
        /// Mapbox Vector Tiles: decoded and counted by layer and feature.
        case vector
        /// Images of one format: counted by format and dimensions.
        case image(TileContent.Format)
        /// MapLibre Vector Tiles: counted and sized, not decoded.
        case mlt
        /// Nothing declared: images are told from their bytes, anything else is read as MVT.
        case unknown

        /// The content a PMTiles header's tile type declares.
        public init(pmtilesTileType v: UInt8) {
            switch PMTiles.TileType(rawValue: v) {
            case .mvt?: self = .vector
            case .mlt?: self = .mlt
            case let t?: self = t.imageFormat.map { .image($0) } ?? .unknown
            case nil: self = .unknown
            }
        }

        /// The content an MBTiles `format` value declares (`pbf`, `png`, `jpg`, `webp`…).
        public init(mbtilesFormat f: String?) {
            switch f?.lowercased() {
            case "pbf"?, "mvt"?: self = .vector
            case "png"?: self = .image(.png)
            case "jpg"?, "jpeg"?: self = .image(.jpeg)
            case "webp"?: self = .image(.webp)
            case "avif"?: self = .image(.avif)
            case "mlt"?: self = .mlt
            default: self = .unknown
            }
        }

        var name: String {
            switch self {
            case .vector: return "mvt"
            case .image(let f): return f.rawValue
            case .mlt: return "mlt"
            case .unknown: return "unknown"
            }
        }
    }

    /// Adds one tile as stored (gzip-compressed or not, told by its magic), of the content
    /// `declared`: a vector tile is decoded and validated (MVT 2.1) when `validate` is set,
    /// an image counted by format and size, a tile whose bytes contradict `declared` is a
    /// finding (PM21) and counted as what its bytes are.
    public mutating func addTile(_ t: TileID, stored: UnsafeRawBufferPointer, validate: Bool, declared: DeclaredContent = .unknown) {
        tiles += 1
        tileSizes[Int(t.z), default: SizeCounts()].add(UInt32(clamping: stored.count))
        var inflated: [UInt8]?
        if Gzip.isGzip(stored) {
            do { inflated = try Gzip.decompress(stored, limit: 64 << 20) } catch {
                finding(error: true, "tile \(t): \(error)")
                return
            }
        }
        if let inflated { inflated.withUnsafeBytes { addDecodedTile(t, $0, validate: validate, declared: declared) } }
        else { addDecodedTile(t, stored, validate: validate, declared: declared) }
    }

    /// A tile whose stored bytes were decoded by the caller (brotli or zstd archives).
    public mutating func addTile(_ t: TileID, stored: UnsafeRawBufferPointer, decoded: UnsafeRawBufferPointer, validate: Bool,
                                 declared: DeclaredContent = .unknown) {
        tiles += 1
        tileSizes[Int(t.z), default: SizeCounts()].add(UInt32(clamping: stored.count))
        addDecodedTile(t, decoded, validate: validate, declared: declared)
    }

    mutating func addDecodedTile(_ t: TileID, _ raw: UnsafeRawBufferPointer, validate: Bool, declared: DeclaredContent) {
        rawBytes[Int(t.z), default: 0] += raw.count
        if declared == .mlt {
            tileContents["mlt (not decoded)", default: 0] += 1
            return
        }
        let found = TileContent.format(of: raw)
        switch (declared, found) {
        case (.image(let want), _) where found != want:
            finding(error: true, "[PM21] tile \(t): declared \(want), but its bytes are " + (found == .other ? "not an image" : "\(found)"))
            if found == .other { tileContents["\(want) (unreadable)", default: 0] += 1; return }
        case (.vector, .png), (.vector, .jpeg), (.vector, .webp), (.vector, .avif), (.vector, .zstd), (.vector, .gzip):
            finding(error: true, "[PM21] tile \(t): declared mvt, but its bytes are \(found)")
        default:
            break
        }
        switch found {
        case .png, .jpeg, .webp, .avif:
            let size = TileContent.imageSize(raw)
            if size == nil { finding(error: true, "tile \(t): the \(found) header is cut short or gives no dimensions") }
            tileContents["\(found) " + (size.map { "\($0)" } ?? "(no dimensions)"), default: 0] += 1
            return
        case .gzip, .zstd:
            tileContents["\(found) (compressed twice)", default: 0] += 1
            return
        case .other:
            break
        }
        let tile = VectorTile(bytes: raw)
        // One layer's tables at a time, findings counted as they come: the memory of a tile
        // stays that of its largest layer, whatever its number of layers or findings.
        let storage = LayerStorage()
        if validate {
            MVTValidator.validate(tile, storage: storage) { f in
                finding(error: f.severity != .warning, "tile \(t): \(f)")
            }
        }
        var inTile = 0
        tile.forEachReadableLayer(storage: storage, { l in
            addLayer(l.name, features: l.featureCount, tiles: 1)
            for k in l.keys { add(key: String(decoding: k, as: UTF8.self)) }
            l.forEachFeature { (f: Feature) in
                features += 1
                inTile += 1
                let type: String
                switch f.type {
                case .point?: type = "Point"
                case .lineString?: type = "LineString"
                case .polygon?: type = "Polygon"
                default: type = "Unknown"
                }
                byType[type, default: 0] += 1
                var c = _VertexCounter()
                try? f.decodeGeometry(into: &c, mode: .tolerant)
                vertices.add(c.n)
                var tags = 0
                try? f.forEachTag { _, _ in tags += 1 }
                properties.add(tags)
            }
        }, skipped: { f in if !validate { finding(error: true, "tile \(t): \(f)") } })
        if Int(t.z) >= zoom {
            let p = TileID(z: zoom, x: Int(t.x >> (UInt32(t.z) - UInt32(zoom))), y: Int(t.y >> (UInt32(t.z) - UInt32(zoom))))!
            coverage[Self.key(p), default: 0] += inTile
        } else {
            coverageSkipped += 1
        }
    }
}
