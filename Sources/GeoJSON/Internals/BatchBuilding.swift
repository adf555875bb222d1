import JSON
import GeoModel

/// How a batch is filled: the reader appends one feature at a time (its geometry entries,
/// id and property rows as their members are read, then `endFeature`), and takes a
/// feature back out (`rollback`) when it turns out invalid under a skipping policy.
extension GeoJSONFeatureBatch {
    /// What a batch held before a feature, to take the feature back out.
    struct Mark {
        var positions, geometries, parts, polygons, idBytes, members, repeated, columns: Int
    }

    var mark: Mark {
        Mark(positions: positionCount, geometries: geometryTypes.count, parts: partStarts.count,
             polygons: polygonStarts.count, idBytes: idBytes.count, members: memberColumns.count,
             repeated: repeatedMembers.count, columns: columns.count)
    }

    /// Removes whatever was appended after `m` by a feature that did not end.
    mutating func rollback(to m: Mark) {
        // (By positions: the feature may have turned the batch 3D.)
        coordinates.removeSubrange((m.positions * dimensions)...)
        geometryTypes.removeSubrange(m.geometries...)
        geometryDimensions.removeSubrange(m.geometries...)
        geometryMemberCounts.removeSubrange(m.geometries...)
        geometryPositionOffsets.removeSubrange((m.geometries + 1)...)
        geometryPartOffsets.removeSubrange((m.geometries + 1)...)
        geometryPolygonOffsets.removeSubrange((m.geometries + 1)...)
        partStarts.removeSubrange(m.parts...)
        polygonStarts.removeSubrange(m.polygons...)
        idBytes.removeSubrange(m.idBytes...)
        memberColumns.removeSubrange(m.members...)
        repeatedMembers.removeSubrange(m.repeated...)
        extras[count] = nil
        for c in columns.indices where columns[c].kinds.count > count {
            columns[c].kinds.removeSubrange(count...)
            columns[c].numbers.removeSubrange(count...)
            columns[c].byteEnds.removeSubrange(count...)
            columns[c].bytes.removeSubrange((columns[c].byteEnds.last ?? 0)...)
        }
        if columns.count > m.columns {
            while columns.count > m.columns {
                var c = columns.removeLast()
                c.removeAll()
                spareColumns.append(c)
            }
            rebuildNameTable()
        }
        pendingID = .none
        pendingIDNumber = 0
    }

    // MARK: Geometry

    /// The WKB code (1–7) of a geometry kind, as `geometryTypes` holds it.
    ///
    /// - Parameter kind: the kind.
    public static func code(of kind: Geometry.Kind) -> UInt8 {
        switch kind {
        case .point: return 1
        case .lineString: return 2
        case .polygon: return 3
        case .multiPoint: return 4
        case .multiLineString: return 5
        case .multiPolygon: return 6
        case .geometryCollection: return 7
        }
    }

    /// The geometry kind of a WKB code (1–7).
    ///
    /// - Parameter code: a value of `geometryTypes`.
    public static func kind(ofCode code: UInt8) -> Geometry.Kind? {
        switch code {
        case 1: return .point
        case 2: return .lineString
        case 3: return .polygon
        case 4: return .multiPoint
        case 5: return .multiLineString
        case 6: return .multiPolygon
        case 7: return .geometryCollection
        default: return nil
        }
    }

    /// Appends one geometry entry: `values` holds its positions (`dims` values each),
    /// `parts` its part starts and `polygons` its polygon starts, counted from 0 within
    /// the geometry.
    mutating func appendGeometry(_ kind: Geometry.Kind, values: [Double], dims: Int, parts: [Int], polygons: [Int],
                                 members: Int = 0) {
        let firstPosition = positionCount, firstPart = partStarts.count
        if dims == dimensions {
            coordinates.append(contentsOf: values)
        } else {
            appendConverting(values, dims: dims)
        }
        for p in parts { partStarts.append(firstPosition + p) }
        for p in polygons { polygonStarts.append(firstPart + p) }
        geometryTypes.append(GeoJSONFeatureBatch.code(of: kind))
        geometryDimensions.append(UInt8(dims))
        geometryMemberCounts.append(members)
        geometryPositionOffsets.append(positionCount)
        geometryPartOffsets.append(partStarts.count)
        geometryPolygonOffsets.append(polygonStarts.count)
    }

    /// Positions of another dimension than the batch's: 3D positions turn the batch 3D
    /// (NaN altitudes for the positions before); 2D ones in a 3D batch get NaN.
    @inline(never)
    mutating func appendConverting(_ values: [Double], dims: Int) {
        if dims == 3 {
            coordinates = _widenedTo3D(coordinates, room: values.count)
            dimensions = 3
            coordinates.append(contentsOf: values)
        } else {
            var i = 0
            while i < values.count {
                coordinates.append(values[i]); coordinates.append(values[i + 1]); coordinates.append(.nan)
                i += 2
            }
        }
    }

