import JSON
import Foundation
import GeoJSON
import GeoModel
import TileArchive
import TileCover

extension DatasetProfile {
    /// How far a profile run has come: `done` of `total` (bytes for GeoJSON, tiles for
    /// tile sources) and `count` items (`unit`) seen.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int?
        public var count: Int
        public var unit: String
    }

    /// Why a dataset cannot be profiled (findings inside a readable dataset are not errors).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Streams the dataset at `path` into this profile: a tile folder (`z/x/y.mvt` or
    /// `.pbf`), an MBTiles or PMTiles v3 archive (by name, or a PMTiles magic number), one
    /// `.mvt`/`.pbf` tile, or else GeoJSON in any layout `GeoJSONFeatureStream` reads.
    /// `progress` is called every few hundred items.
    ///
    /// - Throws: `Failure` when the path cannot be read, or the error of the reader when
    ///   the data is not of its format.
    /// With `jobs` above 1 a tile folder, an MBTiles or a PMTiles archive is profiled by
    /// that many threads over consecutive tile ranges (in the order one job reads: tile id
    /// for PMTiles, rowid or zoom/column/row for MBTiles, zoom/column/row for a folder),
    /// a GeoJSON text sequence or newline-delimited file over consecutive byte ranges cut
    /// between elements, and a FeatureCollection over byte ranges cut between features
    /// (`profileCollectionInParallel`), merged in order (`merge(_:)`): the figures and
    /// findings are exactly those of one job. A folder of GeoJSON files and an MBTiles view
    /// that SQLite would have to sort are read by one job.
    ///
    /// With `shard` (index, count) only that shard is profiled: the index-th of the
    /// `count` ranges `jobs` would use, deterministic for a dataset. A FeatureCollection
    /// cannot be sharded (its parts depend on one another: the first reads what follows
    /// the features array), nor can a folder of GeoJSON files.
    public mutating func profile(path: String, validate: Bool = true, jobs: Int = 1,
                                 shard: (index: Int, count: Int)? = nil,
                                 progress: (Progress) -> Void = { _ in }) throws {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw Failure(description: "\(path): no such file or folder")
        }
        if let shard {
            guard shard.count >= 1, (0..<shard.count).contains(shard.index) else {
                throw Failure(description: "shard \(shard.index) of \(shard.count): the index must be 0...count-1")
            }
            if isDir.boolValue {
                try profileFolder(path, validate: validate, shard: shard, progress: progress)
            } else if path.hasSuffix(".pmtiles") || PMTiles.hasMagic(path: path) {
                try profilePMTilesShard(path, validate: validate, shard: shard, progress: progress)
            } else if path.hasSuffix(".mbtiles") {
                try profileMBTiles(path, validate: validate, shard: shard, progress: progress)
            } else if Self.geoJSONFile(path)?.isSequence == true {
                try profileSequenceShard(path, shard: shard, progress: progress)
            } else {
                throw Failure(description: "\(path): only tile folders, PMTiles and MBTiles archives and GeoJSON "
                    + "sequence files (RFC 8142, newline-delimited) can be profiled in shards")
            }
            return
        }
        if isDir.boolValue { try profileFolder(path, validate: validate, jobs: jobs, progress: progress) }
        else if path.hasSuffix(".mbtiles") { try profileMBTiles(path, validate: validate, jobs: jobs, progress: progress) }
        else if path.hasSuffix(".pmtiles") || PMTiles.hasMagic(path: path) {
            try profilePMTiles(path, validate: validate, jobs: jobs, progress: progress)
        }
        else if path.hasSuffix(".mvt") || path.hasSuffix(".pbf") {
            format = "tile"
            guard let d = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read \(path)") }
            sourceBytes = d.count
            [UInt8](d).withUnsafeBytes { addTile(TileID(z: 0, x: 0, y: 0)!, stored: $0, validate: validate) }
        } else if jobs > 1, let file = Self.geoJSONFile(path) {
            let bytes: (Int) -> Void = { progress(Progress(done: $0, total: file.size, count: $0, unit: "bytes")) }
            if file.isSequence { try profileSequenceInParallel(path, jobs: jobs, progress: bytes) }
            else { try profileCollectionInParallel(path, jobs: jobs, progress: bytes) }
        } else {
            try profileGeoJSON(path, progress: progress)
        }
    }

    /// The size of `path` and whether `GeoJSONFeatureStream` reads it as a sequence (or
    /// else as one GeoJSON text), when it is a regular file; nil otherwise (a pipe cannot
    /// be cut).
    static func geoJSONFile(_ path: String) -> (size: Int, isSequence: Bool)? {
        guard let source = try? FileByteSource(path: path), let size = source.size else { return nil }
        return (size, GeoJSONFeatureStream.isSequence(source, format: .auto))
    }

    mutating func profileGeoJSON(_ path: String, progress: (Progress) -> Void) throws {
        var stream = try GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
        sourceBytes = stream.source.size ?? 0
        let total = stream.source.size
        format = stream.layout
        try stream.forEachBatch(options: .propertyNamesOnly,
                                progress: { progress(Progress(done: $0, total: total, count: $1, unit: "features")) },
                                problem: { finding(error: true, "\($0)") },
                                { addFeatures(batch: $0) })
        format = stream.layout
        sourceBytes = stream.source.size ?? stream.source.bytesRead
    }

    /// The GeoJSON files of a folder that holds no tiles, profiled as one dataset in name
    /// order; with `jobs` above 1, consecutive groups of files of about equal bytes on as
    /// many threads, merged in order (each file is read whole by one thread, so the
    /// figures and findings are those of one job).
    mutating func profileGeoJSONFolder(_ path: String, files: [String], jobs: Int = 1, progress: (Progress) -> Void) throws {
        format = "GeoJSON folder (\(files.count) file\(files.count == 1 ? "" : "s"))"
        if jobs > 1 && files.count > 1 {
            let groups = Self.groups(files.map { (try? FileManager.default.attributesOfItem(atPath: path + "/" + $0)[.size] as? Int) ?? 0 },
                                     parts: jobs)
            try profilePartsInParallel(groups.count, progress: { progress(Progress(done: $0, total: nil, count: $0, unit: "features")) }) {
                i, part, tick in
                for f in files[groups[i]] { try part.addGeoJSONFile(path, f, featureDone: tick) }
            }
            return
        }
        var n = 0
        for f in files {
            try addGeoJSONFile(path, f) {
                n += 1
                if n & 255 == 0 { progress(Progress(done: n, total: nil, count: n, unit: "features")) }
            }
        }
    }

    /// Adds the features of the GeoJSON file `f` of the folder `path`, its problems as
    /// findings named after it, and its bytes.
    mutating func addGeoJSONFile(_ path: String, _ f: String, featureDone: () -> Void) throws {
        var stream = try GeoJSONFeatureStream(path: path + "/" + f, skipsInvalidFeatures: true)
        try stream.forEachBatch(options: .propertyNamesOnly, problem: { finding(error: true, "\(f): \($0)") }) {
            addFeatures(batch: $0)
            for _ in 0..<$0.count { featureDone() }
        }
        sourceBytes += stream.source.size ?? stream.source.bytesRead
    }

    /// Consecutive ranges of `sizes` cut into at most `parts` groups of about equal sums.
    static func groups(_ sizes: [Int], parts: Int) -> [Range<Int>] {
        let total = max(sizes.reduce(0, +), 1)
        var bounds = [0], sum = 0
        for (i, s) in sizes.enumerated() {
            sum += s
            if bounds.count < parts, i + 1 < sizes.count, sum >= total / parts * bounds.count { bounds.append(i + 1) }
        }
        bounds.append(sizes.count)
        return (0..<bounds.count - 1).map { bounds[$0]..<bounds[$0 + 1] }
    }

    mutating func profileFolder(_ path: String, validate: Bool, jobs: Int = 1, shard: (index: Int, count: Int)? = nil,
                                progress: (Progress) -> Void) throws {
        format = "tile folder"
        let (files, geojson, outside) = try Self.folderTiles(path)
        for f in outside { finding(error: false, "\(f): not under z/x/y; profiled without a tile id") }
        if files.isEmpty {
            guard !geojson.isEmpty else {
                throw Failure(description: "\(path): a folder with no tiles (z/x/y.mvt or .pbf) and no GeoJSON files")
            }
            guard shard == nil else { throw Failure(description: "\(path): a folder of GeoJSON files cannot be profiled in shards") }
            try profileGeoJSONFolder(path, files: geojson, jobs: jobs, progress: progress)
            return
        }
        let parts = Self.folderParts(files.count, jobs: shard?.count ?? jobs)
        if let shard {
            // The findings about files outside z/x/y belong to the first shard alone.
            if shard.index > 0 { (warnings, shown) = (0, []) }
            var n = 0
            addFolderTiles(path, files[parts[shard.index]], validate: validate) {
                n += 1
                if n & 255 == 0 { progress(Progress(done: n, total: nil, count: n, unit: "tiles")) }
            }
            return
        }
        if parts.count > 1 {
            try profilePartsInParallel(parts.count, progress: { progress(Progress(done: $0, total: files.count, count: $0, unit: "tiles")) }) {
                i, part, tick in part.addFolderTiles(path, files[parts[i]], validate: validate, tileDone: tick)
            }
            return
        }
        var n = 0
        addFolderTiles(path, files[...], validate: validate) {
            n += 1
            if n & 255 == 0 { progress(Progress(done: n, total: files.count, count: n, unit: "tiles")) }
        }
    }

    /// The tiles of a folder sorted by zoom, column, row and name (files that are not
    /// under z/x/y count as tile 0/0/0), its GeoJSON files in name order, and the tile
    /// files outside z/x/y in name order.
    static func folderTiles(_ path: String) throws -> (tiles: [(TileID, String)], geojson: [String], outside: [String]) {
        guard let e = FileManager.default.enumerator(atPath: path) else { throw Failure(description: "cannot list \(path)") }
        var files: [(TileID, String)] = []
        var geojson: [String] = []
        var outside: [String] = []
        while let f = e.nextObject() as? String {
            if [".geojson", ".json", ".geojsonl", ".geojsons", ".geojsonseq", ".ndjson", ".jsonl"].contains(where: { f.hasSuffix($0) }) {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path + "/" + f, isDirectory: &isDir), !isDir.boolValue { geojson.append(f) }
            }
            guard f.hasSuffix(".mvt") || f.hasSuffix(".pbf") else { continue }
            let parts = f.split(separator: "/")
            let stem = parts.last!.split(separator: ".").first!
            if parts.count >= 3, let z = Int(parts[parts.count - 3]), let x = Int(parts[parts.count - 2]), let y = Int(stem),
               let t = TileID(z: z, x: x, y: y) {
                files.append((t, f))
            } else {
                outside.append(f)
                files.append((TileID(z: 0, x: 0, y: 0)!, f))
            }
        }
        files.sort { ($0.0.z, $0.0.x, $0.0.y) != ($1.0.z, $1.0.x, $1.0.y) ? ($0.0.z, $0.0.x, $0.0.y) < ($1.0.z, $1.0.x, $1.0.y) : $0.1 < $1.1 }
        return (files, geojson.sorted(), outside.sorted())
    }

    /// `count` files cut into `jobs` consecutive ranges of about equal length.
    static func folderParts(_ count: Int, jobs: Int) -> [Range<Int>] {
        (0..<jobs).map { count * $0 / jobs..<count * ($0 + 1) / jobs }
    }

    /// Adds the tile files `files` of the folder at `path`, in order; `tileDone` is called
    /// after each.
    mutating func addFolderTiles(_ path: String, _ files: ArraySlice<(TileID, String)>, validate: Bool, tileDone: () -> Void) {
        for (t, f) in files {
            guard let d = FileManager.default.contents(atPath: path + "/" + f) else { finding(error: true, "\(f): unreadable"); continue }
            sourceBytes += d.count
            [UInt8](d).withUnsafeBytes { addTile(t, stored: $0, validate: validate) }
            tileDone()
        }
    }

    mutating func profileMBTiles(_ path: String, validate: Bool, jobs: Int = 1, shard: (index: Int, count: Int)? = nil,
                                 progress: (Progress) -> Void) throws {
        format = "MBTiles"
        let r = try MBTilesReader(path: path)
        let total = try r.count()
        sourceBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let rows = try r.metadata()
        for (k, v) in rows where ["name", "format", "minzoom", "maxzoom", "bounds", "center", "attribution"].contains(k) {
            metadata.append((k, v))
        }
        let table = MBTilesMetadata(rows)
        if let layers = table.json?.vectorLayers { metadata.append(("vector layers", Self.layersText(layers))) }
        // Tiles stored twice are findings, reported once (by the first shard), before the
        // tiles' own: every row is still counted. So are the metadata table's.
        if shard == nil || shard?.index == 0 {
            for p in table.problems { finding(error: p.error, "\(p)") }
            let repeated = try r.repeatedTiles(limit: keep)
            for t in repeated.listed {
                finding(error: true, "tiles rows with zoom_level \(t.z), tile_column \(t.x), tile_row \(t.row): \(t.rows) rows store one tile (each is counted)")
            }
            if repeated.count > repeated.listed.count {
                errors += repeated.count - repeated.listed.count
            }
        }
        if let shard {
            guard r.order != .unordered else {
                throw Failure(description: "\(path): the tiles view would have to be sorted to be cut; profile it in one run")
            }
            var n = 0
            try addMBTilesTiles(r, range: try r.parts(shard.count)[shard.index], validate: validate) {
                n += 1
                if n & 1023 == 0 { progress(Progress(done: n, total: nil, count: n, unit: "tiles")) }
            }
            return
        }
        if jobs > 1 && r.order != .unordered {
            try profileMBTilesInParallel(path, reader: r, validate: validate, jobs: jobs) {
                progress(Progress(done: $0, total: total, count: $0, unit: "tiles"))
            }
            for p in table.check(tileZooms: Array(tileSizes.keys)) { finding(error: p.error, "\(p)") }
            return
        }
        var n = 0
        try addMBTilesTiles(r, range: nil, validate: validate) {
            n += 1
            if n & 1023 == 0 { progress(Progress(done: n, total: total, count: n, unit: "tiles")) }
        }
        for p in table.check(tileZooms: Array(tileSizes.keys)) { finding(error: p.error, "\(p)") }
    }

    /// Adds the tiles of `r` in `range` (nil: all), in the archive's row order; `tileDone`
    /// is called after each tile.
    mutating func addMBTilesTiles(_ r: MBTilesReader, range: MBTilesReader.RowRange?, validate: Bool, tileDone: () -> Void) throws {
        let declared = DeclaredContent(mbtilesFormat: try r.metadata().first { $0.0 == "format" }?.1)
        try r.forEachTile(in: range, invalid: { finding(error: true, "tiles row \($0): not a tile") }) { t, bytes in
            addTile(t, stored: bytes, validate: validate, declared: declared)
            tileDone()
            return true
        }
    }

    mutating func profilePMTilesShard(_ path: String, validate: Bool, shard: (index: Int, count: Int),
                                      progress: (Progress) -> Void) throws {
        let r = try openPMTiles(path, findings: shard.index == 0)
        let range = try Self.pmtilesRanges(r, parts: shard.count)[shard.index]
        var n = 0
        try addPMTilesTiles(r, ids: range, validate: validate) { _ in
            n += 1
            if n & 1023 == 0 { progress(Progress(done: n, total: nil, count: n, unit: "tiles")) }
        }
        // The last shard checks the whole archive's count, so merged shards say it once.
        if shard.index == shard.count - 1 { checkAddressedTiles(r, try Self.addressedTiles(r)) }
    }

    /// Opens a PMTiles archive for profiling and records its format, header figures (codes
    /// by name, bounds and centre) and metadata (name, attribution, vector layers); with
    /// `findings`, the header's bounds (PM11) and the metadata's rules (PM18–PM20) are
    /// findings.
    mutating func openPMTiles(_ path: String, findings: Bool = true) throws -> PMTilesReader {
        format = "PMTiles v3"
        let r = try PMTilesReader(path: path)
        sourceBytes = r.fileSize
        let h = r.header
        func pos(_ lon: Int32, _ lat: Int32) -> String { "\(PMTiles.degrees(lon)), \(PMTiles.degrees(lat))" }
        metadata += [("addressed tiles (header)", "\(h.addressedTiles)"), ("tile entries (header)", "\(h.tileEntries)"),
                     ("distinct tile contents (header)", "\(h.tileContents)"), ("clustered", "\(h.clustered)"),
                     ("zooms", "\(h.minZoom)–\(h.maxZoom)"), ("tile compression", PMTiles.compressionName(h.tileCompression)),
                     ("internal compression", PMTiles.compressionName(h.internalCompression)),
                     ("tile type", PMTiles.tileTypeName(h.tileType)),
                     ("bounds", pos(h.minLonE7, h.minLatE7) + " to " + pos(h.maxLonE7, h.maxLatE7)),
                     ("centre", pos(h.centerLonE7, h.centerLatE7) + " at zoom \(h.centerZoom)")]
        var problems = r.positionProblems().map { ($0.rule, $0.message) }
        do {
            let m = ArchiveMetadata(text: try r.metadata(), vector: h.tileType == PMTiles.TileType.mvt.rawValue)
            addArchiveMetadata(m)
            problems += m.problems.map { ($0.rule, $0.message) }
        } catch {
            problems.append(("PM8", "the metadata cannot be read: \(error.reason)"))
        }
        if findings {
            for (rule, message) in problems { finding(error: !PMTiles.noteRules.contains(rule), "[\(rule)] " + message) }
        }
        return r
    }

    /// The metadata's name, attribution and vector layers, as `metadata` rows.
    mutating func addArchiveMetadata(_ m: ArchiveMetadata) {
        if let n = m.name { metadata.append(("name", n)) }
        if let a = m.attribution { metadata.append(("attribution", a)) }
        if let layers = m.vectorLayers { metadata.append(("vector layers", Self.layersText(layers))) }
    }

    /// `roads (fields: class, lanes); poi (fields: name)`.
    static func layersText(_ layers: [ArchiveMetadata.VectorLayer]) -> String {
        layers.map { "\($0.id) (fields: \($0.fields.joined(separator: ", ")))" }.joined(separator: "; ")
    }

    mutating func profilePMTiles(_ path: String, validate: Bool, jobs: Int, progress: (Progress) -> Void) throws {
        let r = try openPMTiles(path)
        let total = Int(clamping: r.header.addressedTiles)
        if jobs > 1 {
            try profilePMTilesInParallel(path, reader: r, validate: validate, jobs: jobs) {
                progress(Progress(done: $0, total: total, count: $0, unit: "tiles"))
            }
            checkAddressedTiles(r, try Self.addressedTiles(r))
            return
        }
        var n = 0
        let addressed = try addPMTilesTiles(r, ids: 0..<UInt64.max, validate: validate) { _ in
            n += 1
            if n & 1023 == 0 { progress(Progress(done: n, total: total, count: n, unit: "tiles")) }
        }
        checkAddressedTiles(r, addressed)
    }

    /// Adds the tiles of `r` whose entries start in `ids`, in tile-id order; `tileDone` is
    /// called after each entry with its first tile. Returns the tiles those entries address.
    ///
    /// A run-length entry (tiles sharing one blob) is read and decoded once per zoom it
    /// spans and counted for each of its tiles (`addRun`): the work follows the archive's
    /// bytes and entries, never what a run length claims.
    @discardableResult
    mutating func addPMTilesTiles(_ r: PMTilesReader, ids: Range<UInt64>, validate: Bool, tileDone: (TileID) -> Void) throws -> UInt64 {
        var addressed: UInt64 = 0
        try r.forEachTileEntry { first, e in
            if e.tileID < ids.lowerBound { return true }
            if e.tileID >= ids.upperBound { return false }
            addressed &+= e.runLength
            let data = try r.tileData(e)
            if e.runLength == 1 {
                addPMTilesTile(r, first, data, validate: validate)
            } else {
                // The walk has checked that the run ends within z30's ids.
                var id = e.tileID
                let end = e.tileID + e.runLength
                while id < end {
                    guard let t = PMTiles.tile(id: id) else { break }
                    let next = min(end, PMTiles.firstTileID(zoom: Int(t.z) + 1))
                    var one = DatasetProfile(zoom: zoom, keep: keep)
                    one.addPMTilesTile(r, t, data, validate: validate)
                    addRun(one, tiles: id..<next)
                    id = next
                }
            }
            tileDone(first)
            return true
        }
        return addressed
    }

    /// PM6: a header count of addressed tiles that disagrees with what the directories
    /// address (`addressed`) is a finding. A profile made in parts (jobs, shards) checks it
    /// once, after its last part, as one pass does.
    mutating func checkAddressedTiles(_ r: PMTilesReader, _ addressed: UInt64) {
        let h = r.header
        if h.addressedTiles != 0, h.addressedTiles != addressed {
            finding(error: true, "[PM6] the header says \(h.addressedTiles) addressed tiles, the directories address \(addressed)")
        }
    }

    /// The tiles the directories of `r` address (the sum of their run lengths), from the
    /// entries alone: no tile is read.
    static func addressedTiles(_ r: PMTilesReader) throws -> UInt64 {
        var addressed: UInt64 = 0
        try r.forEachTileEntry { _, e in
            addressed = addressed.addingReportingOverflow(e.runLength).partialValue
            return true
        }
        return addressed
    }

    /// Adds one tile's stored bytes, decoding brotli and zstd here (gzip is recognised by
    /// its magic).
    mutating func addPMTilesTile(_ r: PMTilesReader, _ t: TileID, _ data: [UInt8], validate: Bool) {
        let compression = r.header.tileCompression
        let declared = DeclaredContent(pmtilesTileType: r.header.tileType)
        if compression == 3 || compression == 4 {
            do {
                let raw = try r.decodedTile(data)
                data.withUnsafeBytes { s in raw.withUnsafeBytes { addTile(t, stored: s, decoded: $0, validate: validate, declared: declared) } }
            } catch {
                tiles += 1
                finding(error: true, "tile \(t): \(error)")
            }
        } else {
            // PM21: gzip bytes under a header that says none are read, and said.
            if compression == 1, TileContent.format(of: data) == .gzip {
                finding(error: true, "[PM21] tile \(t): gzip bytes, but the header says tile compression none")
            } else if compression == 2, TileContent.format(of: data) != .gzip {
                finding(error: true, "[PM21] tile \(t): not gzip bytes, but the header says tile compression gzip")
            }
            data.withUnsafeBytes { addTile(t, stored: $0, validate: validate, declared: declared) }
        }
    }
}
