import JSON
import GeoModel

/// Features of a GeoJSON collection held column by column: flat arrays that a reader fills
/// and empties again, batch after batch, with no heap allocation per feature once their
/// capacities have grown to the batch's size (`GeoJSONBatchReader`).
///
/// ## Geometry
///
/// Every geometry of the batch is an entry of the geometry arrays, in feature order; a
/// feature's entries are `featureGeometryOffsets[i]..<featureGeometryOffsets[i + 1]`
/// (none: `"geometry": null`, one for a simple geometry, a collection's entry followed by
/// its members, depth first, for a GeometryCollection). Entry `g` has:
///
/// - `geometryTypes[g]`: the ISO WKB code of its type, 1 Point, 2 LineString, 3 Polygon,
///   4 MultiPoint, 5 MultiLineString, 6 MultiPolygon, 7 GeometryCollection (the type ids
///   of GeoArrow's `geoarrow.geometry` union, without the dimension offset);
/// - `geometryDimensions[g]`: 2, or 3 when its positions carry an altitude (those without
///   one store NaN, as `Geometry` does);
/// - positions `geometryPositionOffsets[g]..<geometryPositionOffsets[g + 1]` of
///   `coordinates`, which holds `dimensions` values per position (x, y interleaved, then z
///   when any geometry of the batch has one);
/// - parts (lines, rings) `geometryPartOffsets[g]..<…[g + 1]` of `partStarts`, the position
///   index where each part starts; polygons `geometryPolygonOffsets[g]..<…[g + 1]` of
///   `polygonStarts`, the part index where each polygon starts. These are `Geometry`'s
///   `partStarts` and `polygonStarts`, made absolute.
/// - a collection's members: `geometryMemberCounts[g]` entries follow it (each with its own
///   members, depth first); 0 for other types.
///
/// For a batch whose geometries are all of one type, 2D, these are GeoArrow's native
/// encodings, to be handed on without copying: `coordinates` is the interleaved `xy`
/// buffer; a LineString's geometry offsets are `partStarts` + [position count]; a
/// Polygon's ring offsets are the same and its geometry offsets `polygonStarts` + [part
/// count]; a MultiPolygon adds `geometryPolygonOffsets` as geometry offsets; a
/// MultiLineString's geometry offsets are `geometryPartOffsets`; a MultiPoint's are
/// `geometryPositionOffsets`.
///
/// ## Ids and properties
///
/// Ids are a column (`idKinds`, with `idNumbers` or `idStrings`). Properties are one
/// ``Column`` per member name met in the batch, interned once; a feature's members, in its
/// own order, are `memberColumns[memberOffsets[i]..<memberOffsets[i + 1]]`. `bbox` and
/// foreign members are kept as GeoModel keeps them, for the few features that have them
/// (`extras`).
///
/// `feature(_:)` builds the `GeoFeature` the streaming reader returns for the same text.
public struct GeoJSONFeatureBatch: Sendable {
    /// A property value's kind in a column row.
    public enum ValueKind: UInt8, Sendable {
        /// The feature has no member of this name.
        case absent = 0
        case null = 1
        case bool = 2
        case int = 3
        case double = 4
        case string = 5
        /// The value as JSON text, valid: an array, an object, a number outside Int64 and
        /// Double's shared range of exact integers (`uint`), or a value whose type is not
        /// the column's.
        case json = 6
        /// The feature has this member, whose value was checked and not kept (a batch read
        /// with `GeoJSONReadOptions.keepPropertyValues` false).
        case unread = 7
    }

    /// A feature id's kind.
    public enum IDKind: UInt8, Sendable { case none = 0, int = 1, uint = 2, double = 3, string = 4 }

