/// An MBTiles `metadata` table read as the MBTiles 1.3 specification defines it: `name` and
/// `format` required; `bounds` (`left,bottom,right,top` in degrees), `center`
/// (`longitude,latitude,zoom`), `minzoom` and `maxzoom` expected; `json` with
/// `vector_layers` required when the tiles are `pbf`.
public struct MBTilesMetadata: Equatable, Sendable {
    /// Something missing or contradictory: `error` for a requirement, else a warning.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var error: Bool
        public var message: String
        public var description: String { "MBTiles metadata: " + message }
    }

    public var name: String?
    public var format: String?
    public var attribution: String?
    /// West, south, east, north in degrees.
    public var bounds: [Double]?
    /// Longitude, latitude, zoom.
    public var center: [Double]?
    public var minZoom: Int?
    public var maxZoom: Int?
    /// The `json` row read as archive metadata (its `vector_layers`), when present.
    public var json: ArchiveMetadata?
    public var problems: [Problem] = []

    public init(_ rows: [(String, String)]) {
        func problem(_ error: Bool, _ m: String) { problems.append(Problem(error: error, message: m)) }
        var seen = Set<String>()
        var values: [String: String] = [:]
        for (k, v) in rows {
            if !seen.insert(k).inserted { problem(true, "`\(k)` is given in more than one row") }
            values[k] = values[k] ?? v
        }
        name = values["name"]
        format = values["format"]
        attribution = values["attribution"]
        if name == nil { problem(true, "no `name` row (required)") }
        if format == nil { problem(true, "no `format` row (required: pbf, jpg, png, webp or a media type)") }
        func numbers(_ key: String, count: Int) -> [Double]? {
            guard let text = values[key] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces()) }
            guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                problem(true, "`\(key)` is \"\(text)\", not \(count) comma-separated numbers")
                return nil
            }
            return parts.map { $0! }
        }
        bounds = numbers("bounds", count: 4)
        center = numbers("center", count: 3)
        if let b = bounds {
            if b[0] < -180 || b[2] > 180 || b[1] < -90 || b[3] > 90 { problem(true, "`bounds` \(values["bounds"]!) lies beyond ±180°, ±90°") }
            if b[0] > b[2] || b[1] > b[3] { problem(true, "`bounds` \(values["bounds"]!) has a minimum above its maximum") }
        }
        func zoom(_ key: String) -> Int? {
            guard let text = values[key] else { return nil }
            guard let z = Int(text), (0...30).contains(z) else {
                problem(true, "`\(key)` is \"\(text)\", not a zoom 0–30")
                return nil
            }
            return z
        }
        minZoom = zoom("minzoom")
        maxZoom = zoom("maxzoom")
        if let lo = minZoom, let hi = maxZoom, lo > hi { problem(true, "`minzoom` \(lo) is above `maxzoom` \(hi)") }
        if let c = center {
            if let b = bounds, !(b[0]...b[2]).contains(c[0]) || !(b[1]...b[3]).contains(c[1]) {
                problem(false, "`center` \(values["center"]!) lies outside `bounds`")
            }
            if let lo = minZoom, let hi = maxZoom, lo <= hi, !(Double(lo)...Double(hi)).contains(c[2]) {
                problem(false, "`center` zoom \(c[2]) lies outside minzoom–maxzoom \(lo)–\(hi)")
            }
        }
        let vector = format?.lowercased() == "pbf"
        if let text = values["json"] {
            let m = ArchiveMetadata(text: Array(text.utf8), vector: vector)
            json = m
            for p in m.problems { problem(p.rule != "PM20", "`json`: " + p.message) }
        } else if vector {
            problem(true, "the tiles are pbf, but there is no `json` row with `vector_layers` (required)")
        }
    }

    /// Findings of the tiles against the table: zooms outside `minzoom`–`maxzoom`.
    public func check(tileZooms: [Int]) -> [Problem] {
        guard let lo = tileZooms.min(), let hi = tileZooms.max() else { return [] }
        var out: [Problem] = []
        if let m = minZoom, lo < m { out.append(Problem(error: true, message: "tiles at zoom \(lo), below `minzoom` \(m)")) }
        if let m = maxZoom, hi > m { out.append(Problem(error: true, message: "tiles at zoom \(hi), above `maxzoom` \(m)")) }
        return out
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
