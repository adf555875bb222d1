import BenchKit

/// The default benchmark suite: every registered core benchmark on the built-in datasets,
/// plus `baseline.memscan` on each dataset.
public enum DefaultSuite {
    /// - Parameters:
    ///   - quick: smaller datasets (the quick profile also samples less; see `RunConfiguration.quick`).
    ///   - externalManifests: paths of external implementation manifests to add.
    ///   - dataDirectory: a corpora folder laid out like ../shared/corpora; its real-world
    ///     tiles and GeoJSON files are added as datasets.
    public static func make(quick: Bool, externalManifests: [String] = [], dataDirectory: String? = nil) throws
        -> BenchmarkSuite
    {
        var datasets = BuiltinDatasets.all(quick: quick)
        if let dataDirectory { datasets += CorpusDatasets.all(in: dataDirectory, quick: quick) }
        var suite = BenchmarkSuite(name: "default")
        BaselineBenchmarks.register(in: &suite, datasets: datasets)
        PBFBenchmarks.register(in: &suite, datasets: datasets)
        GeoJSONBenchmarks.register(in: &suite, datasets: datasets)
        TileCoverBenchmarks.register(in: &suite, datasets: datasets)
        SourceDiffBenchmarks.register(in: &suite, datasets: datasets)
        MVTBenchmarks.register(in: &suite, datasets: datasets)
        MVTBenchmarks.registerSwiftProtobuf(in: &suite, datasets: datasets)
        MVTBenchmarks.registerEncode(in: &suite, datasets: datasets)
        for path in externalManifests {
            for c in try ExternalManifest.load(path: path).cases(datasets: datasets) { suite.add(c) }
        }
        return suite
    }
}
