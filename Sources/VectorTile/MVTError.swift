import PBF

/// Why a vector tile (or part of one) cannot be decoded. Every case carries `offset`, the
/// byte offset from the start of the tile where the offending field starts. `rule` names
/// the rule of ../shared/specs/mvt-pbf.md that was broken (spec section in its table).
public enum MVTError: Error, Equatable, Sendable {
    /// Malformed protobuf: truncated varint or field, overlong varint, bad key (mvt-pbf E).
    case malformed(PBFError)
    /// A known field with a wire type its schema does not allow (P5), e.g. a layer
    /// version encoded as a string. `message` is `Tile`, `Layer`, `Feature` or `Value`.
    case wrongWireType(message: String, field: UInt32, wireType: UInt8, offset: Int)
    /// A layer without `version` (§4.1, A2).
    case missingVersion(offset: Int)
    /// A layer whose version is neither 1 nor 2 (§4.1, A4).
    case unsupportedVersion(UInt32, offset: Int)
    /// A layer without `name` (§4.1, A5).
    case missingName(offset: Int)
    /// Two layers with byte-identical names (§4.1, A6).
    case duplicateLayerName(String, offset: Int)
    /// A Value with no known field, or with an unknown field among its typed ones (§4.1, A10).
    case invalidValue(offset: Int)
    /// A feature without `geometry` (§4.2, B1).
    case missingGeometry(offset: Int)
    /// A feature without `type` (§4.2, B2).
    case missingType(offset: Int)
    /// A feature `type` outside 0...3 (§4.3.4, B3).
    case invalidType(UInt64, offset: Int)
    /// A `tags` list of odd length (§4.2, B6).
    case oddTagCount(offset: Int)
    /// A tag index beyond the layer's keys or values (§4.2, B7).
    case tagIndexOutOfRange(index: UInt32, offset: Int)
    /// More than one `geometry` record in a feature (B9).
    case repeatedGeometry(offset: Int)
    /// A command id other than MoveTo, LineTo, ClosePath (§4.3.1, C3).
    case invalidCommand(UInt32, offset: Int)
    /// The geometry ends before the parameters its command announced (§4.3.2, C4).
    case truncatedGeometry(offset: Int)
    /// A ClosePath whose count is not 1 (§4.3.3.3, C7).
    case invalidClosePath(count: UInt32, offset: Int)
    /// A LineTo with both deltas 0 (§4.3.3.2, C8).
    case zeroLengthSegment(offset: Int)
    /// A command or count the geometry type does not allow (§4.3.4.2–4.3.4.4, D1–D3).
    case invalidGeometry(reason: String, offset: Int)
    /// A polygon whose first ring is not exterior (§4.3.4.4, D4).
    case interiorRingFirst(offset: Int)
    /// A layer whose extent is 0: a grid without cells, on which no coordinate can be
    /// placed (§4.1 and §4.3: coordinates are fractions of the extent; A11).
    case invalidExtent(offset: Int)
    /// A Value with more than one of its typed fields set (§4.1: exactly one; A10). A
    /// tolerant decoder takes the last (P8); the validator reports it.
    case multiTypedValue(offset: Int)

    // Warnings: SHOULD-level rules. The validator reports them; decoding never fails on them.

    /// A tile without layers (§4.1, A1).
    case noLayers
    /// A layer whose first field is not `version` (§4.1, A3).
    case versionNotFirst(offset: Int)
    /// A layer without features (§4.1, A7).
    case emptyLayer(offset: Int)
    /// A key that repeats an earlier key of the layer (§4.1, A8).
    case duplicateKey(String, offset: Int)
    /// A value identical (type and bytes) to an earlier value of the layer (§4.1, A9).
    case duplicateValue(offset: Int)
    /// A feature id already used in the layer (§4.2, B5).
    case duplicateFeatureID(UInt64, offset: Int)
    /// A ring with zero area (§4.3.4.4, D7).
    case degenerateRing(offset: Int)

    /// Where the problem starts, in bytes from the start of the tile.
    public var offset: Int {
        switch self {
        case .malformed(let e): return e.offset
        case .wrongWireType(_, _, _, let o), .missingVersion(let o), .unsupportedVersion(_, let o),
             .missingName(let o), .duplicateLayerName(_, let o), .invalidValue(let o),
             .missingGeometry(let o), .missingType(let o), .invalidType(_, let o), .oddTagCount(let o),
             .tagIndexOutOfRange(_, let o), .repeatedGeometry(let o), .invalidCommand(_, let o),
             .truncatedGeometry(let o), .invalidClosePath(_, let o), .zeroLengthSegment(let o),
             .invalidGeometry(_, let o), .interiorRingFirst(let o), .invalidExtent(let o), .multiTypedValue(let o),
             .versionNotFirst(let o),
             .emptyLayer(let o), .duplicateKey(_, let o), .duplicateValue(let o), .duplicateFeatureID(_, let o),
             .degenerateRing(let o):
            return o
        case .noLayers:
            return 0
        }
    }

    /// The checklist rule (../shared/specs/mvt-pbf.md) this error enforces.
    public var rule: String {
        switch self {
        case .malformed(let e):
            switch e {
            case .truncated, .lengthOutOfBounds: return "P3"
            case .varintTooLong: return "P1"
            case .invalidFieldNumber: return "P4"
            case .invalidWireType, .deprecatedGroup: return "P5"
            }
        case .wrongWireType: return "P5"
        case .missingVersion: return "A2"
        case .unsupportedVersion: return "A4"
        case .missingName: return "A5"
        case .duplicateLayerName: return "A6"
        case .invalidValue: return "A10"
        case .missingGeometry: return "B1"
        case .missingType: return "B2"
        case .invalidType: return "B3"
        case .oddTagCount: return "B6"
        case .tagIndexOutOfRange: return "B7"
        case .repeatedGeometry: return "B9"
        case .invalidCommand: return "C3"
        case .truncatedGeometry: return "C4"
        case .invalidClosePath: return "C7"
        case .zeroLengthSegment: return "C8"
        case .invalidGeometry: return "D1-D3"
        case .interiorRingFirst: return "D4"
        case .invalidExtent: return "A11"
        case .multiTypedValue: return "A10"
        case .noLayers: return "A1"
        case .versionNotFirst: return "A3"
        case .emptyLayer: return "A7"
        case .duplicateKey: return "A8"
        case .duplicateValue: return "A9"
        case .duplicateFeatureID: return "B5"
        case .degenerateRing: return "D7"
        }
    }

    /// How bad it is. `fatal`: the tile (or layer) cannot be trusted and processing
    /// stops. `recoverable`: the offending feature or layer can be skipped and the rest
    /// decoded (the classes mvt-fixtures assigns). `warning`: a SHOULD rule is not followed;
    /// the tile is valid.
    public enum Severity: String, Sendable { case fatal, recoverable, warning }

    /// This error's severity, fixed by its kind.
    public var severity: Severity {
        switch self {
        case .missingGeometry, .missingType, .invalidType, .oddTagCount, .duplicateLayerName,
             .repeatedGeometry, .zeroLengthSegment, .invalidExtent, .multiTypedValue:
            return .recoverable
        case .noLayers, .versionNotFirst, .emptyLayer, .duplicateKey, .duplicateValue, .duplicateFeatureID,
             .degenerateRing:
            return .warning
        default:
            return .fatal
        }
    }
}
