import XCTest
import DatasetProfile
import Foundation
import GeoJSON

/// GeoJSON files read by several threads (`profile --jobs`) and sequence files in shards
/// (`profile --shard`, `profile merge`) give exactly the profile of one pass: counts,
/// histograms, keys, coverage and the findings in order with their element or feature
/// indices, member paths, lines, columns and bytes; or the error of one pass.
final class GeoJSONJobsTests: XCTestCase {
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

    /// A folder of GeoJSON files (collections and sequences, some broken) read by groups
    /// of files on several threads: the figures and findings of one job.
    func testJobsOverAFolderOfGeoJSONFiles() throws {
        let dir = temporaryPath("geojson")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for i in 0..<9 {
            let name = i % 3 == 0 ? "f\(i).ndjson" : "f\(i).geojson"
            let bytes = i % 3 == 0 ? randomSequence(seed: UInt64(i), count: 50 + 30 * i, rfc8142: false, multiLine: true)
                : Array(randomCollection(seed: UInt64(i), count: 40 * i, shape: i % 2).utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let one = try profile(dir, jobs: 1)
        XCTAssertEqual(one.format, "GeoJSON folder (9 files)")
        XCTAssertGreaterThan(one.errors, 10)
        for jobs in [2, 3, 8, 20] { assertSame(try profile(dir, jobs: jobs), one, dir, "jobs \(jobs)") }
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

    /// A random FeatureCollection: valid features, features that are not GeoJSON (skipped
    /// and reported; among them features without `geometry` and with a member RFC 7946 §7.1
    /// forbids), features holding arrays of objects (`},{` inside a feature, where a
    /// guessed cut is wrong), geometry collections; and, by `shape`, members after
    /// `features`, a duplicate `features`, a syntax error, trailing content or a cut-off end.
    func randomCollection(seed: UInt64, count: Int, shape: Int) -> String {
        var rng = SplitMix(seed)
        var features: [String] = []
        for i in 0..<count {
            let point = "{\"type\":\"Point\",\"coordinates\":[\(Int(rng.next() % 360) - 180),\(Int(rng.next() % 170) - 85)]}"
            switch rng.next() % 10 {
            case 0: features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1]},\"properties\":null}")
            case 3: features.append("{\"type\":\"Feature\",\"properties\":{\"k\":\(i)}}")
            case 4: features.append("{\"type\":\"Feature\",\"geometry\":\(point),\"properties\":null,\"geometries\":[]}")
            case 1: features.append("{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"list\":[{\"a\":1},{\"b\":\"},{\"},{\"c\":[{},{}]}]}}")
            case 2: features.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"GeometryCollection\",\"geometries\":[\(point),\(point)]},\"properties\":{}}")
            default: features.append("{\"type\":\"Feature\",\"geometry\":\(point),\"properties\":{\"k\(i % 9)\":\(i)}}")
            }
        }
        let separator = rng.next() % 2 == 0 ? "," : ",\n  "
        var body = features.joined(separator: separator)
        if shape == 3 { body = features.prefix(count / 2).joined(separator: separator) + ",{\"type\":,"
            + features.dropFirst(count / 2).joined(separator: separator) }
        switch shape {
        case 0: return "{\"type\":\"FeatureCollection\",\"features\":[\n" + body + "\n],\"bbox\":[-180,-90,180,90]}\n"
        case 1: return "\u{FEFF}{\"features\":[" + body + "],\"type\":\"FeatureCollection\"}"
        case 2: return "{\"type\":\"FeatureCollection\",\"features\":[" + body + "],\"features\":[]}"
        case 4: return "{\"type\":\"FeatureCollection\",\"features\":[" + body + "]} x"
        case 5: return "{\"type\":\"FeatureCollection\",\"features\":[" + body
        default: return "{\"type\":\"FeatureCollection\",\"features\":[" + body + "]}"
        }
    }

    /// The profile of `path` with `jobs`, or the error it ends with.
    func outcome(_ path: String, jobs: Int) -> String {
        var p = DatasetProfile(zoom: 3, keep: 30)
        do { try p.profile(path: path, jobs: jobs) } catch { return "error: \(error)" }
        return p.csv() + p.json(path: path) + p.shown.joined(separator: "\n")
    }

    func testJobsOverACollectionGiveTheFiguresOrTheErrorOfOneJob() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            for shape in 0...5 {
                let path = temporaryPath("c.geojson")
                try Data(randomCollection(seed: seed, count: 300, shape: shape).utf8).write(to: URL(fileURLWithPath: path))
                let one = outcome(path, jobs: 1)
                XCTAssertEqual(one.hasPrefix("error: "), [2, 3, 4, 5].contains(shape), "shape \(shape): \(one.prefix(200))")
                if shape <= 1 { XCTAssertTrue(one.contains("features[") && one.contains("count,features,"), "skipped features are findings") }
                for jobs in [2, 3, 7, 64] {
                    XCTAssertEqual(outcome(path, jobs: jobs), one, "seed \(seed) shape \(shape) jobs \(jobs)")
                }
            }
        }
    }

    /// A feature without `geometry` or `properties` (RFC7946-3.2) or with a member §7.1
    /// forbids (RFC7946-7.1) is an error finding, as `geojson validate` finds it, with any
    /// number of jobs; a lone Feature is one feature of a "GeoJSON Feature".
    func testViolationsReadingCouldGoPastAreErrors() throws {
        let path = temporaryPath("v.geojson")
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}},
            {"type":"Feature","properties":{"a":2}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]}},
            {"type":"Feature","geometry":null,"properties":null,"coordinates":[5,6]}
            ]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let one = try profile(path, jobs: 1)
        XCTAssertEqual(one.errors, 3)
        XCTAssertEqual(one.shown.filter { $0.contains("RFC 7946 §3.2") }.count, 2, "\(one.shown)")
        XCTAssertEqual(one.shown.filter { $0.contains("RFC 7946 §7.1") }.count, 1, "\(one.shown)")
        assertSame(one, try profile(path, jobs: 2), path, "jobs 2")
        let lone = temporaryPath("lone.geojson")
        try Data(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}"#.utf8)
            .write(to: URL(fileURLWithPath: lone))
        for jobs in [1, 2] {
            let p = try profile(lone, jobs: jobs)
            XCTAssertEqual(p.format, "GeoJSON Feature", "jobs \(jobs)")
            XCTAssertEqual(p.errors, 0)
            XCTAssertTrue(p.csv().contains("count,features,1"), p.csv())
        }
    }

    /// A Feature, a geometry, an empty collection and objects holding `},{` outside any
    /// `features` array are read whole by the first part; the guessed cuts are dropped.
    func testJobsOverOtherRootsReadThemWhole() throws {
        let inner = randomCollection(seed: 3, count: 50, shape: 0)
        for text in ["{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"c\":" + inner + "}}",
                     "{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]},{\"type\":\"Point\",\"coordinates\":[3,4]}]}",
                     "{\"type\":\"FeatureCollection\",\"features\":[]}", "{\"a\":[{},{}],\"features\":[{},{}],\"type\":\"FeatureCollection\"}",
                     "[" + inner + "," + inner + "]"] {
            let path = temporaryPath("r.geojson")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let one = outcome(path, jobs: 1)
            for jobs in [2, 5, 40] { XCTAssertEqual(outcome(path, jobs: jobs), one, "\(text.prefix(60)) jobs \(jobs)") }
        }
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
