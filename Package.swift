// swift-tools-version:6.0
import PackageDescription

// Graticule: fast cores for map data sources (GeoJSON, PBF/MVT, tile coverage, source diffing)
// and the benchmark and conformance suite that proves them right and fast.
//
// This manifest is the module map: Sources/README.md says what each module owns, and
// Tests/PackageStructureTests fails when a module imports what its target does not depend on
// here, or when that table or GraticuleTool's DocC landing page lists other modules.

let package = Package(
    name: "Graticule",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PBF", targets: ["PBF"]),
        .library(name: "GeoModel", targets: ["GeoModel"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "GeoJSON", targets: ["GeoJSON"]),
        .library(name: "VectorTile", targets: ["VectorTile"]),
        .library(name: "TileCover", targets: ["TileCover"]),
        .library(name: "SourceDiff", targets: ["SourceDiff"]),
        .library(name: "BenchKit", targets: ["BenchKit"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .library(name: "TileArchive", targets: ["TileArchive"]),
        .library(name: "GPX", targets: ["GPX"]),
        .library(name: "SourceDiffJSON", targets: ["SourceDiffJSON"]),
        .library(name: "DatasetProfile", targets: ["DatasetProfile"]),
        .library(name: "Workloads", targets: ["Workloads"]),
        .library(name: "CorpusGenerators", targets: ["CorpusGenerators"]),
        .library(name: "GraticuleTool", targets: ["GraticuleTool"]),
        .executable(name: "graticule", targets: ["graticule"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Runtime only, for the swift-protobuf peer in the benchmarks (its code is generated
        // once with protoc-gen-swift and committed).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `swift package generate-documentation`: the DocC catalogs beside each module's sources.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", path: "Sources/CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .target(name: "GraticuleSupport"),
        .target(name: "PBF", dependencies: ["CVarintBlock"]),
        // JSON for archive metadata.
        .target(name: "TileArchive", dependencies: ["CSQLite", "CZlib", "CBrotli", "CZstd", "PBF", "TileCover", "JSON", "GeoModel"]),
        .target(name: "GeoModel"),
        // RFC 8259: the tokenizer over a read window, exact numbers, the value reader and writer.
        // Values are GeoModel's `PropertyValue`.
        .target(name: "JSON", dependencies: ["GeoModel", "CJSONSkip"], exclude: ["Internals/generate_pow5.py"]),
        .target(name: "GeoJSON", dependencies: ["JSON", "GeoModel", "CJSONSkip"]),
        // JSON's C kernels: the skipper of valid JSON values (SSE2 string scans on x86-64)
        // and the structural index of 64-byte blocks, inline C in their headers.
        .target(name: "CJSONSkip"),
        // PBF's SIMD kernels (x86: the SSSE3 zigzag pair decoder, the SSE2 pair bound check):
        // inline C in its header, compiled into the modules that use it.
        .target(name: "CVarintBlock"),
        .target(name: "VectorTile", dependencies: ["PBF", "GeoModel"]),
        .target(name: "TileCover", dependencies: ["GeoModel"]),
        .target(name: "GPX", dependencies: ["GeoModel"]),
        .target(name: "SourceDiff", dependencies: ["GeoModel", "TileCover"]),
        .target(name: "SourceDiffJSON", dependencies: ["SourceDiff", "GeoJSON", "JSON", "GeoModel"]),
        .target(name: "DatasetProfile", dependencies: ["GeoJSON", "JSON", "GeoModel", "VectorTile", "TileArchive", "TileCover", "GraticuleSupport"]),
        // BenchKit links no allocator: timing runs under the system's, and allocation metrics come
        // from a child process with jemalloc preloaded (AllocationCounter), found at run time.
        .target(name: "BenchKit", dependencies: ["GraticuleSupport"]),
        .target(name: "Conformance", dependencies: ["PBF", "VectorTile", "GeoJSON", "JSON", "GeoModel", "TileCover", "TileArchive", "GraticuleSupport", "ConformanceData"]),
        // The project's own suites and the rule catalogue, as resources: `conform` finds them
        // from any folder, beside any executable that links Conformance.
        .target(
            name: "ConformanceData",
            path: "corpora/conformance",
            sources: ["ConformanceData.swift"],
            resources: [.copy("rules.tsv"), .copy("pbf-varint"), .copy("geojson-seq"), .copy("tile-math"), .copy("pmtiles")]
        ),
        .target(
            name: "CorpusGenerators",
            dependencies: ["PBF", "GraticuleSupport", "TileArchive", "TileCover"],
            path: "corpora/Generators"
        ),
        .target(
            name: "SwiftProtobufPeer",
            dependencies: ["Workloads", "BenchKit", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Benchmarks/Peers/SwiftProtobufPeer",
            exclude: ["vector_tile.proto"]
        ),
        .target(
            name: "Workloads",
            dependencies: ["BenchKit", "PBF", "GeoModel", "GeoJSON", "JSON", "SourceDiff", "TileCover", "VectorTile", "CorpusGenerators", "GraticuleSupport", "GPX", "DatasetProfile", "TileArchive"],
            path: "Benchmarks/Suites"
        ),
        .target(
            name: "GraticuleTool",
            dependencies: [
                "BenchKit", "Conformance", "Workloads", "CorpusGenerators", "TileArchive", "GeoJSON", "GeoModel",
                "SourceDiff", "SourceDiffJSON", "TileCover", "GPX", "VectorTile", "DatasetProfile", "GraticuleSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The executable adds the swift-protobuf peer; the embeddable GraticuleTool does not
        // link swift-protobuf.
        .executableTarget(name: "graticule", dependencies: ["GraticuleTool", "Workloads", "SwiftProtobufPeer"], exclude: ["README.md"]),

        // Helpers the test targets share (data paths, the seeded generator's test helpers).
        .target(name: "GraticuleTestSupport", dependencies: ["GraticuleSupport"], path: "Tests/Support"),
        .testTarget(name: "PBFTests", dependencies: ["PBF", "CVarintBlock", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "GeoModelTests", dependencies: ["GeoModel"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "CJSONSkip", "GeoModel", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "GeoJSONTests", dependencies: ["GeoJSON", "JSON", "CJSONSkip", "GeoModel", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "VectorTileTests", dependencies: ["VectorTile", "PBF", "GeoModel", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "TileCoverTests", dependencies: ["TileCover", "GPX", "GeoModel", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "GPXTests", dependencies: ["GPX", "GeoModel", "GraticuleTestSupport", "CorpusGenerators"]),
        .testTarget(name: "SourceDiffTests", dependencies: ["SourceDiff", "SourceDiffJSON", "GeoModel", "TileCover", "GeoJSON", "CorpusGenerators"]),
        .testTarget(name: "TileArchiveTests", dependencies: ["TileArchive", "TileCover", "CorpusGenerators", "GraticuleTestSupport"]),
        .testTarget(name: "DatasetProfileTests", dependencies: ["DatasetProfile", "TileCover", "GeoModel", "CorpusGenerators", "TileArchive", "GeoJSON", "CSQLite", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "BenchKitTests", dependencies: ["BenchKit", "GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "GraticuleSupportTests", dependencies: ["GraticuleSupport", "GraticuleTestSupport"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "ConformanceData", "TileArchive", "GraticuleSupport", "PBF", "VectorTile", "GeoJSON", "GeoModel", "GraticuleTestSupport"]),
        .testTarget(name: "CorpusGeneratorsTests", dependencies: ["CorpusGenerators", "PBF", "VectorTile", "GraticuleSupport", "TileArchive",
                                                                "TileCover", "GraticuleTestSupport"]),
        .testTarget(name: "PackageStructureTests", dependencies: ["GraticuleTestSupport"]),
        .testTarget(name: "GraticuleToolTests", dependencies: ["GraticuleTool", "CorpusGenerators", "GeoJSON", "GeoModel", "SourceDiff", "TileCover",
                                                             "GraticuleTestSupport"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads", "BenchKit", "GeoJSON", "GeoModel", "TileCover", "VectorTile", "SourceDiff",
                                                           "GraticuleSupport", "GraticuleTestSupport"]),
    ]
)
