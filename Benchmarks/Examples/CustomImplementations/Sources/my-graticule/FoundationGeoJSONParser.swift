import Foundation
import Workloads

/// A GeoJSON parser as many apps write one: `JSONSerialization` into dictionaries and
/// arrays. It checks only that the text is a JSON object with a string `type`.
struct FoundationGeoJSONParser: GeoJSONParsing {
    struct NotGeoJSON: Error {}

    func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              object["type"] is String else { throw NotGeoJSON() }
        return object
    }

    func digest(_ document: [String: Any], into digest: inout GeoJSONDigest) {
        func positions(_ value: Any?) {
            guard let array = value as? [Any] else { return }
            if let x = array.first as? NSNumber, array.count >= 2, let y = array[1] as? NSNumber {
                digest.position(Self.double(x), Self.double(y))
            } else {
                array.forEach(positions)
            }
        }
        func geometry(_ g: [String: Any]?) {
            guard let g else { return }
            positions(g["coordinates"])
            (g["geometries"] as? [[String: Any]])?.forEach(geometry)
        }
        func feature(_ f: [String: Any]) {
            digest.feature()
            geometry(f["geometry"] as? [String: Any])
            for (key, value) in f["properties"] as? [String: Any] ?? [:] { digest.property(key, Self.value(value)) }
        }
        switch document["type"] as? String {
        case "FeatureCollection": (document["features"] as? [[String: Any]])?.forEach(feature)
        case "Feature": feature(document)
        default: geometry(document)
        }
    }

    /// A number's value, correctly rounded. On Linux, JSONSerialization returns some
    /// numbers as NSDecimalNumber, whose `doubleValue` is not the nearest double
    /// (133.3339996337890625 comes out 2 ULP off); its decimal text read with `Double(_:)`
    /// is. Without this, the runner reports this parser `wrong` on the real-world datasets.
    static func double(_ n: NSNumber) -> Double {
        if n is NSDecimalNumber, let d = Double(n.stringValue) { return d }
        return n.doubleValue
    }

    static func value(_ v: Any) -> DigestValue {
        switch v {
        case is NSNull: return .null
        case let s as String: return .string(s)
        case let n as NSNumber:
            // JSONSerialization gives true and false as NSNumber booleans.
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            return .number(double(n))
        case let a as [Any]: return .array(a.map(value))
        case let o as [String: Any]: return .object(o.map { ($0.key, value($0.value)) })
        default: return .string("\(v)")
        }
    }
}