    /// The values of one property name, one row per feature of the batch.
    public struct Column: Sendable {
        /// The member name.
        public internal(set) var name: String
        /// The column's type: the kind of its first value that is neither absent nor null
        /// (`.null` while there is none). Rows of another type are kept as `.json`.
        public internal(set) var type: ValueKind
        /// Each row's kind.
        public internal(set) var kinds: [ValueKind]
        /// Each row's number: an `int` as its Int64 bits, a `double` as its bit pattern, a
        /// `bool` as 0 or 1; 0 otherwise.
        public internal(set) var numbers: [UInt64]
        /// The UTF-8 of `string` rows (decoded) and the text of `json` rows, back to back;
        /// row `r`'s bytes are `bytes[byteEnds[r - 1]..<byteEnds[r]]` (from 0 for row 0).
        public internal(set) var bytes: [UInt8]
        /// The end of each row's bytes in `bytes`.
        public internal(set) var byteEnds: [Int]
        /// UTF-8 of `name`, for the interning table.
        var nameBytes: [UInt8]

        init(name: String, nameBytes: [UInt8]) {
            self.name = name
            self.nameBytes = nameBytes
            type = .null
            kinds = []
            numbers = []
            bytes = []
            byteEnds = []
        }

        /// Rows filled so far.
        public var count: Int { kinds.count }

        /// Row `r`'s bytes (a string's UTF-8 or JSON text).
        ///
        /// - Parameter r: the row (the feature's index in the batch).
        public func bytes(at r: Int) -> ArraySlice<UInt8> {
            bytes[(r == 0 ? 0 : byteEnds[r - 1])..<byteEnds[r]]
        }

        /// Row `r` as a property value; nil when the feature has no such member. An `.unread`
        /// row (its value was not kept) reads as `.null`.
        ///
        /// - Parameter r: the row (the feature's index in the batch).
        public func value(at r: Int) -> PropertyValue? {
            switch kinds[r] {
            case .absent: return nil
            case .null, .unread: return .null
            case .bool: return .bool(numbers[r] != 0)
            case .int: return .int(Int64(bitPattern: numbers[r]))
            case .double: return .double(Double(bitPattern: numbers[r]))
            case .string: return .string(String(decoding: bytes(at: r), as: UTF8.self))
            case .json: return GeoJSONFeatureBatch.parseJSON(bytes(at: r))
            }
        }

        /// Appends row `row` (after padding the rows before it): a value of `kind`, with
        /// `number` for null, bool, int and double and `decoded` (UTF-8) for a string; a
        /// value of another type than the column's is kept as its JSON text, `raw` (a `.json`
        /// value, which leaves the column's type as it is, too). One
        /// access to the column, whose arrays are then appended to in place.
        @inline(__always)
        mutating func append(row: Int, kind: ValueKind, number: UInt64, decoded: UnsafeBufferPointer<UInt8>,
                             raw: UnsafeBufferPointer<UInt8>) {
            pad(to: row)
            var k = kind
            if kind != .null && kind != .json {
                if type == .null { type = kind }
                if type != kind { k = .json }
            }
            kinds.append(k)
            switch k {
            case .string: bytes.append(contentsOf: decoded); numbers.append(0)
            case .json: bytes.append(contentsOf: raw); numbers.append(0)
            default: numbers.append(number)
            }
            byteEnds.append(bytes.count)
        }

        /// Appends row `row` as `.unread` (after padding the rows before it).
        @inline(__always)
        mutating func appendUnread(row: Int) {
            pad(to: row)
            if type == .null { type = .unread }
            kinds.append(.unread)
            numbers.append(0)
            byteEnds.append(bytes.count)
        }

        /// Pads with absent rows up to `rows`.
        @inline(__always)
        mutating func pad(to rows: Int) {
            if kinds.count < rows { padSlow(to: rows) }
        }

        @inline(never)
        mutating func padSlow(to rows: Int) {
            let n = rows - kinds.count
            let end = byteEnds.last ?? 0
            kinds.append(contentsOf: repeatElement(.absent, count: n))
            numbers.append(contentsOf: repeatElement(0, count: n))
            byteEnds.append(contentsOf: repeatElement(end, count: n))
        }

        mutating func removeAll() {
            type = .null
            kinds.removeAll(keepingCapacity: true)
            numbers.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            byteEnds.removeAll(keepingCapacity: true)
        }
    }

