import GeoModel

/// A list of cameras read from CSV: `cover follow`'s report (`center_longitude`,
/// `center_latitude`, `bearing`, `viewport` columns: the camera, whatever the device's
/// `longitude` and `latitude` beside them say) or one written by hand (`longitude`,
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
        let lines = Self.lines(csv)
        let names = try header(lines)
        // The first name of `options` the header has: `center_longitude` before `longitude`,
        // so a follow report's camera is read, not the device location beside it.
        func column(_ options: [String]) -> Int? { options.lazy.compactMap { names.firstIndex(of: $0) }.first }
        guard let lon = column(["center_longitude", "longitude"]), let lat = column(["center_latitude", "latitude"]) else {
            throw ParseError(line: 1, reason: "the header needs a longitude (or center_longitude) and a latitude (or center_latitude) column")
        }
        let z = column(["zoom"]), b = column(["bearing"]), p = column(["pitch"]), v = column(["viewport"])
        var out: [Camera] = []
        out.reserveCapacity(lines.count - 1)
        for (i, line) in lines.enumerated().dropFirst() {
            let f = try fields(line, line: i + 1)
            guard f.count == names.count else {
                throw ParseError(line: i + 1, reason: "\(f.count) fields, the header has \(names.count)")
            }
            func number(_ k: Int) throws(ParseError) -> Double {
                guard let d = DecimalText.parse(f[k]) else { throw ParseError(line: i + 1, reason: "\(names[k]) '\(f[k])' is not a number") }
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

    /// The column names of `csv`'s header, read as `parse` reads them (a byte order mark
    /// and quotes taken off).
    public static func columns(csv: String) throws(ParseError) -> [String] {
        try header(lines(csv))
    }

    /// The lines of `csv`, ending in LF or CRLF ("\r\n" is one Character in Swift, so both
    /// are separators), without the empty lines at its end.
    static func lines(_ csv: String) -> [Substring] {
        var lines = csv.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The names of the header line; a byte order mark before it is not part of its first name.
    static func header(_ lines: [Substring]) throws(ParseError) -> [String] {
        guard var header = lines.first else { throw ParseError(line: 1, reason: "no header line") }
        if header.first == "\u{FEFF}" { header = header.dropFirst() }
        return try fields(header, line: 1).map { String($0) }
    }

    /// The comma-separated fields of one line, RFC 4180 style: a field may be quoted
    /// (`"longitude"`, a doubled quote inside standing for one), and is then read without its
    /// quotes. A quote that does not close, or text after a closing quote, is an error naming
    /// the column (1-based character position) where it is.
    static func fields(_ line: Substring, line number: Int) throws(ParseError) -> [Substring] {
        guard line.contains("\"") else { return line.split(separator: ",", omittingEmptySubsequences: false) }
        var out: [Substring] = []
        var i = line.startIndex
        while true {
            if i < line.endIndex && line[i] == "\"" {
                var text = ""
                var j = line.index(after: i)
                while true {
                    guard j < line.endIndex else {
                        throw ParseError(line: number, reason: "the quote at column \(line.distance(from: line.startIndex, to: i) + 1) is not closed")
                    }
                    if line[j] == "\"" {
                        let next = line.index(after: j)
                        if next < line.endIndex && line[next] == "\"" { text.append("\""); j = line.index(after: next); continue }
                        j = next
                        break
                    }
                    text.append(line[j])
                    j = line.index(after: j)
                }
                out.append(Substring(text))
                guard j < line.endIndex else { return out }
                guard line[j] == "," else {
                    throw ParseError(line: number, reason: "'\(line[j])' at column \(line.distance(from: line.startIndex, to: j) + 1) follows a closing quote; a comma was expected")
                }
                i = line.index(after: j)
            } else {
                let end = line[i...].firstIndex(of: ",") ?? line.endIndex
                out.append(line[i..<end])
                guard end < line.endIndex else { return out }
                i = line.index(after: end)
            }
        }
    }
}
