import GeoModel

/// The identity of a feature in a data source: a string or a number, never conflated
/// (`"1"` and `1` are different features, as in RFC 7946 §3.2 where `id` is either).
public enum FeatureKey: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    /// An integral number id, kept exact (signed 64 bits).
    case integer(Int64)
    /// A non-integral number id (rare, but allowed by RFC 7946). `-0.0` is stored as `0.0`.
    case number(Double)

    /// A key from a JSON number: integral values within Int64 become `.integer`, so `1` and
    /// `1.0` name the same feature, as they are the same JSON number.
    public init(number: Double) {
        if number == number.rounded(), let i = Int64(exactly: number) {
            self = .integer(i)
        } else {
            self = .number(number == 0 ? 0 : number)
        }
    }

    public var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        case .number(let d): return String(d)
        }
    }
}

extension FeatureKey {
    /// The key of a GeoJSON feature id: strings stay strings, numbers follow `init(number:)`
    /// (integers exact; an unsigned id above Int64.max becomes a `.number`, the nearest
    /// double, as it would in a JSON reader that reads numbers as doubles).
    public init(_ id: FeatureID) {
        switch id {
        case .string(let s): self = .string(s)
        case .int(let i): self = .integer(i)
        case .uint(let u): self = Int64(exactly: u).map { .integer($0) } ?? .number(Double(u))
        case .double(let d): self.init(number: d)
        }
    }

    /// The key of a promoted property value; nil for values that cannot name a feature
    /// (null, booleans, arrays, objects), as MapLibre's `promoteId` ignores them.
    public init?(_ value: PropertyValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .integer(i)
        case .uint(let u): self.init(FeatureID.uint(u))
        case .double(let d): self.init(number: d)
        default: return nil
        }
    }

    /// The key as a GeoJSON feature id.
    public var featureID: FeatureID {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i): return .int(i)
        case .number(let d): return .double(d)
        }
    }

    /// The key as a JSON value (for diffs).
    public var propertyValue: PropertyValue { featureID.propertyValue }
}
