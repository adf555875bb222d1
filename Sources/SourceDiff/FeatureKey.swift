/// The identity of a feature in a data source: a string or a number, never conflated
/// (`"1"` and `1` are different features, as in RFC 7946 §3.2 where `id` is either).
///
/// This module will hold the keyed store, diffing, merging and touched tiles; the key is
/// its first piece.
public enum FeatureKey: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    /// An integral number id, kept exact up to 64 bits.
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
