import XCTest
import CorpusGenerators
import DatasetProfile
import Foundation
import TileArchive
import TileCover

/// A PMTiles run-length entry is profiled from one decoding of its blob, with every figure
/// what profiling each of its tiles gives (checked against the same tiles written as one
/// entry each), and a run of 10^10 tiles is counted exactly.
final class RunLengthTests: XCTestCase {
    /// An archive of `entries` over one blob per distinct offset in `blobs`.
    func archive(_ entries: [PMTiles.Entry], blobs: [UInt8], addressed: UInt64? = nil) throws -> String {
        let root = PMTiles.encodeDirectory(entries)
        var h = PMTiles.Header()
        h.rootOffset = UInt64(PMTiles.Header.size)
        h.rootLength = UInt64(root.count)
        let meta = Array(#"{"vector_layers":[{"id":"layer","fields":{}}]}"#.utf8)
        h.metadataOffset = h.rootOffset + h.rootLength
        h.metadataLength = UInt64(meta.count)
        h.leafOffset = h.metadataOffset + h.metadataLength
        h.dataOffset = h.leafOffset
        h.dataLength = UInt64(blobs.count)
        h.addressedTiles = addressed ?? entries.reduce(0) { $0 + $1.runLength }
        h.tileEntries = UInt64(entries.count)
        h.tileContents = UInt64(Set(entries.map(\.offset)).count)
        h.tileCompression = 2
        h.minZoom = 0
        h.maxZoom = 30
        let path = temporaryPath("run-\(entries.count).pmtiles")
        try Data(h.encoded() + root + meta + blobs).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A header that claims more addressed tiles than the directories address (PM6) is one
    /// finding whatever the jobs or shards, at the end, as one pass gives it.
    func testAWrongAddressedCountIsOneFindingWithAnyJobsOrShards() throws {
        let good = Gzip.compress(SyntheticTiles.tile(z: 2, x: 1, y: 1, density: 0.2))
        let entries = (0..<5).map { PMTiles.Entry(tileID: UInt64($0) * 7, offset: 0, length: UInt64(good.count), runLength: 1) }
        let path = try archive(entries, blobs: good, addressed: .max)
        let one = try profile(path)
        XCTAssertEqual(one.shown.filter { $0.contains("[PM6]") },
                       ["error: [PM6] the header says 18446744073709551615 addressed tiles, the directories address 5"], "\(one.shown)")
        for jobs in [2, 3, 8] {
            var p = DatasetProfile(zoom: 3, keep: 5)
            try p.profile(path: path, jobs: jobs)
            XCTAssertEqual(p.shown, one.shown, "jobs \(jobs)")
            XCTAssertEqual(p.errors, one.errors, "jobs \(jobs)")
        }
        let dataset = try DatasetProfile.shardDataset(path: path)
        for n in [1, 2, 3, 9] {
            let shards = try (0..<n).map { i in
                var p = DatasetProfile(zoom: 3, keep: 5)
                try p.profile(path: path, shard: (i, n))
                return p.shard(index: i, count: n, dataset: dataset)
            }
            let merged = try DatasetProfile(merging: shards.shuffled())
            XCTAssertEqual(merged.shown, one.shown, "\(n) shards")
            XCTAssertEqual(merged.errors, one.errors, "\(n) shards")
        }
    }

    func profile(_ path: String) throws -> DatasetProfile {
        var p = DatasetProfile(zoom: 3, keep: 5)
        try p.profile(path: path)
        return p
    }

    func testARunCountsAsItsTilesProfiledOneByOne() throws {
        let good = Gzip.compress(SyntheticTiles.tile(z: 2, x: 1, y: 1, density: 0.2))
        let broken = Gzip.compress([0x1A, 0x05, 0x0A])
        let blobs = good + broken
        let g = UInt64(good.count), b = UInt64(broken.count)
        // Runs that cross zooms (ids 3...400 span z1-z4), sharing one of two blobs.
        let runs = [PMTiles.Entry(tileID: 3, offset: 0, length: g, runLength: 200),
                    PMTiles.Entry(tileID: 203, offset: g, length: b, runLength: 50),
                    PMTiles.Entry(tileID: 253, offset: 0, length: g, runLength: 148)]
        var singles: [PMTiles.Entry] = []
        for e in runs { for k in 0..<e.runLength { singles.append(PMTiles.Entry(tileID: e.tileID + k, offset: e.offset, length: e.length, runLength: 1)) } }
        let a = try profile(try archive(runs, blobs: blobs))
        let s = try profile(try archive(singles, blobs: blobs))
        XCTAssertEqual(a.tiles, 398)
        XCTAssertEqual(a.tiles, s.tiles)
        XCTAssertEqual(a.features, s.features)
        XCTAssertGreaterThan(a.features, 0)
        XCTAssertEqual(a.byType, s.byType)
        XCTAssertEqual(a.vertices, s.vertices)
        XCTAssertEqual(a.properties, s.properties)
        XCTAssertEqual(a.keyCounts, s.keyCounts)
        XCTAssertEqual(a.coverage, s.coverage)
        XCTAssertEqual(a.coverageSkipped, s.coverageSkipped)
        XCTAssertEqual(a.tileSizes, s.tileSizes)
        XCTAssertEqual(a.rawBytes, s.rawBytes)
        XCTAssertEqual(a.layers.mapValues { [$0.features, $0.tiles] }, s.layers.mapValues { [$0.features, $0.tiles] })
        XCTAssertEqual(a.errors, s.errors)
        XCTAssertEqual(a.errors, 50)
        XCTAssertEqual(a.warnings, s.warnings)
    }

    /// One entry addressing 10^10 tiles (z0 to z17) from a file of a few hundred bytes.
    func testARunOfTenBillionTilesIsCountedExactly() throws {
        let good = Gzip.compress(SyntheticTiles.tile(z: 2, x: 1, y: 1, density: 0.05))
        let n: UInt64 = 10_000_000_000
        let path = try archive([PMTiles.Entry(tileID: 0, offset: 0, length: UInt64(good.count), runLength: n)], blobs: good)
        let p = try profile(path)
        XCTAssertEqual(p.tiles, Int(n))
        XCTAssertEqual(p.tileSizes.values.reduce(0) { $0 + $1.count }, Int(n))
        XCTAssertEqual(p.tileSizes[0]?.count, 1)
        XCTAssertEqual(p.tileSizes[16]?.count, 1 << 32)
        XCTAssertEqual(p.errors, 0)
        // Every tile from z3 down counts its features at its z3 ancestor.
        let perTile = p.features / Int(n)
        XCTAssertEqual(p.features % Int(n), 0)
        XCTAssertEqual(p.coverage.values.reduce(0, +), perTile * (Int(n) - 21))
        XCTAssertEqual(p.coverageSkipped, 21)
        let reader = try PMTilesReader(path: path)
        XCTAssertEqual(reader.verify(), [])
    }

    /// Groups of 4^d consecutive Hilbert ids of one zoom fill one tile d zooms up, which the
    /// run's coverage relies on.
    func testAlignedHilbertGroupsShareTheirAncestor() {
        for z in 1...7 {
            let base = PMTiles.firstTileID(zoom: z)
            XCTAssertEqual(PMTiles.tile(id: base), TileID(z: z, x: 0, y: 0))
            XCTAssertEqual(PMTiles.tile(id: base - 1)?.z, UInt8(z - 1))
            for d in 1...z {
                let group = UInt64(1) << UInt64(2 * d)
                var position: UInt64 = 0
                while position < UInt64(1) << UInt64(2 * z) {
                    let first = PMTiles.tile(id: base + position)!
                    let ancestor = (first.x >> UInt32(d), first.y >> UInt32(d))
                    for k in stride(from: position, to: position + group, by: max(1, Int(group / 7))) {
                        let t = PMTiles.tile(id: base + k)!
                        XCTAssertTrue((t.x >> UInt32(d), t.y >> UInt32(d)) == ancestor, "z\(z) d\(d) id \(k)")
                    }
                    position += group
                }
            }
        }
    }
}
