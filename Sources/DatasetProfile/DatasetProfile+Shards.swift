import Foundation
import GeoJSON
import TileArchive

extension DatasetProfile {
    /// The profile of one shard of a dataset (`graticule profile --shard I/N`), as a file
    /// that `init(merging:)` combines with the other shards' into exactly the profile of
    /// one run over the whole dataset. It holds every figure in mergeable form: counts,
    /// histogram buckets, the capped key and layer tables in first-seen order, the
    /// coverage grid, the tile sizes as counts by size, and the findings kept.
    public struct Shard: Codable, Equatable, Sendable {
        /// `graticule-profile-shard/2`; a file of another version is refused.
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
        /// (size, tiles) pairs by zoom.
        public var tileSizes: [String: [[UInt64]]]
        public var rawBytes: [String: Int]
        public var layers: [ShardLayer]
        /// Tiles not decoded as vector tiles, by content (`png 256×256`); absent when none.
        public var tileContents: [String: Int]?
        public var errors: Int
        public var warnings: Int
        public var shown: [String]
        /// For a shard of a GeoJSON sequence file: where its elements start and end, and its
        /// problems with element indices counted from the shard's first element, which the
        /// merge renumbers. Nil for an archive's shard.
        public var sequence: ShardSequence?

        public static let currentSchema = "graticule-profile-shard/2"
    }

    /// How a shard of a sequence file ended (`GeoJSONFeatureStream.PartEnd`), and its
    /// problems.
    public struct ShardSequence: Codable, Equatable, Sendable {
        public var firstStart: Int
        public var stoppedAt: Int
        public var elements: Int
        public var problemCount: Int
        public var problems: [ShardProblem]
    }

    /// A problem of a sequence shard: the element index within the shard and the error.
    public struct ShardProblem: Codable, Equatable, Sendable {
        public var index: Int
        public var error: String
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

