import TileCover

extension PMTiles {
    /// A rule of the PMTiles v3 specification that an archive breaks: the rule's id in
    /// `../shared/specs/pmtiles.md` (and `corpora/conformance/rules.tsv`), the byte of the
    /// file where the broken part is, and what is wrong.
    public struct Finding: Equatable, Sendable, CustomStringConvertible {
        public var rule: String
        /// Byte offset in the file, nil when the finding is about the archive as a whole.
        public var offset: UInt64?
        public var message: String

        public init(rule: String, offset: UInt64?, message: String) {
            self.rule = rule
            self.offset = offset
            self.message = message
        }

        /// The specification's section of the rule: §2 layout, §3 header, §4 directories,
        /// §5 metadata; tile contents (PM21) are §3's tile type and compression.
        public var section: String { PMTiles.section(of: rule) }

        /// True for a rule the specification states as a MAY (PM20: the forms of `name`,
        /// `type`, `version`…): worth saying, not a broken requirement. `verify` prints
        /// notes, and they do not change its exit status.
        public var isNote: Bool { PMTiles.noteRules.contains(rule) }

        /// `[PM18 §5 metadata] byte 16384: the metadata is not JSON: …`
        public var description: String {
            "[\(rule) \(section)] " + (offset.map { "byte \($0): " } ?? "") + message
        }
    }

    /// Rules whose findings are notes (`Finding.isNote`).
    public static let noteRules: Set<String> = ["PM20"]

    /// The specification section of a rule id (PM1–PM21).
    public static func section(of rule: String) -> String {
        guard rule.hasPrefix("PM"), let n = Int(rule.dropFirst(2)) else { return "" }
        switch n {
        case 1...3: return "§2 layout"
        case 4...11: return "§3 header"
        case 12...17: return "§4 directories"
        case 18...20: return "§5 metadata"
        default: return "§3 tile contents"
        }
    }
}

extension PMTilesReader {
    /// Checks the archive against the PMTiles v3 rules a file can break (the MUST and DEF
    /// rules of `../shared/specs/pmtiles.md`) and returns what it breaks, in file order of
    /// the checks: header (PM2, PM3, PM7–PM11), metadata (PM8, PM18–PM20), directories
    /// (PM6, PM7, PM10, PM12–PM17), tile contents (PM21).
    ///
    /// A reader opened with `checkingCompressions: false` can report undefined compressions
    /// (PM8) here rather than refuse the file.
    ///
    /// - Parameter limit: findings listed per rule; the rest are counted in one more finding.
    /// - Complexity: O(file): every directory, the metadata, and each distinct tile content
    ///   once (decompressed, at most 64 MiB each). Memory: one directory and one tile at a
    ///   time plus the set of content offsets.
    public func verify(limit: Int = 20) -> [PMTiles.Finding] {
        var out = FindingList(limit: limit)
        let readable = checkHeader(&out)
        if readable.metadata { checkMetadata(&out) }
        if readable.directories { checkDirectories(&out) }
        return out.finished()
    }

    /// Findings with at most `limit` per rule; the rest counted.
    struct FindingList {
        var limit: Int
        var list: [PMTiles.Finding] = []
        var perRule: [String: Int] = [:]

        mutating func add(_ rule: String, _ offset: UInt64?, _ message: String) {
            perRule[rule, default: 0] += 1
            if perRule[rule]! <= limit { list.append(PMTiles.Finding(rule: rule, offset: offset, message: message)) }
        }

        func finished() -> [PMTiles.Finding] {
            var out = list
            for (rule, n) in perRule.sorted(by: { $0.key < $1.key }) where n > limit {
                out.append(PMTiles.Finding(rule: rule, offset: nil, message: "\(n - limit) more like the above"))
            }
            return out
        }
    }

    typealias Section = (name: String, offset: UInt64, length: UInt64)

    var sections: [Section] {
        let h = header
        return [("root directory", h.rootOffset, h.rootLength), ("metadata", h.metadataOffset, h.metadataLength),
                ("leaf directories", h.leafOffset, h.leafLength), ("tile data", h.dataOffset, h.dataLength)]
    }