    /// A feature's `bbox` and foreign members (RFC 7946 §5, §6.1).
    public struct Extras: Sendable, Equatable {
        public var bbox: [Double]?
        public var foreignMembers: PropertyList?
    }

    /// Number of features in the batch.
    public internal(set) var count = 0
    /// Index in the collection of the batch's first feature.
    public internal(set) var firstIndex = 0
    /// Byte offset in the input where each feature starts.
    public internal(set) var featureOffsets: [Int] = []

    // Geometry.
    /// Values per position in `coordinates`: 2, or 3 once a geometry has an altitude.
    public internal(set) var dimensions = 2
    /// All positions, `dimensions` values each.
    public internal(set) var coordinates: [Double] = []
    /// Per feature (count + 1): its range of geometry entries.
    public internal(set) var featureGeometryOffsets: [Int] = []
    /// Per geometry entry: WKB type code (1–7).
    public internal(set) var geometryTypes: [UInt8] = []
    /// Per geometry entry: 2 or 3.
    public internal(set) var geometryDimensions: [UInt8] = []
    /// Per geometry entry (count + 1): its range of positions.
    public internal(set) var geometryPositionOffsets: [Int] = []
    /// Per geometry entry (count + 1): its range of `partStarts`.
    public internal(set) var geometryPartOffsets: [Int] = []
    /// Per geometry entry (count + 1): its range of `polygonStarts`.
    public internal(set) var geometryPolygonOffsets: [Int] = []
    /// Per geometry entry: the number of member entries that follow a collection (its
    /// direct members; each counts its own).
    public internal(set) var geometryMemberCounts: [Int] = []
    /// Absolute position index where each part (line or ring) starts.
    public internal(set) var partStarts: [Int] = []
    /// Absolute part index where each polygon starts.
    public internal(set) var polygonStarts: [Int] = []

    // Ids.
    /// Per feature: the kind of its id.
    public internal(set) var idKinds: [IDKind] = []
    /// Per feature: an `int` id's Int64 bits, a `uint`'s value, a `double`'s bit pattern.
    public internal(set) var idNumbers: [UInt64] = []
    /// The UTF-8 of string ids, back to back; feature `i`'s are
    /// `idBytes[idByteEnds[i - 1]..<idByteEnds[i]]`.
    public internal(set) var idBytes: [UInt8] = []
    /// Per feature: the end of its id's bytes in `idBytes`.
    public internal(set) var idByteEnds: [Int] = []

    // Properties.
    /// Per feature: false for `"properties": null` (or none).
    public internal(set) var hasProperties: [Bool] = []
    /// One column per member name met in the batch, in the order first met.
    public internal(set) var columns: [Column] = []
    /// Per feature (count + 1): its range of `memberColumns`.
    public internal(set) var memberOffsets: [Int] = []
    /// A feature's members in its order, as column indices. A member whose name the same
    /// feature already used (JSON allows it; I-JSON does not) is `-1 - k`, its value
    /// `repeatedMembers[k]`.
    public internal(set) var memberColumns: [Int32] = []
    /// Values of members whose name repeats within a feature (null when the batch was
    /// read without property values).
    public internal(set) var repeatedMembers: [(name: String, value: PropertyValue)] = []
    /// `bbox` and foreign members of the features that have them, by feature index.
    public internal(set) var extras: [Int: Extras] = [:]

    // Interning.
    /// Open-addressed table of column indices + 1 (0: empty), by hash of the name.
    var nameTable: [Int32] = []
    /// Columns of earlier batches, emptied, whose buffers new columns reuse.
    var spareColumns: [Column] = []
    /// The reader's positions scratch, kept with the batch between reads so that its
    /// capacity carries over from reader to reader.
    var coordinateScratch = _CoordinateScratch()
    /// The id of the feature being read (its string's bytes are already in `idBytes`).
    var pendingID = IDKind.none
    var pendingIDNumber: UInt64 = 0

    /// An empty batch.
    public init() { removeAll() }

