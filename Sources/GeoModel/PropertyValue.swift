/// A feature property value. Numbers keep their kind: integers stay exact up to 64 bits,
/// so an id or a count survives a round trip through any source format.
///
/// GeoJSON properties may nest (RFC 7946 §3.2: "any JSON object"): `array` and `object`
/// hold them. Objects keep their members in source order (`PropertyList`).
public enum PropertyValue: Equatable, Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([PropertyValue])
    case object(PropertyList)

    /// True for `array` and `object`, which formats without nesting (MVT 2.1) cannot hold.
    public var isNested: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}

/// Members of a JSON object in source order.
///
/// Lookup by key is a linear scan, which beats hashing for the handful of properties a
/// typical feature has; build a dictionary when you need many lookups on wide objects.
/// Duplicate keys are not stored: readers apply their duplicate policy before appending.
public struct PropertyList: Equatable, Hashable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public var keys: [String]
    public var values: [PropertyValue]

    public init() {
        keys = []
        values = []
    }

    public init(_ members: [(key: String, value: PropertyValue)]) {
        keys = members.map(\.key)
        values = members.map(\.value)
    }

    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        keys = elements.map(\.0)
        values = elements.map(\.1)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    public subscript(position: Int) -> (key: String, value: PropertyValue) {
        (keys[position], values[position])
    }

    /// The value of the first member named `key`.
    ///
    /// - Complexity: O(n).
    public subscript(key: String) -> PropertyValue? {
        guard let i = keys.firstIndex(of: key) else { return nil }
        return values[i]
    }

    /// Appends a member (does not check for an existing one).
    public mutating func append(key: String, value: PropertyValue) {
        keys.append(key)
        values.append(value)
    }

    /// Sets `key` to `value`, replacing the first member of that name or appending.
    public mutating func set(_ key: String, _ value: PropertyValue) {
        if let i = keys.firstIndex(of: key) { values[i] = value } else { append(key: key, value: value) }
    }

    /// Removes every member named `key`.
    public mutating func remove(_ key: String) {
        while let i = keys.firstIndex(of: key) {
            keys.remove(at: i)
            values.remove(at: i)
        }
    }

    public mutating func removeAll(keepingCapacity: Bool = false) {
        keys.removeAll(keepingCapacity: keepingCapacity)
        values.removeAll(keepingCapacity: keepingCapacity)
    }
}

extension PropertyValue {
    /// The value with every number in one form per mathematical value: an integral number
    /// that fits 64 bits becomes `.int` (or `.uint` at 2^63 and above), any other stays
    /// `.double`; arrays and objects recursively. JSON does not distinguish `1`, `1.0` and
    /// `1e0`, so comparisons of data (a diff's "did this change?") go through this form,
    /// while a reader keeps the form it read for writing back.
    public var numbersCanonical: PropertyValue {
        switch self {
        case .uint(let u) where u <= UInt64(Int64.max): return .int(Int64(u))
        case .double(let d):
            if d == d.rounded(.towardZero) {
                if d >= -0x1p63 && d < 0x1p63 { return .int(Int64(d)) }
                if d >= 0 && d < 0x1p64 { return .uint(UInt64(d)) }
            }
            return self
        case .array(let a): return .array(a.map(\.numbersCanonical))
        case .object(let o):
            var c = o
            c.values = o.values.map(\.numbersCanonical)
            return .object(c)
        default: return self
        }
    }

    /// Whether two values are the same JSON value: equal with numbers compared as numbers
    /// (`1 == 1.0`), member order of objects significant as in `==`.
    public func sameJSONValue(as other: PropertyValue) -> Bool {
        self == other || numbersCanonical == other.numbersCanonical
    }
}