    /// Appends a model geometry (and a collection's members, depth first).
    mutating func appendGeometry(_ g: Geometry) {
        appendGeometry(g.kind, values: g.coordinates, dims: g.dimensions, parts: g.partStarts,
                       polygons: g.polygonStarts, members: g.geometries.count)
        for m in g.geometries { appendGeometry(m) }
    }

    // MARK: Ids

    /// Removes the bytes of a string id set for the feature being read. (Only when there
    /// are some: removing an empty range from an array with no buffer of its own makes one.)
    @inline(__always)
    mutating func dropPendingIDBytes() {
        let end = idByteEnds.last ?? 0
        if idBytes.count > end { idBytes.removeSubrange(end...) }
    }

    /// Sets the id of the feature being read to a string (its UTF-8).
    mutating func setPendingStringID(_ utf8: UnsafeBufferPointer<UInt8>) {
        dropPendingIDBytes()
        idBytes.append(contentsOf: utf8)
        pendingID = .string
    }

    /// Sets the id of the feature being read.
    mutating func setPendingID(_ id: FeatureID) {
        dropPendingIDBytes()
        switch id {
        case .int(let i): pendingID = .int; pendingIDNumber = UInt64(bitPattern: i)
        case .uint(let u): pendingID = .uint; pendingIDNumber = u
        case .double(let d): pendingID = .double; pendingIDNumber = d.bitPattern
        case .string(let s):
            idBytes.append(contentsOf: s.utf8)
            pendingID = .string
        }
    }

    // MARK: Properties

    /// The column of member `k` of the feature being read, named by `name` (UTF-8): first
    /// tried as the column of the previous feature's member `k` (features of a collection
    /// mostly share their names and order), a byte comparison; else looked up.
    @inline(__always)
    mutating func column(named name: UnsafeBufferPointer<UInt8>, member k: Int) -> Int {
        if count > 0 {
            let i = memberOffsets[count - 1] + k
            if i < memberOffsets[count] {
                let c = Int(memberColumns[i])
                if c >= 0, columns[c].nameBytes.withUnsafeBufferPointer({ n in
                    n.count == name.count && (n.count == 0 || JSONTokenizer.sameBytes(n.baseAddress!, name.baseAddress!, n.count))
                }) {
                    return c
                }
            }
        }
        return column(named: name)
    }

    /// The index of the column named by `name` (UTF-8), made when the batch has none.
    @inline(__always)
    mutating func column(named name: UnsafeBufferPointer<UInt8>) -> Int {
        if nameTable.isEmpty { nameTable = Array(repeating: 0, count: 64) }
        let mask = nameTable.count - 1
        var slot = GeoJSONFeatureBatch.hash(name) & mask
        while true {
            let entry = Int(nameTable[slot])
            if entry == 0 { break }
            let c = entry - 1
            let same = columns[c].nameBytes.withUnsafeBufferPointer { n in
                n.count == name.count && (n.count == 0 || JSONTokenizer.sameBytes(n.baseAddress!, name.baseAddress!, n.count))
            }
            if same { return c }
            slot = (slot + 1) & mask
        }
        return addColumn(name)
    }

    @inline(never)
    mutating func addColumn(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var c = spareColumns.popLast() ?? Column(name: "", nameBytes: [])
        c.name = String(decoding: name, as: UTF8.self)
        c.nameBytes.removeAll(keepingCapacity: true)
        c.nameBytes.append(contentsOf: name)
        columns.append(c)
        let index = columns.count - 1
        if columns.count * 2 > nameTable.count {
            nameTable = Array(repeating: 0, count: nameTable.count * 2)
            rebuildNameTable()
        } else {
            insertName(index)
        }
        return index
    }

    mutating func rebuildNameTable() {
        for i in nameTable.indices { nameTable[i] = 0 }
        for c in columns.indices { insertName(c) }
    }

    mutating func insertName(_ c: Int) {
        let mask = nameTable.count - 1
        var slot = columns[c].nameBytes.withUnsafeBufferPointer { GeoJSONFeatureBatch.hash($0) } & mask
        while nameTable[slot] != 0 { slot = (slot + 1) & mask }
        nameTable[slot] = Int32(c + 1)
    }

