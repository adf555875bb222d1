// swift-tools-version:6.1
import PackageDescription

// Graticule's workloads and datasets as ordo-one/package-benchmark benchmarks, for teams
// whose suite already runs `swift package benchmark`. A package of its own, so that the root
// package's dependency graph stays free of package-benchmark.
let package = Package(
    name: "GraticulePackageBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Graticule", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "GraticuleCases",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Workloads", package: "Graticule"),
                .product(name: "BenchKit", package: "Graticule"),
            ],
            path: "Benchmarks/GraticuleCases",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
