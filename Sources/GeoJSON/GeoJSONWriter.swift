import GeoModel

/// Writes GeoModel values as GeoJSON text (RFC 7946) with RFC 8259 strings and numbers.
///
/// Numbers use Swift's shortest round-trip form, so reading the text back gives the same
/// doubles; integral doubles are written without a fraction. Non-finite numbers, which JSON
/// cannot represent, are written as `null`.
public enum GeoJSONWriter {
    /// A JSON string literal with the escapes RFC 8259 §7 requires (quote, backslash and
    /// control characters below U+0020).
    ///
    /// - Complexity: O(n).
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// A JSON number (shortest round-trip), `null` for NaN and infinities.
    public static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    public static func value(_ v: PropertyValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return number(d)
        case .string(let s): return string(s)
        case .array(let a): return "[" + a.map(value).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.map { string($0.key) + ":" + value($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A geometry object (RFC 7946 §3.1), positions as [x, y].
    public static func geometry(_ g: Geometry) -> String {
        func position(_ i: Int) -> String {
            "[" + number(g.x(i)) + "," + number(g.y(i)) + "]"
        }
        func positions(_ r: Range<Int>) -> String { "[" + r.map(position).joined(separator: ",") + "]" }
        func polygon(_ parts: Range<Int>) -> String {
            "[" + parts.map { positions(g.partRange($0)) }.joined(separator: ",") + "]"
        }
        let coordinates: String
        switch g.kind {
        case .point: coordinates = position(0)
        case .multiPoint: coordinates = positions(0..<g.positionCount)
        case .lineString: coordinates = positions(g.partRange(0))
        case .multiLineString:
            coordinates = "[" + (0..<g.partStarts.count).map { positions(g.partRange($0)) }.joined(separator: ",") + "]"
        case .polygon: coordinates = polygon(g.polygonRange(0))
        case .multiPolygon:
            coordinates = "[" + (0..<g.polygonStarts.count).map { polygon(g.polygonRange($0)) }.joined(separator: ",") + "]"
        case .geometryCollection:
            return "{\"type\":\"GeometryCollection\",\"geometries\":[" + g.geometries.map(geometry).joined(separator: ",") + "]}"
        }
        return "{\"type\":\"\(g.kind.rawValue)\",\"coordinates\":\(coordinates)}"
    }

    /// A Feature object (RFC 7946 §3.2); a nil geometry is written as `null`.
    public static func feature(id: PropertyValue? = nil, geometry g: Geometry?,
                               properties: [(key: String, value: PropertyValue)]) -> String {
        var out = "{\"type\":\"Feature\""
        if let id { out += ",\"id\":" + value(id) }
        out += ",\"geometry\":" + (g.map(geometry) ?? "null")
        out += ",\"properties\":{" + properties.map { string($0.key) + ":" + value($0.value) }.joined(separator: ",") + "}}"
        return out
    }
}
