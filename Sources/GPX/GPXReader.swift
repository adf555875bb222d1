import GeoModel

public enum GPXReader {
    /// Reads every track, route and waypoint position of a GPX document.
    ///
    /// - Throws: `GPXError` for malformed XML (an unterminated tag, comment or attribute,
    ///   mismatched end tags), a point without a numeric `lat` or `lon`, or a latitude
    ///   outside ±90 / longitude outside ±180.
    /// - Complexity: O(bytes).
    public static func read(_ bytes: [UInt8]) throws(GPXError) -> GPXDocument {
        var s = _GPXScanner(bytes)
        return try s.document()
    }
}

struct _GPXScanner {
    let b: [UInt8]
    var i = 0
    var doc = GPXDocument()
    var stack: [String] = []
    /// The track or route point whose element is open, and the stack depth with it pushed.
    var openPoint: (slot: PointSlot, depth: Int)?
    /// The point just recorded by `element`, until its start tag is known not to be
    /// self-closing.
    var pendingPoint: PointSlot?
    /// An open heading element inside a point: its name, where its text starts, its depth.
    var openCourse: (name: String, contentStart: Int, depth: Int)?

    enum PointSlot { case track, route }

    init(_ bytes: [UInt8]) {
        b = bytes
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
    }

    func error(_ reason: String, at offset: Int) -> GPXError {
        var line = 1, col = 1
        for k in 0..<min(offset, b.count) {
            if b[k] == UInt8(ascii: "\n") { line += 1; col = 1 } else if b[k] & 0xC0 != 0x80 { col += 1 }
        }
        return GPXError(reason: reason, offset: offset, line: line, column: col)
    }

    /// Moves past `terminator`, or throws `reason` at `start` when it never comes.
    mutating func skip(past terminator: [UInt8], reason: String, start: Int) throws(GPXError) {
        var k = i
        while k + terminator.count <= b.count {
            if matches(terminator, at: k) {
                i = k + terminator.count
                return
            }
            k += 1
        }
        throw error(reason, at: start)
    }

    func matches<C: Collection>(_ u: C, at k: Int) -> Bool where C.Element == UInt8 {
        guard k + u.count <= b.count else { return false }
        var j = k
        for c in u {
            if b[j] != c { return false }
            j += 1
        }
        return true
    }

