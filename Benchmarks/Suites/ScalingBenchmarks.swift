import JSON
import BenchKit
import GeoJSON

/// Work that must grow linearly with its input, measured at two sizes so the ratio shows
/// it (full suite only):
///
/// - `geojson.parse [mode=stream-64k;string=1M|64M]`: one feature whose property is a
///   string of 1 MiB or 64 MiB, streamed through the feature reader in 64 KiB reads. A
///   token longer than the read window is rescanned after each refill; the refill reads at
///   least as much as it keeps, so the rescans sum to O(length).
/// - `geojson.validate [findings=1k|40k]`: a FeatureCollection whose every feature has an
///   invalid position, validated from 64 KiB reads with every finding located (line and
///   column), in time proportional to the findings.
enum ScalingBenchmarks {
    static func register(in suite: inout BenchmarkSuite) {
        for (label, size) in [("1M", 1 << 20), ("64M", 64 << 20)] {
            let d = Dataset(name: "generated/long-string-\(label)", kind: "geojson-long-token") {
                let text = #"{"type":"Feature","geometry":null,"properties":{"s":""# + String(repeating: "a", count: size) + #""}}"#
                return (Array(text.utf8), 1)
            }
            suite.add("geojson.parse", implementation: "graticule", dataset: d,
                      parameters: ["mode": "stream-64k", "string": label], quick: false) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n {
                        let reader = GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: 65_536))
                        while let f = try? reader.next() { blackHole(f) }
                    }
                }
            }
        }
        for (label, count) in [("1k", 1_000), ("40k", 40_000)] {
            let d = Dataset(name: "generated/invalid-points-\(label)", kind: "geojson-findings") {
                let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{}}"#
                let text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
                    + Array(repeating: feature, count: count).joined(separator: ",\n") + "\n]}"
                return (Array(text.utf8), count)
            }
            suite.add("geojson.validate", implementation: "graticule", dataset: d, parameters: ["findings": label],
                      quick: false) { d in
                let bytes = try d.bytes()
                let found = GeoJSONValidator.validate(source: ChunkedByteSource(bytes, chunkSize: 65_536)).findings.count
                guard found == count else { throw ScalingSetupError(expected: count, found: found) }
                return Workload { n in
                    for _ in 0..<n {
                        blackHole(GeoJSONValidator.validate(source: ChunkedByteSource(bytes, chunkSize: 65_536)).findings.count)
                    }
                }
            }
        }
    }

    struct ScalingSetupError: Error, CustomStringConvertible {
        let expected: Int, found: Int
        var description: String { "expected \(expected) findings, found \(found)" }
    }
}
