import GeoModel

/// Why a diff or a store could not be applied or built. Every case names the feature.
public enum SourceDiffError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two features with the same id (in the initial data, or an `add` of an id present).
    case duplicateID(FeatureKey)
    /// An update or a remove of an id the store does not hold.
    case unknownID(FeatureKey)
    /// A feature without an id (or without the promoted property); `index` is its position
    /// in the initial data or in `add`.
    case missingID(index: Int)
    /// A malformed diff document (JSON): what is wrong and where.
    case invalidDiff(String)
    /// Two changes of one diff that cannot both apply to the feature: a second remove of
    /// an id, or an update of an id the diff removes (the text names both changes).
    case conflict(FeatureKey, String)

    public var description: String {
        switch self {
        case .duplicateID(let k): return "duplicate feature id \(k)"
        case .unknownID(let k): return "no feature with id \(k)"
        case .missingID(let i): return "feature \(i) has no id"
        case .invalidDiff(let s): return "invalid diff: \(s)"
        case .conflict(let k, let s): return "feature id \(k): \(s)"
        }
    }
}
