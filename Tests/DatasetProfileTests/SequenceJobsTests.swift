import XCTest
import DatasetProfile
import Foundation
import GeoJSON

/// GeoJSON sequence files read by several threads (`profile --jobs`) and in shards
/// (`profile --shard`, `profile merge`) give exactly the profile of one pass: counts,
/// histograms, keys, coverage and the findings in order with their element indices,
/// lines, columns and bytes.
final class SequenceJobsTests: XCTestCase {
    /// A random sequence: features on one line, features spread over several lines
    /// (valid newline-delimited elements that span cuts), truncated and trailing-content
    /// elements, bare geometries, collections, blank lines, CR LF line ends, a byte-order
    /// mark, runs of RS.
    func randomSequence(seed: UInt64, count: Int, rfc8142: Bool, multiLine: Bool) -> [UInt8] {
        var rng = SplitMix(seed)
        var text = rng.next() % 2 == 0 ? "\u{FEFF}" : ""
        for i in 0..<count {
            let x = Int(rng.next() % 360) - 180, y = Int(rng.next() % 170) - 85
            let point = "{\"type\":\"Point\",\"coordinates\":[\(x),\(y)]}"
            var element: String
            switch rng.next() % 10 {
            case 0: element = "{\"type\":\"Feature\",\"geometry\":\(point),\"properties\":{\"k\(i % 5)\":[1,2"
            case 1: element = "{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}} x"
            case 2: element = point
            case 3: element = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":\(point),\"properties\":null}]}"
            case 4 where multiLine:
                element = "{\"type\":\"Feature\",\n  \"geometry\":\(point),\r\n  \"properties\":{\"name\":\"n\(i)\"}\n}"
            case 5: element = "[1,2]"
            default: element = "{\"type\":\"Feature\",\"geometry\":\(point),\"properties\":{\"k\(i % 7)\":\(i),\"id\":\"f\(i)\"}}"
            }
            if rfc8142 {
                text += String(repeating: "\u{1E}", count: rng.next() % 8 == 0 ? 2 : 1) + element + "\n"
            } else {
                text += element + (rng.next() % 3 == 0 ? "\r\n" : "\n") + (rng.next() % 10 == 0 ? "\n  \n" : "")
            }
        }
        return Array(text.utf8)
    }

    func profile(_ path: String, jobs: Int) throws -> DatasetProfile {
        var p = DatasetProfile(zoom: 3, keep: 40)
        try p.profile(path: path, jobs: jobs)
        return p
    }

    func assertSame(_ a: DatasetProfile, _ b: DatasetProfile, _ path: String, _ what: String) {
        XCTAssertEqual(a.csv(), b.csv(), what)
        XCTAssertEqual(a.json(path: path), b.json(path: path), what)
        XCTAssertEqual(a.shown, b.shown, what)
        XCTAssertEqual(a.errors, b.errors, what)
        XCTAssertEqual(a.format, b.format, what)
    }