    /// Identifies the dataset at `path`: its name, size and a fingerprint, of the header
    /// for a PMTiles archive, of the first and last 64 KiB for another file, of the tile
    /// files' names and sizes for a tile folder.
    public static func shardDataset(path: String) throws -> ShardDataset {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        func hash(_ bytes: some Sequence<UInt8>) { for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 } }
        let name = (path as NSString).lastPathComponent
        if path.hasSuffix(".pmtiles") || PMTiles.hasMagic(path: path) {
            let r = try PMTilesReader(path: path)
            hash(try r.read(offset: 0, length: PMTiles.Header.size, section: "header"))
            return ShardDataset(name: name, bytes: r.fileSize, fingerprint: String(h, radix: 16))
        }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            // A tile folder: its tile files' names and sizes, in the order they are read.
            var bytes = 0
            for (_, f) in try folderTiles(path).tiles {
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "/" + f)[.size] as? Int) ?? 0
                bytes += size
                hash(Array("\(f)\u{0}\(size)\u{0}".utf8))
            }
            return ShardDataset(name: name, bytes: bytes, fingerprint: String(h, radix: 16))
        }
        guard let file = FileHandle(forReadingAtPath: path) else { throw Failure(description: "cannot read \(path)") }
        defer { try? file.close() }
        let size = Int(try file.seekToEnd())
        try file.seek(toOffset: 0)
        hash(try file.read(upToCount: 65_536) ?? Data())
        try file.seek(toOffset: UInt64(max(0, size - 65_536)))
        hash(try file.read(upToCount: 65_536) ?? Data())
        return ShardDataset(name: name, bytes: size, fingerprint: String(h, radix: 16))
    }

    /// Profiles shard `shard.index` of the sequence file at `path`: the elements that
    /// start in that one of the ranges `--jobs` would cut.
    mutating func profileSequenceShard(_ path: String, shard: (index: Int, count: Int), progress: (Progress) -> Void) throws {
        let (fileFormat, ranges) = try GeoJSONSequenceParts.ranges(path: path, count: shard.count)
        let size = ranges.last?.upperBound ?? 0
        var done = 0
        let part = try Self.profileSequencePart(path, range: ranges[shard.index], format: fileFormat, zoom: zoom, keep: keep) {
            done += $0
            progress(Progress(done: done, total: size, count: done, unit: "bytes"))
        }
        addSequencePart(part, elementBase: 0)
        format = GeoJSONFeatureStream.layoutName(fileFormat)
        sourceBytes = size
        sequenceShard = ShardSequence(firstStart: part.end.firstStart, stoppedAt: part.end.stoppedAt, elements: part.end.elements,
                                      problemCount: part.problems.count,
                                      problems: part.problems.kept.map { ShardProblem(index: $0.index, error: "\($0.error)") })
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
                     tileSizes: Dictionary(uniqueKeysWithValues: tileSizes.map { ("\($0.key)", $0.value.pairs) }),
                     rawBytes: Dictionary(uniqueKeysWithValues: rawBytes.map { ("\($0.key)", $0.value) }),
                     layers: layerOrder.compactMap { n in layers[n].map { ShardLayer(name: n, features: $0.features, tiles: $0.tiles) } },
                     tileContents: tileContents.isEmpty ? nil : tileContents, errors: errors, warnings: warnings, shown: shown, sequence: sequenceShard)
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
            guard let zi = Int(z), let sizes = SizeCounts(pairs: v) else {
                throw Failure(description: "shard \(s.index): the tile sizes of zoom \(z) are malformed")
            }
            tileSizes[zi] = sizes
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
        for (k, n) in s.tileContents ?? [:] {
            guard n >= 0 else { throw Failure(description: "shard \(s.index): tile contents \(k) counts \(n)") }
            tileContents[k] = n
        }
        errors = s.errors
        warnings = s.warnings
        shown = s.shown
        if let q = s.sequence {
            // The findings are the problems, added again renumbered by the merge.
            guard q.problemCount == s.errors, s.warnings == 0, q.problems.count <= q.problemCount,
                  q.firstStart <= q.stoppedAt, q.elements >= 0 else {
                throw Failure(description: "shard \(s.index): malformed sequence figures")
            }
            errors = 0
            shown = []
            sequenceShard = q
        }
    }

    /// Adds a sequence shard's problems, renumbered to follow `elementBase` elements.
    mutating func addProblems(of q: ShardSequence, elementBase: Int) {
        for p in q.problems {
            finding(error: true, GeoJSONFeatureStream.Problem.text(index: p.index + elementBase, location: nil, error: p.error))
        }
        errors += q.problemCount - q.problems.count
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
        for s in shards { try s.validate() }
        let indices = shards.map(\.index).sorted()
        guard indices.count == first.count, indices.elementsEqual(0..<first.count) else {
            // Listed without building 0..<count (a count is at most `Shard.maxCount`), and
            // at most 10 of each kind named.
            func list(_ v: [Int], _ total: Int) -> String {
                v.prefix(10).map(String.init).joined(separator: ", ") + (total > 10 ? " and \(total - 10) more" : "")
            }
            var missing: [Int] = [], missingCount = 0, i = 0
            var previous: Int? = nil
            var twice: [Int] = [], twiceCount = 0
            for v in indices {
                if v == previous { twiceCount += 1; if twice.count < 10 { twice.append(v) }; continue }
                previous = v
                while i < v { missingCount += 1; if missing.count < 10 { missing.append(i) }; i += 1 }
                i = v + 1
            }
            while i < first.count { missingCount += 1; if missing.count < 10 { missing.append(i) }; i += 1 }
            throw Failure(description: "the shards are not a complete set of \(first.count)"
                + (missing.isEmpty ? "" : "; missing: \(list(missing, missingCount))")
                + (twice.isEmpty ? "" : "; given twice: \(list(twice, twiceCount))"))
        }
        let ordered = shards.sorted { $0.index < $1.index }
        guard ordered.allSatisfy({ ($0.sequence == nil) == (first.sequence == nil) }) else {
            throw Failure(description: "the shards mix an archive's shards and a sequence file's")
        }
        self = DatasetProfile(zoom: first.zoom, keep: first.keep)
        var elementBase = 0
        var next: Int?
        for s in ordered {
            let part = try DatasetProfile(shard: s)
            if s.index == 0 { (format, metadata) = (part.format, part.metadata) }
            merge(part)
            seconds = Swift.max(seconds, part.seconds)
            peakResident = Swift.max(peakResident, part.peakResident)
            if let q = part.sequenceShard {
                if let next, q.firstStart != next {
                    throw Failure(description: "shard \(s.index) starts at byte \(q.firstStart), but shard \(s.index - 1) read "
                        + "on to byte \(next): an element spans the cut (a newline-delimited element over several lines). "
                        + "Profile this file in fewer shards, or with --jobs, which reads such a part again")
                }
                addProblems(of: q, elementBase: elementBase)
                elementBase += q.elements
                next = q.stoppedAt
            }
        }
        // One pass names a sequence's format after its first element (none: the default).
        if first.sequence != nil && elementBase == 0 { format = GeoJSONFeatureStream.layoutName(nil) }
        sourceBytes = first.dataset.bytes
    }
}
