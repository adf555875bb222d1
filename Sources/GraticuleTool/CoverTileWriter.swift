#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import GeoJSON
import GeoModel
import GraticuleSupport
import TileCover

/// Writes a cover's tiles as they are enumerated, through a 1 MiB buffer, to a file (whole
/// or absent) or to standard output (every write checked): memory stays bounded whatever
/// the number of tiles.
enum CoverTileWriter {
    enum Format { case lines, quadkeys, geojson }

    static func write(_ runs: TileRuns, as format: Format, to path: String?) throws {
        let out: OutputFile
        if let path { out = try OutputFile(path: path) } else {
            fflush(stdout)
            out = .standardOutput()
        }
        do {
            switch format {
            case .lines, .quadkeys:
                try runs.writeText(format == .lines ? .lines : .quadkeys) { try out.write($0) }
            case .geojson:
                var buffer: [UInt8] = []
                buffer.reserveCapacity(1 << 20 + 4096)
                buffer += Array(#"{"type":"FeatureCollection","features":["#.utf8)
                var first = true
                for t in runs {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    let f = TileSquares.feature(CameraTile(tile: t))
                    buffer += GeoJSONWriter.encode(GeoJSONDocument(object: .feature(f)))
                    if buffer.count >= 1 << 20 { try out.write(buffer); buffer.removeAll(keepingCapacity: true) }
                }
                buffer += Array("]}\n".utf8)
                try out.write(buffer)
            }
            try out.commit()
        } catch {
            out.abandon()
            throw error
        }
    }
}
