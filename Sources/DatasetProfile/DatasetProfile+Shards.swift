import Foundation
import TileArchive

extension DatasetProfile {
    /// The profile of one shard of a dataset (`graticule profile --shard I/N`), as a file
    /// that `init(merging:)` combines with the other shards' into exactly the profile of
    /// one run over the whole dataset. It holds every figure in mergeable form: counts,
    /// histogram buckets, the capped key and layer tables in first-seen order, the
    /// coverage grid, every tile size, and the findings kept.
    public struct Shard: Codable, Equatable, Sendable {
        /// `graticule-profile-shard/1`; a file of another version is refused.
        public var schema: String
        /// What the shard was cut from: the file's name, size and fingerprint.
        public var dataset: ShardDataset
        /// This shard (0-based) and the number of shards.
        public var index: Int
        public var count: Int
        public var zoom: Int
        public var keep: Int
        public var format: String
        public var metadata: [[String]]
        public var seconds: Double
        public var peakResident: Int
        public var features: Int
        public var byType: [String: Int]
        public var vertices: [Int]
        public var properties: [Int]
        public var keyNames: [String]
        public var keyTotals: [Int]
        public var otherKeys: Int
        public var coverage: [[UInt64]]
        public var coverageSkipped: Int
        public var tiles: Int
        public var tileSizes: [String: [UInt32]]
        public var rawBytes: [String: Int]
        public var layers: [ShardLayer]
        public var errors: Int
        public var warnings: Int
        public var shown: [String]

        public static let currentSchema = "graticule-profile-shard/1"
    }

    public struct ShardDataset: Codable, Equatable, Sendable {
        public var name: String
        public var bytes: Int
        /// FNV-1a (64-bit, hex) of the archive's header.
        public var fingerprint: String
    }

    public struct ShardLayer: Codable, Equatable, Sendable {
        public var name: String
        public var features: Int
        public var tiles: Int
    }