    func testJobsOverASequenceGiveTheFiguresOfOneJob() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            for (rfc8142, multiLine) in [(false, false), (false, true), (true, true)] {
                let path = temporaryPath(rfc8142 ? "s.geojsonseq" : "s.ndjson")
                try Data(randomSequence(seed: seed, count: 400, rfc8142: rfc8142, multiLine: multiLine))
                    .write(to: URL(fileURLWithPath: path))
                let one = try profile(path, jobs: 1)
                XCTAssertGreaterThan(one.features, 200)
                XCTAssertGreaterThan(one.errors, 20, "broken elements are findings")
                XCTAssertEqual(one.format, rfc8142 ? "GeoJSON text sequence (RFC 8142)" : "newline-delimited GeoJSON")
                for jobs in [2, 3, 5, 16, 64] {
                    assertSame(try profile(path, jobs: jobs), one, path, "seed \(seed) rfc8142 \(rfc8142) multi-line \(multiLine) jobs \(jobs)")
                }
            }
        }
    }

    /// Files with no element, or with one, and a file that ends inside an element.
    func testJobsOverEdgeFiles() throws {
        for text in ["", "\n\n  \r\n", "\u{1E}\u{1E}\n", "\u{FEFF}", "{\"type\":\"Point\",\"coordinates\":[1,2]}",
                     "{\"type\":\"Point\",\"coordinates\":[1,2]}\n{\"type\":\"Point\",\"coor",
                     "\u{1E}{\"type\":\"Point\",\"coordinates\":[1,2]}\u{1E}\u{1E}{\"type\":\"Point\"}\n"] {
            let path = temporaryPath("e.ndjson")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let one = try profile(path, jobs: 1)
            for jobs in [2, 4, 9] { assertSame(try profile(path, jobs: jobs), one, path, "\(text.debugDescription) jobs \(jobs)") }
        }
    }

    /// The parts cover the file in order and start at RS bytes or after line feeds.
    func testPartsStartBetweenElements() throws {
        for rfc8142 in [false, true] {
            let path = temporaryPath("p.ndjson")
            let bytes = randomSequence(seed: 9, count: 300, rfc8142: rfc8142, multiLine: false)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let (format, ranges) = try GeoJSONSequenceParts.ranges(path: path, count: 7)
            XCTAssertEqual(format, rfc8142 ? .rfc8142 : .newlineDelimited)
            XCTAssertEqual(ranges.count, 7)
            XCTAssertEqual(ranges.first?.lowerBound, 0)
            XCTAssertEqual(ranges.last?.upperBound, bytes.count)
            for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
            for r in ranges.dropFirst() where r.lowerBound < bytes.count {
                if rfc8142 { XCTAssertEqual(bytes[r.lowerBound], 0x1E) } else { XCTAssertEqual(bytes[r.lowerBound - 1], 0x0A) }
            }
        }
    }

    func shards(_ path: String, _ n: Int) throws -> [DatasetProfile.Shard] {
        let dataset = try DatasetProfile.shardDataset(path: path)
        return try (0..<n).map { i in
            var p = DatasetProfile(zoom: 3, keep: 40)
            try p.profile(path: path, shard: (i, n))
            let data = try JSONEncoder().encode(p.shard(index: i, count: n, dataset: dataset))
            return try JSONDecoder().decode(DatasetProfile.Shard.self, from: data)
        }
    }

    func testSequenceShardsMergeIntoOneRun() throws {
        for rfc8142 in [false, true] {
            let path = temporaryPath(rfc8142 ? "s.geojsonseq" : "s.ndjson")
            try Data(randomSequence(seed: 4, count: 500, rfc8142: rfc8142, multiLine: rfc8142))
                .write(to: URL(fileURLWithPath: path))
            let one = try profile(path, jobs: 1)
            for n in [1, 2, 3, 7, 50] {
                let merged = try DatasetProfile(merging: try shards(path, n).shuffled())
                assertSame(merged, one, path, "rfc8142 \(rfc8142), \(n) shards")
            }
        }
    }

    /// Newline-delimited elements over several lines: a cut inside one is found by the
    /// merge and refused with the reason (one pass would read that element whole), and
    /// every set that is accepted equals one pass.
    func testShardCutInsideAMultiLineElementIsRefused() throws {
        let path = temporaryPath("m.ndjson")
        try Data(randomSequence(seed: 2, count: 300, rfc8142: false, multiLine: true)).write(to: URL(fileURLWithPath: path))
        let one = try profile(path, jobs: 1)
        var refused = 0
        for n in 2...12 {
            do {
                assertSame(try DatasetProfile(merging: try shards(path, n)), one, path, "\(n) shards")
            } catch {
                XCTAssertTrue("\(error)".contains("an element spans the cut"), "\(error)")
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 0, "some cut falls inside a multi-line element")
    }
}

/// A small deterministic generator for the tests' random files.
struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
