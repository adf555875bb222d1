/// A list of cameras read from CSV: `cover follow`'s report (`center_longitude`,
/// `center_latitude`, `bearing`, `viewport` columns) or one written by hand (`longitude`,
/// `latitude`, and optionally `zoom`, `bearing`, `pitch`, `viewport` as WIDTHxHEIGHT).
/// Columns the file lacks take the template camera's values.
public enum CameraSequence {
    /// A row or header that cannot be read, with its 1-based line number.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The cameras of `csv`, one per data row, in order; the zoom of a `zoom` column is read
    /// through `zoom` (a convention's conversion to MapLibre's count).
    ///
    /// - Throws: `ParseError` for a header without longitude and latitude columns, a row
    ///   of another width, or a value that is not a finite number (or WIDTHxHEIGHT).
    public static func parse(csv: String, template: Camera, zoom: (Double) -> Double = { $0 }) throws(ParseError) -> [Camera] {
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else { throw ParseError(line: 1, reason: "no header line") }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        func column(_ options: [String]) -> Int? { names.firstIndex { options.contains($0) } }
        guard let lon = column(["center_longitude", "longitude"]), let lat = column(["center_latitude", "latitude"]) else {
            throw ParseError(line: 1, reason: "the header needs a longitude (or center_longitude) and a latitude (or center_latitude) column")
        }
        let z = column(["zoom"]), b = column(["bearing"]), p = column(["pitch"]), v = column(["viewport"])
        var out: [Camera] = []
        out.reserveCapacity(lines.count - 1)
        for (i, line) in lines.enumerated().dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == names.count else {
                throw ParseError(line: i + 1, reason: "\(f.count) fields, the header has \(names.count)")
            }
            func number(_ k: Int) throws(ParseError) -> Double {
                guard let d = Double(f[k]), d.isFinite else { throw ParseError(line: i + 1, reason: "\(names[k]) '\(f[k])' is not a number") }
                return d
            }
            var c = template
            c.longitude = try number(lon)
            c.latitude = try number(lat)
            if let z { c.zoom = zoom(try number(z)) }
            if let b { c.bearing = try number(b) }
            if let p { c.pitch = try number(p) }
            if let v {
                guard let size = MapViewBounds.viewport(parsing: f[v]) else {
                    throw ParseError(line: i + 1, reason: "viewport '\(f[v])' is not WIDTHxHEIGHT")
                }
                c.width = size.width
                c.height = size.height
            }
            out.append(c)
        }
        return out
    }
}
