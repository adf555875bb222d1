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
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20 + 4096)
        func drain(_ force: Bool) throws {
            guard force || buffer.count >= 1 << 20 else { return }
            try out.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            switch format {
            case .lines:
                let prefix = Array("\(runs.zoom)/".utf8)
                try runs.forEachRun { r in
                    var y: [UInt8] = []
                    appendDecimal(r.row, to: &y)
                    for x in r.firstColumn...r.lastColumn {
                        buffer += prefix
                        appendDecimal(x, to: &buffer)
                        buffer.append(UInt8(ascii: "/"))
                        buffer += y
                        buffer.append(UInt8(ascii: "\n"))
                        try drain(false)
                    }
                }
            case .quadkeys:
                for t in runs {
                    buffer += Array(t.quadkey.utf8)
                    buffer.append(UInt8(ascii: "\n"))
                    try drain(false)
                }
            case .geojson:
                buffer += Array(#"{"type":"FeatureCollection","features":["#.utf8)
                var first = true
                for t in runs {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    let f = TileSquares.feature(CameraTile(tile: t))
                    buffer += GeoJSONWriter.encode(GeoJSONDocument(object: .feature(f)))
                    try drain(false)
                }
                buffer += Array("]}\n".utf8)
            }
            try drain(true)
            try out.commit()
        } catch {
            out.abandon()
            throw error
        }
    }

    /// Appends the decimal digits of `v`.
    @inline(__always)
    static func appendDecimal(_ v: UInt32, to buffer: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = v, count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(d[i]) }
        }
    }
}