    /// A batch with no buffers, which `removeAll()` makes usable (swapped into a reader
    /// with no allocation).
    init(unallocated: ()) {}

    /// Total positions in the batch.
    public var positionCount: Int { coordinates.count / dimensions }

    /// Empties the batch, keeping every buffer's capacity for the next one.
    public mutating func removeAll() {
        count = 0
        featureOffsets.removeAll(keepingCapacity: true)
        dimensions = 2
        coordinates.removeAll(keepingCapacity: true)
        featureGeometryOffsets.removeAll(keepingCapacity: true); featureGeometryOffsets.append(0)
        geometryTypes.removeAll(keepingCapacity: true)
        geometryDimensions.removeAll(keepingCapacity: true)
        geometryPositionOffsets.removeAll(keepingCapacity: true); geometryPositionOffsets.append(0)
        geometryPartOffsets.removeAll(keepingCapacity: true); geometryPartOffsets.append(0)
        geometryPolygonOffsets.removeAll(keepingCapacity: true); geometryPolygonOffsets.append(0)
        geometryMemberCounts.removeAll(keepingCapacity: true)
        partStarts.removeAll(keepingCapacity: true)
        polygonStarts.removeAll(keepingCapacity: true)
        idKinds.removeAll(keepingCapacity: true)
        idNumbers.removeAll(keepingCapacity: true)
        idBytes.removeAll(keepingCapacity: true)
        idByteEnds.removeAll(keepingCapacity: true)
        hasProperties.removeAll(keepingCapacity: true)
        while var c = columns.popLast() {
            c.removeAll()
            spareColumns.append(c)
        }
        memberOffsets.removeAll(keepingCapacity: true); memberOffsets.append(0)
        memberColumns.removeAll(keepingCapacity: true)
        if !repeatedMembers.isEmpty { repeatedMembers.removeAll() }
        if !extras.isEmpty { extras.removeAll() }
        if !nameTable.isEmpty { for i in nameTable.indices { nameTable[i] = 0 } }
        pendingID = .none
        pendingIDNumber = 0
    }

    /// Parses JSON text that a reader already validated (a `.json` row).
    static func parseJSON(_ text: ArraySlice<UInt8>) -> PropertyValue {
        let bytes = Array(text)
        return bytes.withUnsafeBytes { raw in
            var t = JSONTokenizer(borrowing: raw, maxDepth: Int.max)
            do {
                return try t.readValue(depth: 0)
            } catch {
                // The reader checked these bytes before keeping them.
                preconditionFailure("a kept JSON value does not parse: \(error)")
            }
        }
    }
}

extension GeoJSONFeatureBatch {
    /// Geometry entry `g` as a geometry of the batch's shared buffers (no copy; `stride` is
    /// the batch's `dimensions`). A collection's entry has no geometry of its own: its
    /// members are the entries that follow it.
    ///
    /// - Parameter g: a geometry entry that is not a collection (`geometryTypes[g] != 7`).
    public func flatGeometry(entry g: Int) -> FlatGeometry {
        guard let kind = GeoJSONFeatureBatch.kind(ofCode: geometryTypes[g]), kind != .geometryCollection else {
            preconditionFailure("entry \(g) is a GeometryCollection: its members are the entries after it")
        }
        return FlatGeometry(kind: kind, coordinates: coordinates, stride: dimensions,
                            positions: geometryPositionOffsets[g]..<geometryPositionOffsets[g + 1],
                            partStarts: partStarts, parts: geometryPartOffsets[g]..<geometryPartOffsets[g + 1],
                            polygonStarts: polygonStarts, polygons: geometryPolygonOffsets[g]..<geometryPolygonOffsets[g + 1])
    }

    /// The name of member `m` of `memberColumns` (a column's, or a repeated member's).
    ///
    /// - Parameter m: an index into `memberColumns`.
    public func memberName(_ m: Int) -> String {
        let c = Int(memberColumns[m])
        return c >= 0 ? columns[c].name : repeatedMembers[-1 - c].name
    }
}
