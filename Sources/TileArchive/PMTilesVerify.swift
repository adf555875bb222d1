extension PMTilesReader {
    /// Checks an archive against its own header and the PMTiles v3 rules, in the spirit of
    /// `pmtiles verify`, and returns what is wrong (empty when nothing is):
    ///
    /// - every section (root directory, metadata, leaf directories, tile data) lies inside
    ///   the file, and no two overlap;
    /// - directories decode, entries are in tile-id order without overlapping runs, and
    ///   each leaf directory is referenced once (`forEachTileEntry`'s bounds);
    /// - every tile lies inside the tile data section and has bytes;
    /// - tile zooms lie within the header's min and max zoom;
    /// - the header's counts match: addressed tiles, tile entries, tile contents (distinct
    ///   offsets);
    /// - a clustered archive stores new tile contents in tile-id order.
    ///
    /// - Complexity: O(entries + directory bytes); memory O(distinct tile contents).
    public func verify() -> [String] {
        var findings: [String] = []
        let h = header
        let sections: [(String, UInt64, UInt64)] = [("root directory", h.rootOffset, h.rootLength),
                                                    ("metadata", h.metadataOffset, h.metadataLength),
                                                    ("leaf directories", h.leafOffset, h.leafLength),
                                                    ("tile data", h.dataOffset, h.dataLength)]
        for (name, offset, length) in sections {
            let (end, over) = offset.addingReportingOverflow(length)
            if over || end > UInt64(fileSize) {
                findings.append("the \(name) (bytes \(offset)+\(length)) runs past the end of the \(fileSize)-byte file")
            }
        }
        let laid = sections.filter { $0.2 > 0 }
        for i in laid.indices {
            for j in laid.indices where j > i {
                let a = laid[i], b = laid[j]
                let (aEnd, o1) = a.1.addingReportingOverflow(a.2), (bEnd, o2) = b.1.addingReportingOverflow(b.2)
                if !o1 && !o2 && a.1 < bEnd && b.1 < aEnd { findings.append("the \(a.0) and the \(b.0) overlap") }
            }
        }
        if h.minZoom > h.maxZoom { findings.append("min zoom \(h.minZoom) is above max zoom \(h.maxZoom)") }
        var addressed: UInt64 = 0, entries: UInt64 = 0
        var contents = Set<UInt64>()
        var lastNewOffset: UInt64?
        var clusterBreaks = 0
        var walked = false, stopped = false
        do {
            try forEachTileEntry { first, e in
                entries += 1
                addressed += e.runLength   // the walk checks the sum for overflow
                let (end, over) = e.offset.addingReportingOverflow(e.length)
                if over || end > h.dataLength {
                    findings.append("tile \(first): bytes \(e.offset)+\(e.length) run past the tile data section (\(h.dataLength) bytes)")
                }
                if e.length == 0 { findings.append("tile \(first): an entry with no bytes") }
                if let last = PMTiles.tile(id: e.tileID + e.runLength - 1),
                   first.z < h.minZoom || last.z > h.maxZoom {
                    findings.append("tiles \(first)…\(last) lie outside the header's zooms \(h.minZoom)–\(h.maxZoom)")
                }
                if contents.insert(e.offset).inserted {
                    if h.clustered, let previous = lastNewOffset, e.offset < previous { clusterBreaks += 1 }
                    lastNewOffset = e.offset
                }
                if findings.count >= 1000 { stopped = true }
                return !stopped
            }
            walked = !stopped
        } catch {
            findings.append("\(error)")
        }
        // Counts from a walk that stopped part way say nothing about the header's.
        guard walked else { return findings }
        if clusterBreaks > 0 {
            findings.append("the header says clustered, but \(clusterBreaks) tile contents are stored before contents of lower tile ids")
        }
        if h.addressedTiles != 0 && h.addressedTiles != addressed {
            findings.append("the header says \(h.addressedTiles) addressed tiles, the directories address \(addressed)")
        }
        if h.tileEntries != 0 && h.tileEntries != entries {
            findings.append("the header says \(h.tileEntries) tile entries, the directories have \(entries)")
        }
        if h.tileContents != 0 && h.tileContents != UInt64(contents.count) {
            findings.append("the header says \(h.tileContents) tile contents, the directories point at \(contents.count)")
        }
        return findings
    }
}
