/// A feature property value. Numbers keep their kind: integers stay exact up to 64 bits,
/// so an id or a count survives a round trip through any source format.
public enum PropertyValue: Equatable, Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
}
