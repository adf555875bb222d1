import BenchKit
import GraticuleSupport

/// The default benchmark suite: every registered core benchmark on the built-in datasets,
/// plus `baseline.memscan` on each dataset.
public enum DefaultSuite {
    /// Every benchmark the suite defines, whether or not the datasets it runs on are present
    /// (an external manifest may name any of them).
    public static let benchmarkNames: Set<String> = [
        "baseline.memscan", "pbf.varint.decode", "geojson.parse", "geojson.write", "tilecover.polygon", "tilecover.lines",
        "tilecover.points", "tilecover.camera", "tilecover.follow", "tilecover.stream", "source.update", "source.live", "diff.compute",
        "diff.merge", "mvt.decode", "mvt.encode", "geojson.validate", "geojson.profile", "tiles.load",
    ]

    /// - Parameters:
    ///   - quick: smaller datasets (the quick profile also samples less; see `RunConfiguration.quick`).
    ///   - externalManifests: paths of external implementation manifests to add.
    ///   - dataDirectory: a corpora folder laid out like ../shared/corpora; its real-world
    ///     tiles and GeoJSON files are added as datasets.
    ///   - implementations: implementations added in this process (their names must differ
    ///     from every other implementation's).
    ///   - mvtLayers: source layers to decode on their own (`mvt.decode [layer=NAME]`) on
    ///     every tile dataset, quick suite included.
    public static func make(quick: Bool, externalManifests: [String] = [], dataDirectory: String? = nil,
                            implementations: Implementations = Implementations(),
                            mvtLayers: [String] = []) throws -> BenchmarkSuite
    {
        var datasets = BuiltinDatasets.all(quick: quick)
        if let dataDirectory { datasets += CorpusDatasets.all(in: dataDirectory, quick: quick) }
        var suite = BenchmarkSuite(name: "default")
        BaselineBenchmarks.register(in: &suite, datasets: datasets)
        PBFBenchmarks.register(in: &suite, datasets: datasets)
        GeoJSONBenchmarks.register(in: &suite, datasets: datasets)
        ScalingBenchmarks.register(in: &suite)
        TileCoverBenchmarks.register(in: &suite, datasets: datasets)
        TileLayerBenchmarks.register(in: &suite, datasets: datasets)
        SourceDiffBenchmarks.register(in: &suite, datasets: datasets)
        MVTBenchmarks.register(in: &suite, datasets: datasets)
        MVTBenchmarks.registerLayers(mvtLayers, in: &suite, datasets: datasets)
        MVTBenchmarks.registerEncode(in: &suite, datasets: datasets)
        let builtIn = Set(suite.cases.map(\.implementation))
        if let clash = implementations.names.first(where: builtIn.contains) {
            throw Implementations.RegistrationError.duplicateName(clash)
        }
        implementations.register(in: &suite, datasets: datasets)
        let known = Self.benchmarkNames.union(suite.cases.map(\.name))
        let inProcess = Set(suite.cases.map(\.implementation))
        for path in externalManifests {
            let manifest = try ExternalManifest.load(path: path)
            if let unknown = manifest.unknownBenchmarks(known: known).first {
                throw FileIO.Failure(path: path, reason: "unknown benchmark '\(unknown)'; known: \(known.sorted().joined(separator: ", "))")
            }
            if inProcess.contains(manifest.implementation) {
                throw FileIO.Failure(path: path, reason: "implementation '\(manifest.implementation)' is an in-process implementation's name")
            }
            for c in manifest.cases(datasets: datasets) { suite.add(c) }
        }
        ProfileBenchmarks.register(in: &suite)
        return suite
    }
}