    /// Identifies the PMTiles archive at `path`: its name, size and header fingerprint.
    public static func shardDataset(path: String) throws -> ShardDataset {
        let r = try PMTilesReader(path: path)
        let head = try r.read(offset: 0, length: PMTiles.Header.size, section: "header")
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in head { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return ShardDataset(name: (path as NSString).lastPathComponent, bytes: r.fileSize, fingerprint: String(h, radix: 16))
    }

    /// This profile as shard `index` of `count` of `dataset`.
    public func shard(index: Int, count: Int, dataset: ShardDataset) -> Shard {
        func histogram(_ h: Log2Histogram) -> [Int] { h.buckets + [h.count, h.total, h.max] }
        return Shard(schema: Shard.currentSchema, dataset: dataset, index: index, count: count, zoom: zoom, keep: keep,
                     format: format, metadata: metadata.map { [$0.0, $0.1] }, seconds: seconds, peakResident: peakResident,
                     features: features, byType: byType, vertices: histogram(vertices), properties: histogram(properties),
                     keyNames: keyNames, keyTotals: keyTotals, otherKeys: otherKeys,
                     coverage: coverage.sorted { $0.key < $1.key }.map { [$0.key, UInt64($0.value)] },
                     coverageSkipped: coverageSkipped, tiles: tiles,
                     tileSizes: Dictionary(uniqueKeysWithValues: tileSizes.map { ("\($0.key)", $0.value) }),
                     rawBytes: Dictionary(uniqueKeysWithValues: rawBytes.map { ("\($0.key)", $0.value) }),
                     layers: layerOrder.compactMap { n in layers[n].map { ShardLayer(name: n, features: $0.features, tiles: $0.tiles) } },
                     errors: errors, warnings: warnings, shown: shown)
    }

    /// The profile one shard holds, checked for consistency.
    init(shard s: Shard) throws(Failure) {
        func histogram(_ v: [Int], _ what: String) throws(Failure) -> Log2Histogram {
            guard v.count == 68, let h = Log2Histogram(buckets: Array(v[0..<65]), count: v[65], total: v[66], max: v[67]) else {
                throw Failure(description: "shard \(s.index): the \(what) histogram is malformed")
            }
            return h
        }
        guard s.keyNames.count == s.keyTotals.count, Set(s.keyNames).count == s.keyNames.count,
              s.keyNames.count <= Self.maxKeys, s.layers.count <= Self.maxLayers,
              s.metadata.allSatisfy({ $0.count == 2 }), s.coverage.allSatisfy({ $0.count == 2 })
        else { throw Failure(description: "shard \(s.index): malformed tables") }
        self.init(zoom: s.zoom, keep: s.keep)
        format = s.format
        metadata = s.metadata.map { ($0[0], $0[1]) }
        seconds = s.seconds
        peakResident = s.peakResident
        features = s.features
        byType = s.byType
        vertices = try histogram(s.vertices, "vertices")
        properties = try histogram(s.properties, "properties")
        keyNames = s.keyNames
        keyTotals = s.keyTotals
        keySlots = Dictionary(uniqueKeysWithValues: s.keyNames.enumerated().map { ($1, $0) })
        otherKeys = s.otherKeys
        for pair in s.coverage { coverage[pair[0], default: 0] += Int(clamping: pair[1]) }
        coverageSkipped = s.coverageSkipped
        tiles = s.tiles
        for (z, v) in s.tileSizes {
            guard let zi = Int(z) else { throw Failure(description: "shard \(s.index): a zoom is not a number") }
            tileSizes[zi] = v
        }
        for (z, v) in s.rawBytes {
            guard let zi = Int(z) else { throw Failure(description: "shard \(s.index): a zoom is not a number") }
            rawBytes[zi] = v
        }
        for l in s.layers {
            guard layers[l.name] == nil else { throw Failure(description: "shard \(s.index): layer \(l.name) twice") }
            layers[l.name] = (l.features, l.tiles)
            layerOrder.append(l.name)
        }
        errors = s.errors
        warnings = s.warnings
        shown = s.shown
    }

    /// The profile of a whole dataset from the files of all its shards, in any order:
    /// exactly what one run over the dataset gives (`merge(_:)` in shard order). The run's
    /// seconds and peak memory are those of the slowest and largest shard.
    ///
    /// - Throws: `Failure` when the shards are not one complete set: another schema
    ///   version, another dataset (name, size or header fingerprint), another shard count,
    ///   zoom or number of findings kept, a shard missing or given twice, or a malformed
    ///   file.
    public init(merging shards: [Shard]) throws(Failure) {
        guard let first = shards.first else { throw Failure(description: "no shard files to merge") }
        for s in shards {
            guard s.schema == Shard.currentSchema else {
                throw Failure(description: "shard \(s.index): schema \(s.schema), expected \(Shard.currentSchema)")
            }
            guard s.dataset == first.dataset else {
                throw Failure(description: "the shards are of different datasets: \(first.dataset.name) (\(first.dataset.bytes) bytes, "
                    + "header \(first.dataset.fingerprint)) and \(s.dataset.name) (\(s.dataset.bytes) bytes, header \(s.dataset.fingerprint))")
            }
            guard s.count == first.count, s.zoom == first.zoom, s.keep == first.keep else {
                throw Failure(description: "the shards were made with different options: \(first.index)/\(first.count) with zoom "
                    + "\(first.zoom) and \(first.keep) findings kept, \(s.index)/\(s.count) with zoom \(s.zoom) and \(s.keep)")
            }
        }
        let indices = shards.map(\.index).sorted()
        guard indices == Array(0..<first.count) else {
            let missing = Set(0..<first.count).subtracting(indices).sorted()
            let twice = Dictionary(grouping: indices, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            throw Failure(description: "the shards are not a complete set of \(first.count)"
                + (missing.isEmpty ? "" : "; missing: \(missing.map(String.init).joined(separator: ", "))")
                + (twice.isEmpty ? "" : "; given twice: \(twice.map(String.init).joined(separator: ", "))")
                + (indices.contains { $0 < 0 || $0 >= first.count } ? "; out of range" : ""))
        }
        let ordered = shards.sorted { $0.index < $1.index }
        self = try DatasetProfile(shard: ordered[0])
        sourceBytes = first.dataset.bytes
        for s in ordered.dropFirst() {
            let part = try DatasetProfile(shard: s)
            merge(part)
            seconds = Swift.max(seconds, part.seconds)
            peakResident = Swift.max(peakResident, part.peakResident)
        }
    }
}
