// swift-tools-version:6.0
import PackageDescription

// A package that brings its own implementations to Graticule: it depends on Graticule's
// products and gets the whole `graticule` command line with them added beside graticule's.
// Here it depends on the repository by path; a package elsewhere names Graticule's
// repository and a version (Sources/CHANGELOG.md lists what each version changed):
//
//     .package(url: "<Graticule's repository URL>", from: "0.1.0"),
let package = Package(
    name: "CustomImplementations",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Graticule", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "my-graticule",
            dependencies: [
                .product(name: "GraticuleTool", package: "Graticule"),
                .product(name: "Workloads", package: "Graticule"),
                .product(name: "TileCover", package: "Graticule"),
                .product(name: "GeoModel", package: "Graticule"),
            ]
        ),
    ]
)