    func starts(_ s: StaticString, at k: Int) -> Bool {
        matches(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount), at: k)
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    static func isNameByte(_ c: UInt8) -> Bool {
        !(isSpace(c) || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
          || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'"))
    }

    mutating func name() -> String {
        let start = i
        while i < b.count && Self.isNameByte(b[i]) { i += 1 }
        var n = String(decoding: b[start..<i], as: UTF8.self)
        if let colon = n.lastIndex(of: ":") { n = String(n[n.index(after: colon)...]) }
        return n
    }

    /// The encoding the XML declaration names (lowercased), or nil without one.
    func declaredEncoding() -> String? {
        guard starts("<?xml", at: i), let end = (i..<min(b.count, i + 512)).first(where: { b[$0] == UInt8(ascii: ">") }) else { return nil }
        let key = Array("encoding".utf8)
        guard let at = (i..<end).first(where: { matches(key, at: $0) }) else { return nil }
        let decl = String(decoding: b[(at + key.count)..<end], as: UTF8.self)
        let rest = decl.drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let q = rest.first, q == "\"" || q == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != q }).lowercased()
    }

    /// Checks that the bytes are characters XML allows (XML 1.0 §2.2): UTF-8 (or a
    /// declared single-byte encoding, ISO-8859-1 or windows-1252), with no NUL and no C0
    /// control other than tab, line feed and carriage return.
    ///
    /// - Throws: `GPXError` at the first byte that is not, or for an encoding not read
    ///   (UTF-16, or another the declaration names).
    func checkCharacters() throws(GPXError) {
        if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) {
            throw error("UTF-16 is not supported (write the GPX file as UTF-8)", at: 0)
        }
        var utf8 = true
        if let e = declaredEncoding() {
            switch e {
            case "utf-8", "utf8", "us-ascii", "ascii": utf8 = true
            case "iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252": utf8 = false
            default: throw error("encoding \(e) is not supported (UTF-8, US-ASCII, ISO-8859-1 and windows-1252 are)", at: i)
            }
        }
        var k = i
        let n = b.count
        while k < n {
            let c = b[k]
            if c < 0x20 {
                guard c == 0x09 || c == 0x0A || c == 0x0D else {
                    throw error("character U+00\(c < 0x10 ? "0" : "")\(String(c, radix: 16, uppercase: true)) is not allowed in XML (XML 1.0 §2.2)", at: k)
                }
                k += 1
                continue
            }
            if c < 0x80 || !utf8 { k += 1; continue }
            guard let lead = UTF8Lead(c) else {
                throw error("invalid UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)))", at: k)
            }
            let start = k
            guard k + lead.continuations < n, lead.accepts({ b[start + $0] }) else {
                throw error("invalid UTF-8 (a sequence starting 0x\(String(c, radix: 16, uppercase: true)) is cut or malformed)", at: k)
            }
            k += lead.continuations + 1
        }
    }

    mutating func document() throws(GPXError) -> GPXDocument {
        try checkCharacters()
        var sawRoot = false
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            let start = i
            if starts("<!--", at: i) {
                i += 4; try skip(past: Array("-->".utf8), reason: "unterminated comment", start: start)
            } else if starts("<![CDATA[", at: i) {
                i += 9; try skip(past: Array("]]>".utf8), reason: "unterminated CDATA section", start: start)
            } else if starts("<?", at: i) {
                i += 2; try skip(past: Array("?>".utf8), reason: "unterminated processing instruction", start: start)
            } else if starts("<!", at: i) {
                // DOCTYPE and other declarations, with an internal subset in brackets.
                var depth = 0
                i += 2
                while i < b.count && !(b[i] == UInt8(ascii: ">") && depth == 0) {
                    if b[i] == UInt8(ascii: "[") { depth += 1 } else if b[i] == UInt8(ascii: "]") { depth -= 1 }
                    i += 1
                }
                guard i < b.count else { throw error("unterminated declaration", at: start) }
                i += 1
            } else if starts("</", at: i) {
                i += 2
                let n = name()
                while i < b.count && Self.isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: ">") else { throw error("unterminated end tag", at: start) }
                i += 1
                guard let open = stack.popLast() else { throw error("end tag </\(n)> without a start tag", at: start) }
                guard open == n else { throw error("end tag </\(n)> closes <\(open)>", at: start) }
                if let c = openCourse, c.depth == stack.count + 1 {
                    openCourse = nil
                    try course(c.name, text: c.contentStart..<start)
                }
                if let p = openPoint, p.depth == stack.count + 1 { openPoint = nil }
            } else {
                i += 1
                let n = name()
                guard !n.isEmpty else { throw error("malformed tag", at: start) }
                if stack.isEmpty {
                    guard !sawRoot else { throw error("content after the root element", at: start) }
                    sawRoot = true
                }
                var attributes: [(String, String)] = []
                var qualifiedNames: [String] = []
                var selfClosing = false
                while true {
                    while i < b.count && Self.isSpace(b[i]) { i += 1 }
                    guard i < b.count else { throw error("unterminated start tag <\(n)>", at: start) }
                    if b[i] == UInt8(ascii: ">") { i += 1; break }
                    if b[i] == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: ">") {
                        i += 2; selfClosing = true; break
                    }
                    let attrStart = i
                    let a = name()
                    let qualified = String(decoding: b[attrStart..<i], as: UTF8.self)
                    while i < b.count && Self.isSpace(b[i]) { i += 1 }
                    guard !a.isEmpty, i < b.count, b[i] == UInt8(ascii: "=") else { throw error("malformed attribute in <\(n)>", at: attrStart) }
                    i += 1
                    while i < b.count && Self.isSpace(b[i]) { i += 1 }
                    guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                        throw error("attribute \(a) without a quoted value", at: attrStart)
                    }
                    let quote = b[i]
                    i += 1
                    let valueStart = i
                    while i < b.count && b[i] != quote { i += 1 }
                    guard i < b.count else { throw error("unterminated attribute value", at: attrStart) }
                    // XML 1.0 §3.1: an attribute name appears at most once in a start tag.
                    guard !qualifiedNames.contains(qualified) else {
                        throw error("attribute \(qualified) is given twice in <\(n)> (XML 1.0 §3.1)", at: attrStart)
                    }
                    qualifiedNames.append(qualified)
                    attributes.append((a, Self.unescape(String(decoding: b[valueStart..<i], as: UTF8.self))))
                    i += 1
                }
                try element(n, attributes, at: start)
                if !selfClosing {
                    stack.append(n)
                    if let slot = pendingPoint { openPoint = (slot, stack.count) }
                    if let p = openPoint, openCourse == nil, isHeading(n, pointDepth: p.depth) {
                        openCourse = (n, i, stack.count)
                    }
                }
                pendingPoint = nil
            }
        }
        if let open = stack.last { throw error("<\(open)> is never closed", at: b.count) }
        guard sawRoot else { throw error("no root element", at: b.count) }
        return doc
    }

    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { out += rest[amp...]; return out }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var scalar: UInt32?
                if entity.hasPrefix("#x") { scalar = UInt32(entity.dropFirst(2), radix: 16) }
                else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst(), radix: 10) }
                if let v = scalar, let u = Unicode.Scalar(v) { out.unicodeScalars.append(u) } else { out += rest[amp...semi] }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    /// Records a start tag that matters: `trk`, `trkseg`, `rte`, and the points.
    mutating func element(_ n: String, _ attributes: [(String, String)], at offset: Int) throws(GPXError) {
        let parent = stack.last
        switch n {
        case "trk" where parent == "gpx":
            doc.order.append(.track(doc.tracks.count))
            doc.tracks.append([])
            doc.trackCourses.append([])
        case "trkseg" where parent == "trk":
            doc.tracks[doc.tracks.count - 1].append([])
            doc.trackCourses[doc.trackCourses.count - 1].append([])
        case "rte" where parent == "gpx":
            doc.order.append(.route(doc.routes.count))
            doc.routes.append([])
            doc.routeCourses.append([])
        case "trkpt" where parent == "trkseg":
            let t = doc.tracks.count - 1
            doc.tracks[t][doc.tracks[t].count - 1].append(try point(attributes, at: offset))
            doc.trackCourses[t][doc.trackCourses[t].count - 1].append(nil)
            pendingPoint = .track
        case "rtept" where parent == "rte":
            doc.routes[doc.routes.count - 1].append(try point(attributes, at: offset))
            doc.routeCourses[doc.routeCourses.count - 1].append(nil)
            pendingPoint = .route
        case "wpt" where parent == "gpx":
            doc.waypoints.append(try point(attributes, at: offset))
        default:
            break
        }
    }

    /// Whether element `n`, just opened, gives the open point's heading: GPX 1.0's
    /// `<course>` (a child of the point), or in the point's `<extensions>` a `course`
    /// (Garmin's TrackPointExtension), `heading` or `bearing` element.
    func isHeading(_ n: String, pointDepth: Int) -> Bool {
        if n == "course" && stack.count == pointDepth + 1 { return true }
        guard n == "course" || n == "heading" || n == "bearing", stack.count > pointDepth + 1 else { return false }
        return stack[pointDepth...].contains("extensions")
    }

    /// Records the open point's heading from the text of element `name`. GPX 1.0's own
    /// `<course>` wins over an extension's value; among extensions the first wins.
    mutating func course(_ name: String, text range: Range<Int>) throws(GPXError) {
        guard let p = openPoint else { return }
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi && Self.isSpace(b[lo]) { lo += 1 }
        while hi > lo && Self.isSpace(b[hi - 1]) { hi -= 1 }
        let text = String(decoding: b[lo..<hi], as: UTF8.self)
        // GPX's degreesType is an xsd:decimal: no exponent, no hexadecimal, no inf or nan.
        guard let v = DecimalText.parse(text, exponent: false) else {
            throw error("<\(name)> of a point is not a decimal number of degrees: '\(text.prefix(40))'", at: lo)
        }
        // GPX's degreesType (and Garmin's): 0 ≤ value < 360.
        guard v >= 0 && v < 360 else { throw error("<\(name)> \(text) is outside 0 ≤ degrees < 360", at: lo) }
        let direct = name == "course" && stack.count == p.depth
        switch p.slot {
        case .track:
            let t = doc.trackCourses.count - 1, g = doc.trackCourses[t].count - 1, k = doc.trackCourses[t][g].count - 1
            if direct || doc.trackCourses[t][g][k] == nil { doc.trackCourses[t][g][k] = v }
        case .route:
            let r = doc.routeCourses.count - 1, k = doc.routeCourses[r].count - 1
            if direct || doc.routeCourses[r][k] == nil { doc.routeCourses[r][k] = v }
        }
    }

    func point(_ attributes: [(String, String)], at offset: Int) throws(GPXError) -> GPXDocument.Point {
        // latitudeType and longitudeType are xsd:decimal: `0x10`, `1e1` or `nan` is not one.
        func value(_ key: String) -> Double? {
            attributes.last(where: { $0.0 == key }).flatMap { DecimalText.parse($0.1.trimmingSpaces(), exponent: false) }
        }
        guard let lat = value("lat"), let lon = value("lon") else {
            let bad = attributes.last(where: { ($0.0 == "lat" || $0.0 == "lon") && value($0.0) == nil })
            throw error(bad.map { "point whose \($0.0) '\($0.1.prefix(40))' is not a decimal number" }
                        ?? "point without a numeric lat and lon", at: offset)
        }
        guard abs(lat) <= 90, abs(lon) <= 180 else { throw error("point outside ±90° latitude / ±180° longitude", at: offset) }
        return GPXDocument.Point(latitude: lat, longitude: lon)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