    /// FNV-1a over the name's bytes.
    @inline(__always)
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in name { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// Whether column `c` already has a value in row `row` (a name repeated in one object).
    @inline(__always)
    func isSet(_ c: Int, row: Int) -> Bool { columns[c].kinds.count > row }

    /// Sets column `c`, row `row`, to a value of `kind` other than `.json`: `number` for
    /// null, bool, int and double, `decoded` (UTF-8) for a string. A value of another type
    /// than the column's is kept as its JSON text, `raw`.
    @inline(__always)
    mutating func set(_ c: Int, row: Int, kind: ValueKind, number: UInt64, decoded: UnsafeBufferPointer<UInt8>,
                      raw: UnsafeBufferPointer<UInt8>) {
        memberColumns.append(Int32(c))
        columns[c].append(row: row, kind: kind, number: number, decoded: decoded, raw: raw)
    }

    /// Sets column `c`, row `row`, to JSON text (an array, an object, or a number only
    /// JSON text keeps exactly).
    mutating func setJSON(_ c: Int, row: Int, raw: UnsafeBufferPointer<UInt8>) {
        memberColumns.append(Int32(c))
        columns[c].append(row: row, kind: .json, number: 0, decoded: raw, raw: raw)
    }

    /// Marks column `c`, row `row`, as holding a value that was not kept.
    mutating func setUnread(_ c: Int, row: Int) {
        memberColumns.append(Int32(c))
        columns[c].appendUnread(row: row)
    }

    /// A member whose name the feature already used: kept beside the columns.
    mutating func appendRepeated(name: String, value: PropertyValue) {
        memberColumns.append(Int32(-1 - repeatedMembers.count))
        repeatedMembers.append((name, value))
    }

    /// Sets a model value (a root feature's, or a converted feature's).
    mutating func setValue(_ c: Int, row: Int, _ v: PropertyValue) {
        if isSet(c, row: row) {
            appendRepeated(name: columns[c].name, value: v)
            return
        }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var text = GeoJSONWriter()
        text.writeValue(v)
        let raw = Array(text.bytes)
        raw.withUnsafeBufferPointer { raw in
            switch v {
            case .null: set(c, row: row, kind: .null, number: 0, decoded: none, raw: raw)
            case .bool(let b): set(c, row: row, kind: .bool, number: b ? 1 : 0, decoded: none, raw: raw)
            case .int(let i): set(c, row: row, kind: .int, number: UInt64(bitPattern: i), decoded: none, raw: raw)
            case .double(let d): set(c, row: row, kind: .double, number: d.bitPattern, decoded: none, raw: raw)
            case .string(let s):
                var s = s
                s.withUTF8 { set(c, row: row, kind: .string, number: 0, decoded: $0, raw: raw) }
            case .uint, .array, .object: setJSON(c, row: row, raw: raw)
            }
        }
    }

    // MARK: Features

    /// Ends the feature being read: its geometry entries, id, properties and members are
    /// those appended since the last one.
    mutating func endFeature(at offset: Int, hasProperties: Bool, bbox: [Double]?, foreignMembers: PropertyList?) {
        featureOffsets.append(offset)
        featureGeometryOffsets.append(geometryTypes.count)
        idKinds.append(pendingID)
        idNumbers.append(pendingID == .string ? 0 : pendingIDNumber)
        if pendingID != .string { dropPendingIDBytes() }
        idByteEnds.append(idBytes.count)
        pendingID = .none
        pendingIDNumber = 0
        self.hasProperties.append(hasProperties)
        memberOffsets.append(memberColumns.count)
        if bbox != nil || foreignMembers != nil { extras[count] = Extras(bbox: bbox, foreignMembers: foreignMembers) }
        count += 1
    }

    /// Appends a model feature (a root Feature or geometry, which is not read column by
    /// column; and `init(features:)`); without `values`, its property names only (rows
    /// `.unread`, as a read without property values keeps them).
    mutating func append(_ f: GeoFeature, at offset: Int, values: Bool = true) {
        if let g = f.geometry { appendGeometry(g) }
        if let id = f.id { setPendingID(id) }
        if let props = f.properties {
            for (key, value) in zip(props.keys, props.values) {
                var key = key
                let c = key.withUTF8 { column(named: $0) }
                if values {
                    setValue(c, row: count, value)
                } else if isSet(c, row: count) {
                    appendRepeated(name: columns[c].name, value: .null)
                } else {
                    setUnread(c, row: count)
                }
            }
        }
        endFeature(at: offset, hasProperties: f.properties != nil, bbox: f.bbox, foreignMembers: f.foreignMembers)
    }

    /// Whether the property table (columns × rows) has passed 4 million cells, after which
    /// a reader closes the batch.
    var holdsManyCells: Bool { columns.count &* count > 4_000_000 }

    /// Pads every column to the batch's rows (after the last feature).
    mutating func padColumns() {
        for c in columns.indices { columns[c].pad(to: count) }
    }
}
