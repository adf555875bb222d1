// swift-tools-version:6.0
import PackageDescription

// Graticule: fast cores for map data sources (GeoJSON, PBF/MVT, tile coverage, source diffing)
// and the benchmark and conformance suite that proves them right and fast.
//
// Module map (see ../shared/ARCHITECTURE.md):
//   PBF, GeoModel            -- leaf modules, no dependencies
//   GeoJSON, VectorTile,
//   TileCover, SourceDiff    -- cores built on the leaves
//   BenchKit                 -- benchmark runner (no dependency on the cores)
//   Conformance              -- suites as data, run against implementations
//   GraticuleBenchmarks      -- the benchmark suites (Benchmarks/Suites)
//   CorpusGenerators         -- seeded generators of the built-in datasets (corpora/Generators)
//   graticule                -- the command-line tool

let package = Package(
    name: "Graticule",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PBF", targets: ["PBF"]),
        .library(name: "GeoModel", targets: ["GeoModel"]),
        .library(name: "GeoJSON", targets: ["GeoJSON"]),
        .library(name: "VectorTile", targets: ["VectorTile"]),
        .library(name: "TileCover", targets: ["TileCover"]),
        .library(name: "SourceDiff", targets: ["SourceDiff"]),
        .library(name: "BenchKit", targets: ["BenchKit"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .library(name: "TileArchive", targets: ["TileArchive"]),
        .executable(name: "graticule", targets: ["graticule"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Runtime only, for the swift-protobuf peer in the benchmarks (its code is generated
        // once with protoc-gen-swift and committed).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // jemalloc, found through pkg-config (Debian: libjemalloc-dev). Linking it replaces
        // malloc for every binary that links BenchKit, so the runner reads its counters.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),

        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "PBF"),
        .target(name: "TileArchive", dependencies: ["CSQLite", "CZlib", "PBF", "TileCover"]),
        .target(name: "GeoModel"),
        .target(name: "GeoJSON", dependencies: ["GeoModel"], exclude: ["Tables"]),
        // The byte-shuffle block decoder of VectorTile's geometry loop (x86 with SSSE3):
        // inline C in its header, compiled into the modules that use it.
        .target(name: "CVarintBlock"),
        .target(name: "VectorTile", dependencies: ["PBF", "GeoModel", "CVarintBlock"]),
        .target(name: "TileCover", dependencies: ["GeoModel"]),
        .target(name: "SourceDiff", dependencies: ["GeoModel", "GeoJSON", "TileCover"]),
        .target(name: "BenchKit", dependencies: ["CJemalloc"]),
        .target(name: "Conformance", dependencies: ["PBF", "VectorTile", "GeoJSON", "GeoModel", "TileCover"]),
        .target(
            name: "CorpusGenerators",
            dependencies: ["PBF"],
            path: "corpora/Generators"
        ),
        .target(
            name: "SwiftProtobufPeer",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Benchmarks/Peers/SwiftProtobufPeer",
            exclude: ["vector_tile.proto"]
        ),
        .target(
            name: "GraticuleBenchmarks",
            dependencies: ["BenchKit", "PBF", "GeoModel", "GeoJSON", "SourceDiff", "TileCover", "VectorTile", "CorpusGenerators", "SwiftProtobufPeer"],
            path: "Benchmarks/Suites"
        ),
        .executableTarget(
            name: "graticule",
            dependencies: [
                "BenchKit", "Conformance", "GraticuleBenchmarks", "CorpusGenerators", "SwiftProtobufPeer", "TileArchive", "GeoJSON", "GeoModel", "SourceDiff", "TileCover", "VectorTile",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "PBFTests", dependencies: ["PBF"]),
        .testTarget(name: "GeoModelTests", dependencies: ["GeoModel"]),
        .testTarget(name: "GeoJSONTests", dependencies: ["GeoJSON", "GeoModel"]),
        .testTarget(name: "VectorTileTests", dependencies: ["VectorTile", "GeoModel", "CVarintBlock"]),
        .testTarget(name: "TileCoverTests", dependencies: ["TileCover"]),
        .testTarget(name: "SourceDiffTests", dependencies: ["SourceDiff", "GeoModel", "TileCover"]),
        .testTarget(name: "TileArchiveTests", dependencies: ["TileArchive", "TileCover", "CorpusGenerators"]),
        .testTarget(name: "BenchKitTests", dependencies: ["BenchKit"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "PBF", "VectorTile", "GeoJSON", "GeoModel"]),
        .testTarget(name: "CorpusGeneratorsTests", dependencies: ["CorpusGenerators", "PBF", "VectorTile"]),
    ]
)
