import BenchKit
import DatasetProfile
import Foundation
import GeoJSON

/// `geojson.profile`: what `graticule geojson stats` (parameter `tool=stats`: column
/// batches, property names without values, `FeatureStatistics.add(batch:)`) and
/// `graticule profile --jobs 1` (`tool=profile`) do with a GeoJSON file, read from the
/// file as the commands read it, so that their throughput stands beside `geojson.parse` of
/// the same dataset in one run. Registered last, on the GeoJSON datasets the suite already
/// holds.
enum ProfileBenchmarks {
    static func register(in suite: inout BenchmarkSuite) {
        var seen = Set<String>()
        let datasets = suite.cases.map(\.dataset).filter { $0.kind == "geojson" && seen.insert($0.name).inserted }
        // The files external programs read too: written once per run, in its scratch folder.
        let directory = RunConfiguration().scratchDirectory
        for d in datasets {
            suite.add("geojson.profile", implementation: "graticule", dataset: d, parameters: ["tool": "stats"]) { d in
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = try d.path(in: directory)
                return Workload { n in
                    for _ in 0..<n {
                        var stats = FeatureStatistics()
                        var stream = try? GeoJSONFeatureStream(path: path, skipsInvalidFeatures: true)
                        _ = try? stream?.forEachBatch(options: .propertyNamesOnly) { stats.add(batch: $0) }
                        blackHole(stats.features)
                    }
                }
            }
            suite.add("geojson.profile", implementation: "graticule", dataset: d, parameters: ["tool": "profile"]) { d in
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = try d.path(in: directory)
                return Workload { n in
                    for _ in 0..<n {
                        var profile = DatasetProfile(zoom: 6, keep: 20)
                        try? profile.profile(path: path, jobs: 1)
                        blackHole(profile.features)
                    }
                }
            }
        }
    }
}
