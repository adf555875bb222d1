import JSON
import Foundation
import GeoJSON
import GeoModel
import TileCover

/// Rows of a project case file (`id<TAB>rule<TAB>input<TAB>expected`, `#` comments, a header
/// line starting with `id`).
enum CaseTable {
    enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)
        case malformed(String, Int)
        var description: String {
            switch self {
            case .unreadable(let p): return "\(p): cannot read"
            case .malformed(let p, let l): return "\(p) line \(l): expected 4 tab-separated fields"
            }
        }
    }

    static func rows(_ path: String) throws -> [[String]] {
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.unreadable(path) }
        var out: [[String]] = []
        for (n, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("id\t") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4 else { throw LoadError.malformed(path, n + 1) }
            out.append(f)
        }
        return out
    }

    /// `\x1e`, `\n`, `\t` and `\\` escapes to bytes.
    static func unescape(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        let b = Array(s.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                switch b[i + 1] {
                case UInt8(ascii: "n"): out.append(0x0A); i += 2; continue
                case UInt8(ascii: "t"): out.append(0x09); i += 2; continue
                case UInt8(ascii: "\\"): out.append(0x5C); i += 2; continue
                case UInt8(ascii: "x") where i + 3 < b.count:
                    if let v = UInt8(String(decoding: b[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                        out.append(v); i += 4; continue
                    }
                default: break
                }
            }
            out.append(b[i]); i += 1
        }
        return out
    }
}

/// Web Mercator tile math (`corpora/conformance/tile-math/cases.tsv`, written for this
/// project from tilecover.md §5 and §6.5): point → tile with the WebMercatorQuad edge rules,
/// quadkeys, the TMS flip, tile bounds and parents. Each case's input is one operation,
/// `tile LON LAT Z`, `quadkey X Y Z`, `tms X Y Z`, `bounds X Y Z` or `parent X Y Z`; an
/// expected output of `reject` means the arguments must be refused.
public struct TileMathSuite: ConformanceSuite {
    public let name = "tile-math"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        try CaseTable.rows(directory + "/cases.tsv").map { f in
            ConformanceCase(id: f[0], rule: f[1], input: Array(f[2].utf8),
                            expected: f[3] == "reject" ? .reject(errorClass: nil) : .accept(output: f[3]))
        }
    }

    /// Bounds are printed with nine decimals, -0 as 0.
    public static func format(_ v: Double) -> String {
        let s = String(format: "%.9f", v)
        return s == "-0.000000000" ? "0.000000000" : s
    }

    public static var graticule: ConformanceImplementation {
        ConformanceImplementation(name: "graticule") { c in
            let parts = String(decoding: c.input, as: UTF8.self).split(separator: " ").map(String.init)
            guard parts.count == 4 else { return .rejected(errorClass: "usage", detail: "bad case input") }
            if parts[0] == "tile" {
                guard let lon = Double(parts[1]), let lat = Double(parts[2]), let z = Int(parts[3]),
                      (0...Int(TileID.maxZoom)).contains(z) else { return .rejected(errorClass: "invalid", detail: "arguments") }
                let t = WebMercator.tile(longitude: lon, latitude: lat, zoom: z)
                return .accepted(output: "\(t.x) \(t.y)")
            }
            guard let x = Int(parts[1]), let y = Int(parts[2]), let z = Int(parts[3]) else {
                return .rejected(errorClass: "invalid", detail: "arguments")
            }
            guard let t = TileID(z: z, x: x, y: y) else { return .rejected(errorClass: "invalid", detail: "no tile \(z)/\(x)/\(y)") }
            switch parts[0] {
            case "quadkey": return .accepted(output: t.quadkey)
            case "tms": return .accepted(output: "\(t.x) \(t.tmsY)")
            case "parent":
                guard let p = t.parent else { return .rejected(errorClass: "invalid", detail: "z0 has no parent") }
                return .accepted(output: "\(p.x) \(p.y) \(p.z)")
            case "bounds":
                let b = t.bounds
                return .accepted(output: [b.west, b.south, b.east, b.north].map(format).joined(separator: " "))
            default: return .rejected(errorClass: "usage", detail: "unknown operation \(parts[0])")
            }
        }
    }
}

/// GeoJSON text sequences (`corpora/conformance/geojson-seq/cases.tsv`, written for this
/// project from RFC 8142 §2 and RFC 7464 §2): detected format, the object types read in
/// order, and the positions of broken elements. Every input is also read one byte per chunk,
/// and the two readings must agree.
public struct GeoJSONSeqSuite: ConformanceSuite {
    public let name = "geojson-seq"
    public init() {}

    public func loadCases(from directory: String) throws -> [ConformanceCase] {
        try CaseTable.rows(directory + "/cases.tsv").map { f in
            ConformanceCase(id: f[0], rule: f[1], input: CaseTable.unescape(f[2]), expected: .accept(output: f[3]))
        }
    }

    static func describe(_ input: [UInt8], chunk: Int) -> String {
        let reader = GeoJSONSequenceReader(source: ChunkedByteSource(input, chunkSize: chunk), chunkSize: max(chunk, 16))
        var types: [String] = []
        while true {
            let o: GeoObject?
            do { o = try reader.next() } catch { return "error \(error)" }
            guard let o else { break }
            switch o {
            case .geometry(let g): types.append(g.kind.rawValue)
            case .feature: types.append("Feature")
            case .featureCollection: types.append("FeatureCollection")
            }
        }
        let format: String
        switch reader.format {
        case .rfc8142?: format = "rfc8142"
        case .newlineDelimited?: format = "newline-delimited"
        case nil: format = "none"
        }
        let broken = reader.broken.map { String($0.index) }
        return "\(format) \(types.isEmpty ? "-" : types.joined(separator: ",")) broken:\(broken.isEmpty ? "-" : broken.joined(separator: ","))"
    }

    public static var graticule: ConformanceImplementation {
        ConformanceImplementation(name: "graticule") { c in
            let whole = describe(c.input, chunk: max(c.input.count, 1))
            let bytewise = describe(c.input, chunk: 1)
            guard whole == bytewise else {
                return .rejected(errorClass: "chunking", detail: "whole: \(whole); one byte per chunk: \(bytewise)")
            }
            return .accepted(output: whole)
        }
    }
}
