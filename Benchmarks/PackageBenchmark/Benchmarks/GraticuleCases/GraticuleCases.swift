import Benchmark
import BenchKit
import Foundation
import Workloads

// Every in-process case of Graticule's default suite (quick datasets; with
// GRATICULE_CORPORA=PATH, the real-world files of a corpora folder too) as a package-benchmark
// benchmark named `benchmark|implementation|dataset|parameters`, one operation per iteration.
// Select with package-benchmark's own filter: swift package benchmark --filter 'geojson.parse.*'.
let benchmarks: @Sendable () -> Void = {
    let corpora = ProcessInfo.processInfo.environment["GRATICULE_CORPORA"]
    guard let suite = try? DefaultSuite.make(quick: true, dataDirectory: corpora) else {
        fatalError("Graticule's default suite could not be built")
    }
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal],
                                           maxDuration: .seconds(1), maxIterations: 1_000)
    for c in suite.selected(quick: true, filter: nil) {
        guard case .inProcess(let setup) = c.body else { continue }
        Benchmark(c.id.description) { benchmark in
            // Untimed: the dataset is loaded and the work prepared before measuring starts.
            let workload = try setup(c.dataset)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { workload.run(1) }
        }
    }
}