    /// Header rules; returns whether the metadata and the directories can be read.
    func checkHeader(_ out: inout FindingList) -> (metadata: Bool, directories: Bool) {
        let h = header
        var inside: [String: Bool] = [:]
        for s in sections {
            let (end, over) = s.offset.addingReportingOverflow(s.length)
            inside[s.name] = !over && end <= UInt64(fileSize)
            if !inside[s.name]! {
                out.add("PM3", s.offset, "the \(s.name) (\(s.length) bytes) runs past the end of the \(fileSize)-byte file")
            } else if s.length > 0 && s.offset < UInt64(PMTiles.Header.size) {
                out.add("PM3", s.offset, "the \(s.name) (\(s.length) bytes) lies inside the 127-byte header")
            }
        }
        let laid = sections.filter { $0.length > 0 }
        for i in laid.indices {
            for j in laid.indices where j > i {
                let a = laid[i], b = laid[j]
                let (aEnd, o1) = a.offset.addingReportingOverflow(a.length), (bEnd, o2) = b.offset.addingReportingOverflow(b.length)
                if !o1 && !o2 && a.offset < bEnd && b.offset < aEnd {
                    out.add("PM3", max(a.offset, b.offset), "the \(a.name) and the \(b.name) overlap")
                }
            }
        }
        let (rootEnd, rootOver) = h.rootOffset.addingReportingOverflow(h.rootLength)
        if rootOver || rootEnd > 16_384 {
            out.add("PM2", h.rootOffset, "the root directory (\(h.rootLength) bytes at byte \(h.rootOffset)) ends beyond the first 16,384 bytes")
        }
        if h.clusteredValue > 1 { out.add("PM7", 96, "clustered is \(h.clusteredValue) (0 or 1 are defined)") }
        let internalKnown = h.internalCompression <= 4
        if !internalKnown {
            out.add("PM8", 97, "internal compression \(h.internalCompression) is not defined (0–4 are)")
        }
        if h.tileCompression > 4 { out.add("PM8", 98, "tile compression \(h.tileCompression) is not defined (0–4 are)") }
        if h.tileType > 6 { out.add("PM9", 99, "tile type \(h.tileType) is not defined (0–6 are)") }
        if h.minZoom > h.maxZoom { out.add("PM10", 100, "min zoom \(h.minZoom) is above max zoom \(h.maxZoom)") }
        if h.maxZoom > 31 { out.add("PM10", 101, "max zoom \(h.maxZoom) is beyond zoom 31, the last a tile id can address") }
        checkPositions(&out)
        return (internalKnown && inside["metadata"]!, internalKnown && inside["root directory"]!)
    }

    /// PM11: bounds a box within the world, the centre a position.
    func checkPositions(_ out: inout FindingList) {
        for f in positionProblems() { out.add(f.rule, f.offset, f.message) }
    }

    /// What is wrong with the header's bounds and centre (PM11): a coordinate beyond ±180°
    /// or ±90°, a minimum above its maximum.
    public func positionProblems() -> [PMTiles.Finding] {
        let h = header
        var out: [PMTiles.Finding] = []
        func deg(_ v: Int32) -> String { PMTiles.degrees(v) }
        for (what, v, at, lim) in [("min longitude", h.minLonE7, UInt64(102), 180), ("min latitude", h.minLatE7, 106, 90),
                                   ("max longitude", h.maxLonE7, 110, 180), ("max latitude", h.maxLatE7, 114, 90),
                                   ("centre longitude", h.centerLonE7, 119, 180), ("centre latitude", h.centerLatE7, 123, 90)]
        where abs(Int64(v)) > Int64(lim) * 10_000_000 {
            out.append(.init(rule: "PM11", offset: at, message: "\(what) \(deg(v))° is beyond ±\(lim)°"))
        }
        if h.minLonE7 > h.maxLonE7 {
            out.append(.init(rule: "PM11", offset: 102, message: "min longitude \(deg(h.minLonE7))° is east of max longitude \(deg(h.maxLonE7))°"))
        }
        if h.minLatE7 > h.maxLatE7 {
            out.append(.init(rule: "PM11", offset: 106, message: "min latitude \(deg(h.minLatE7))° is north of max latitude \(deg(h.maxLatE7))°"))
        }
        return out
    }

