import TileArchive
import TileCover

/// Run-length entries of a PMTiles archive: many tiles sharing one blob are counted from
/// one decoding, so a run of 10^10 tiles costs what one tile costs.
extension DatasetProfile {
    /// Adds `one`, the profile of the first tile of `tiles` (tile ids of one zoom sharing
    /// its blob), as if every tile of the range had been profiled: counts, histograms, tile
    /// sizes, layers, keys and findings are multiplied by the number of tiles; the
    /// coverage grid gets each tile's features at its ancestor at the grid's zoom (aligned
    /// groups of 4^d consecutive Hilbert ids fill one tile d zooms up); one finding text
    /// stands for the run's.
    mutating func addRun(_ one: DatasetProfile, tiles ids: Range<UInt64>) {
        let k = Int(clamping: ids.count)
        guard k > 1 else { merge(one); return }
        @inline(__always) func times(_ v: Int) -> Int {
            let (r, o) = v.multipliedReportingOverflow(by: k)
            return o ? .max : r
        }
        features = features.saturatingAdd(times(one.features))
        for (t, n) in one.byType { byType[t, default: 0] = byType[t, default: 0].saturatingAdd(times(n)) }
        vertices.merge(one.vertices, times: k)
        properties.merge(one.properties, times: k)
        for (slot, key) in one.keyNames.enumerated() { add(key: key, count: times(one.keyTotals[slot])) }
        otherKeys = otherKeys.saturatingAdd(times(one.otherKeys))
        tiles = tiles.saturatingAdd(times(one.tiles))
        for (z, sizes) in one.tileSizes { tileSizes[z, default: SizeCounts()].merge(sizes, times: k) }
        for (z, n) in one.rawBytes { rawBytes[z, default: 0] = rawBytes[z, default: 0].saturatingAdd(times(n)) }
        for name in one.layerOrder {
            if let e = one.layers[name] { addLayer(name, features: times(e.features), tiles: times(e.tiles)) }
        }
        for (c, n) in one.tileContents { tileContents[c, default: 0] = tileContents[c, default: 0].saturatingAdd(times(n)) }
        errors = errors.saturatingAdd(times(one.errors))
        warnings = warnings.saturatingAdd(times(one.warnings))
        for text in one.shown.prefix(max(0, keep - shown.count)) {
            shown.append(text + " (and the other \(k - 1) tiles of its run)")
        }
        // Coverage: the first tile's features, for every tile of the run, at its ancestor.
        coverageSkipped = coverageSkipped.saturatingAdd(times(one.coverageSkipped))
        guard one.coverageSkipped == 0, let perTile = one.coverage.values.first,
              let first = PMTiles.tile(id: ids.lowerBound) else { return }
        let d = Int(first.z) - zoom
        let base = PMTiles.firstTileID(zoom: Int(first.z))
        let shift = UInt64(2 * d)
        var position = ids.lowerBound - base
        let end = ids.upperBound - base
        while position < end {
            let groupEnd = min(end, ((position >> shift) + 1) << shift)
            if let t = PMTiles.tile(id: base + position) {
                let a = TileID(z: zoom, x: Int(t.x >> UInt32(d)), y: Int(t.y >> UInt32(d)))!
                let n = Int(clamping: groupEnd - position)
                let (c, o) = perTile.multipliedReportingOverflow(by: n)
                coverage[Self.key(a), default: 0] = coverage[Self.key(a), default: 0].saturatingAdd(o ? .max : c)
            }
            position = groupEnd
        }
    }
}

extension Int {
    /// `self + other`, or `Int.max` when the sum overflows (counts of runs of 10^10 tiles
    /// stay in range in practice; saturating keeps a lying archive from trapping).
    func saturatingAdd(_ other: Int) -> Int {
        let (r, o) = addingReportingOverflow(other)
        return o ? .max : r
    }
}
