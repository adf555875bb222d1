import Foundation
import GraticuleTool
import Workloads

// The whole `graticule` command line, with two implementations added.
var mine = Implementations()
do {
    try mine.add(geoJSONParser: FoundationGeoJSONParser(), name: "example.jsonserialization")
    try mine.add(tileCover: OneTileShortCover(), name: "example.one-tile-short")
} catch {
    FileHandle.standardError.write(Data("my-graticule: \(error)\n".utf8))
    exit(2)
}
GraticuleTool.main(adding: mine)