    /// PM18–PM20 (and PM8 for metadata that does not decompress).
    func checkMetadata(_ out: inout FindingList) {
        let h = header
        guard h.metadataLength > 0 else {
            out.add("PM18", h.metadataOffset, "the metadata section is empty (it must hold a JSON object)")
            return
        }
        let text: [UInt8]
        do { text = try metadata() } catch {
            out.add("PM8", h.metadataOffset, "the metadata does not decompress as \(PMTiles.compressionName(h.internalCompression)): \(error.reason)")
            return
        }
        let m = ArchiveMetadata(text: text, vector: h.tileType == PMTiles.TileType.mvt.rawValue)
        for p in m.problems {
            // An offset in decompressed text is a file offset only when nothing was compressed.
            let at = h.internalCompression <= 1 ? p.offset.map { h.metadataOffset + UInt64($0) } ?? h.metadataOffset : h.metadataOffset
            out.add(p.rule, at, p.message)
        }
    }

    /// Directory rules, the header's counts, the clustered order and every tile content.
    func checkDirectories(_ out: inout FindingList) {
        let h = header
        var addressed: UInt64 = 0, entries: UInt64 = 0
        var contents = Set<UInt64>()
        // Clustered (PM7): each new content starts where the previous new one ended.
        var nextNew: UInt64 = 0
        var walked = false
        do {
            try forEachTileEntry { first, e in
                entries += 1
                addressed &+= e.runLength
                let at = h.dataOffset &+ e.offset
                let (end, over) = e.offset.addingReportingOverflow(e.length)
                let inData = !over && end <= h.dataLength
                if !inData {
                    out.add("PM15", at, "tile \(first): bytes \(e.offset)+\(e.length) run past the tile data section (\(h.dataLength) bytes)")
                }
                if e.length == 0 { out.add("PM14", nil, "tile \(first): an entry of length 0") }
                if let last = PMTiles.tile(id: e.tileID + e.runLength - 1), first.z < h.minZoom || last.z > h.maxZoom {
                    out.add("PM10", nil, "tiles \(first)…\(last) lie outside the header's zooms \(h.minZoom)–\(h.maxZoom)")
                }
                if contents.insert(e.offset).inserted {
                    if h.clustered && e.offset != nextNew {
                        out.add("PM7", at, "the header says clustered, but tile \(first)'s new content is at tile data byte \(e.offset), "
                                + "not \(nextNew) where the previous one ended")
                    }
                    nextNew = max(nextNew, end)
                    if inData && e.length > 0 { checkContent(e, first, &out) }
                } else if h.clustered && e.offset >= nextNew {
                    out.add("PM7", at, "the header says clustered, but tile \(first) refers forward to tile data byte \(e.offset)")
                }
                return true
            }
            walked = true
        } catch let error as PMTiles.Error {
            out.add(error.rule, errorOffset(error), error.reason)
        } catch {
            out.add("PM13", nil, "\(error)")
        }
        // Counts from a walk that stopped part way say nothing about the header's.
        guard walked else { return }
        if h.addressedTiles != 0 && h.addressedTiles != addressed {
            out.add("PM6", 72, "the header says \(h.addressedTiles) addressed tiles, the directories address \(addressed)")
        }
        if h.tileEntries != 0 && h.tileEntries != entries {
            out.add("PM6", 80, "the header says \(h.tileEntries) tile entries, the directories have \(entries)")
        }
        if h.tileContents != 0 && h.tileContents != UInt64(contents.count) {
            out.add("PM6", 88, "the header says \(h.tileContents) tile contents, the directories point at \(contents.count)")
        }
    }

    func errorOffset(_ e: PMTiles.Error) -> UInt64? {
        switch e {
        case .truncated(_, let o): return o
        case .malformedDirectory(_, let o, _): return o > 0 ? UInt64(o) : nil
        default: return nil
        }
    }

    /// PM21: the content's bytes are of the header's compression and tile type.
    func checkContent(_ e: PMTiles.Entry, _ first: TileID, _ out: inout FindingList) {
        let h = header
        let at = h.dataOffset &+ e.offset
        guard let stored = try? tileData(e) else { return }
        let storedFormat = TileContent.format(of: stored)
        var raw = stored
        switch h.tileCompression {
        case 0, 1:
            if storedFormat == .gzip || storedFormat == .zstd {
                if h.tileCompression == 1 {
                    out.add("PM21", at, "tile \(first) is \(storedFormat) bytes, but the header says tile compression none")
                }
                raw = (try? ArchiveCompression.decompress(stored, compression: storedFormat == .gzip ? 2 : 4, limit: 64 << 20)) ?? stored
            }
        case 2...4:
            do { raw = try ArchiveCompression.decompress(stored, compression: h.tileCompression, limit: 64 << 20) } catch {
                out.add("PM21", at, "tile \(first) does not decompress as \(PMTiles.compressionName(h.tileCompression)): \(error)")
                return
            }
        default:
            return
        }
        let found = TileContent.format(of: raw)
        guard let type = PMTiles.TileType(rawValue: h.tileType) else { return }
        if let want = type.imageFormat {
            if found != want {
                out.add("PM21", at, "tile \(first) is \(found == .other ? "not an image" : "a \(found) image"), but the header says \(want)")
            } else if TileContent.imageSize(raw) == nil {
                out.add("PM21", at, "tile \(first): the \(want) header is cut short or gives no dimensions")
            }
        } else if type == .mvt, found != .other {
            out.add("PM21", at, "tile \(first) is \(found == .gzip || found == .zstd ? "\(found)-compressed after decompression" : "a \(found) image"), "
                    + "but the header says mvt")
        }
    }
}

extension PMTiles {
    /// Degrees from the header's integer degrees × 10^7, without trailing zeros.
    public static func degrees(_ e7: Int32) -> String {
        let v = Int64(e7)
        let whole = v / 10_000_000, frac = abs(v % 10_000_000)
        var s = (v < 0 && whole == 0 ? "-" : "") + String(whole)
        if frac != 0 {
            var f = String(frac)
            f = String(repeating: "0", count: 7 - f.count) + f
            while f.last == "0" { f.removeLast() }
            s += "." + f
        }
        return s
    }
}

extension PMTilesReader {
    /// The header and metadata in words, one `name: value` line each: the file, zooms,
    /// counts, codes by name, bounds, centre, and the metadata's name, attribution and
    /// vector layers when it has them.
    public func summary() -> [String] {
        let h = header
        func pos(_ lon: Int32, _ lat: Int32) -> String { "\(PMTiles.degrees(lon)), \(PMTiles.degrees(lat))" }
        var out = ["\(path): PMTiles v3, \(fileSize) bytes",
                   "zooms: \(h.minZoom)–\(h.maxZoom)",
                   "tiles: \(h.addressedTiles) addressed tiles in \(h.tileEntries) tile entries, \(h.tileContents) tile contents (header; 0 means unknown)",
                   "tile type: \(PMTiles.tileTypeName(h.tileType)); tile compression: \(PMTiles.compressionName(h.tileCompression)); "
                   + "internal compression: \(PMTiles.compressionName(h.internalCompression)); "
                   + (h.clusteredValue <= 1 ? (h.clustered ? "clustered" : "not clustered") : "clustered \(h.clusteredValue) (undefined)"),
                   "bounds: \(pos(h.minLonE7, h.minLatE7)) to \(pos(h.maxLonE7, h.maxLatE7)) (longitude, latitude)",
                   "centre: \(pos(h.centerLonE7, h.centerLatE7)) at zoom \(h.centerZoom)"]
        if h.internalCompression <= 4, let text = try? metadata(), !text.isEmpty {
            let m = ArchiveMetadata(text: text, vector: false)
            if let n = m.name { out.append("name: \(n)") }
            if let a = m.attribution { out.append("attribution: \(a)") }
            if let layers = m.vectorLayers {
                out.append("vector layers: " + (layers.isEmpty ? "none" : layers.map { "\($0.id) (\($0.fields.count) \($0.fields.count == 1 ? "field" : "fields"))" }.joined(separator: ", ")))
            }
        }
        return out
    }
}
