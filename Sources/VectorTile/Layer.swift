import PBF

/// One layer (MVT 2.1 §4.1): its name, version, extent, keys and values, and its features.
public struct Layer {
    /// The layer message's bytes.
    public let message: PBFReader
    /// Name bytes (UTF-8), borrowed.
    public let nameBytes: UnsafeRawBufferPointer
    /// The `version` field: 2 for MVT 2.x, 1 for 1.x (A2; a layer without one, or with another, is an error).
    public let version: UInt32
    /// Extent; 4096 when the field is absent (A11).
    public let extent: UInt32
    /// Key strings, borrowed, in index order (A8).
    public let keys: [UnsafeRawBufferPointer]
    /// Values in index order (A9, A10).
    public let values: [MVTValue]
    /// Number of feature records.
    public let featureCount: Int
    /// Whether a value message sets more than one typed field (A10): the validator then
    /// looks for them.
    let _multiTypedValues: Bool
    /// Where the first feature record's key starts and where the last one ends, within the
    /// layer message, so iterating features does not walk the keys and values again.
    @usableFromInline let featuresStart: Int
    @usableFromInline let featuresEnd: Int
    /// The payloads of the `featureCount` feature records, in order; nil when the scan did
    /// not index them all (a record read by the checked reader), and the walk then goes over
    /// the records from `featuresStart` to `featuresEnd`.
    @usableFromInline let _featureIndex: _FeatureIndex?
    /// Offset of the layer message in the tile.
    public var offset: Int { message.absoluteStart }

    /// The name as a string (copied).
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// Reads the layer's header fields in any order (A3, P9); repeated scalar fields take the
    /// last value (P8). One scan checks every field and reads the first keys and values;
    /// past `_tablesReadInline` of them it only counts, and a second scan from there fills
    /// arrays of exactly the counted size, so large tables are not copied as they grow.
    init(_ reader: PBFReader) throws(MVTError) {
        var keys: [UnsafeRawBufferPointer] = [], values: [MVTValue] = []
        var index: _FeatureIndex? = nil
        try self.init(reader, reusing: &keys, &values, &index)
    }

    /// `init(_:)` with the keys and values read into the storage of `keys` and `values`,
    /// which are emptied first. On return they share their storage with the layer's, so
    /// once the layer is gone the next layer reuses it without allocating; while the layer
    /// lives, emptying them copies nothing and allocates new storage, so a layer kept by
    /// its caller keeps its own keys and values. (Left empty when this throws.) The
    /// feature index (`_FeatureIndex`) is reused the same way: `index` is kept when no
    /// other layer holds it, replaced otherwise.
    @usableFromInline
    init(_ reader: PBFReader, reusing keys: inout [UnsafeRawBufferPointer], _ values: inout [MVTValue],
         _ index: inout _FeatureIndex?) throws(MVTError)
    {
        var r = reader
        var s = _LayerScan()
        if !isKnownUniquelyReferenced(&index) { index = _FeatureIndex() }
        let featureIndex = index.unsafelyUnwrapped
        featureIndex.reserve(min(reader.bytes.count / 2 &+ 1, _FeatureIndex.reservedAtMost))
        var entries = featureIndex.base, room = featureIndex.capacity
        keys.removeAll(keepingCapacity: true)
        // Values of a layer past `_tablesReadInline` go into new storage of their exact
        // size (`_readTables`), so storage that large is let go here rather than kept: it
        // would not be reused, and freeing it first lets the allocator hand the same
        // memory to the next large layer (kept, it cost osm-qa-montevideo 2.5%).
        if values.capacity > 2 &* Layer._tablesReadInline {
            values = []
        } else {
            values.removeAll(keepingCapacity: true)
        }
        swap(&s.keys, &keys)
        swap(&s.values, &values)
        s.reserveTables(remaining: reader.bytes.count)
        while true {
            // Runs of feature, key and value records (most of a layer) are walked with raw
            // loads; any other field, and anything malformed, goes through the reader.
            if let b = r.bytes.baseAddress {
                let n = r.bytes.count
                var p = r.offset
                while p < n, let (key, q, end) = _rawTableRecord(b, p, n) {
                    if key == 0x12 {
                        // A run of feature records, each written to the index, in a loop of
                        // its own.
                        if s.features == 0 { s.featuresStart = p }
                        var indexed = s.indexed
                        if indexed == room {
                            featureIndex.grow(keeping: indexed)
                            entries = featureIndex.base
                            room = featureIndex.capacity
                        }
                        // A record takes two bytes at least, so the run holds fewer records
                        // than the room left when it stops before `fits`.
                        let fits = min(n, p &+ 2 &* (room &- indexed))
                        var start = q
                        p = end
                        while true {
                            // Safe: indexed < room, as p < fits before each record.
                            entries[indexed] = _FeatureIndex.entry(start, p)
                            indexed &+= 1
                            // Safe: p < n.
                            guard p < fits, b.load(fromByteOffset: p, as: UInt8.self) == 0x12 else { break }
                            var e = p &+ 1
                            guard let length = _rawVarint(b, &e, n), length <= UInt64(n &- e) else { break }
                            start = e
                            p = e &+ Int(length)
                        }
                        s.features &+= indexed &- s.indexed
                        s.indexed = indexed
                        s.featuresEnd = p
                        continue
                    } else if s.deferredFrom >= 0 {
                        // Past the first tables, key and value records are only counted
                        // (`_readTables` reads them), in a loop of their own that runs to
                        // the next record of another kind.
                        var records = 0, values = 0
                        var k = key
                        p = end
                        while true {
                            records &+= 1
                            values &+= k == 0x22 ? 1 : 0
                            guard p < n, let (next, _, e) = _rawTableRecord(b, p, n), next != 0x12 else { break }
                            k = next
                            p = e
                        }
                        s.keyCount &+= records &- values
                        s.valueCount &+= values
                        s.tablesEnd = p
                        continue
                    } else {
                        if key == 0x1A { s.keyCount &+= 1 } else { s.valueCount &+= 1 }
                        if s.keyCount &+ s.valueCount <= Layer._tablesReadInline {
                            let bytes = UnsafeRawBufferPointer(start: b + q, count: end &- q)
                            if key == 0x1A {
                                s.keys.append(bytes)
                            } else if let v = MVTValue._parseRaw(bytes, loadable: n &- q) {
                                // `_read` spelt out: with the value's origin computed only
                                // for the checked parse, this walk runs 0.4% fewer
                                // instructions on osm-qa-montevideo.
                                s.values.append(v)
                            } else {
                                s.values.append(try MVTValue.parse(PBFReader(bytes: bytes, origin: r.absoluteStart &+ q),
                                                                   multiTyped: &s.multiTyped))
                            }
                        } else {
                            s.deferredFrom = p
                        }
                        s.tablesEnd = end
                    }
                    p = end
                }
                r = r.positioned(at: p)
            }
            if r.isAtEnd { break }
            try s.checkedField(&r)
        }
        guard let version = s.version else { throw .missingVersion(offset: reader.absoluteStart) }
        guard version == 1 || version == 2 else {
            throw .unsupportedVersion(version, offset: reader.absoluteStart)
        }
        guard let name = s.name else { throw .missingName(offset: reader.absoluteStart) }
        if s.deferredFrom >= 0 {
            s.keys.reserveCapacity(s.keyCount)
            try Layer._readTables(reader, from: s.deferredFrom, to: s.tablesEnd, valueCount: s.valueCount, &s.keys, &s.values,
                                  &s.multiTyped)
        }
        self.message = reader
        self.nameBytes = name
        self.version = version
        self.extent = s.extent
        self._multiTypedValues = s.multiTyped
        self.keys = s.keys
        self.values = s.values
        keys = s.keys
        values = s.values
        self.featureCount = s.features
        self.featuresStart = s.featuresStart
        self.featuresEnd = s.featuresEnd
        // The index holds every feature when none went through the checked reader and the
        // offsets fit its 32-bit halves.
        let whole = !s.featureOutOfIndex && s.indexed == s.features
            && UInt64(reader.bytes.count) <= UInt64(UInt32.max)
        self._featureIndex = whole ? featureIndex : nil
    }

    /// What the scan of `init` has found so far.
    struct _LayerScan {
        var name: UnsafeRawBufferPointer?
        var version: UInt32?
        var extent: UInt32 = 4096
        var keyCount = 0, valueCount = 0
        var keys: [UnsafeRawBufferPointer] = []
        var values: [MVTValue] = []
        var deferredFrom = -1, tablesEnd = 0
        var features = 0
        var featuresStart = 0, featuresEnd = 0
        /// Whether a value message set more than one typed field (A10; read by the validator).
        var multiTyped = false
        /// Feature records written to the index, and whether one was read by the checked
        /// reader instead (the index then does not hold them all).
        var indexed = 0
        var featureOutOfIndex = false

        /// Reserves room for the first keys and values (at most 32 of each, fewer when the
        /// layer's `remaining` bytes cannot hold them: a key record takes two bytes at least,
        /// a value record four), so that small tables do not grow one reallocation at a
        /// time.
        @inline(never)
        mutating func reserveTables(remaining: Int) {
            keys.reserveCapacity(min(remaining / 2, 32))
            values.reserveCapacity(min(remaining / 4, 32))
        }

        /// The name (key byte 0x0A), version (0x78) or extent (0x28) at byte `p` (`p < n`),
        /// read with raw loads (`_rawPayload`, `_rawVarint`, which take what the checked
        /// reader takes): stores it (a repeated field's last value wins, P8; a varint keeps
        /// its low 32 bits, P10) and returns the offset after it. Nil for anything else, and
        /// for a malformed field, which the checked reader then reads and reports.
        @inline(__always)
        mutating func rawHeaderField(_ b: UnsafeRawPointer, _ p: Int, _ n: Int) -> Int? {
            // Safe: p < n.
            let key = b.load(fromByteOffset: p, as: UInt8.self)
            var q = p &+ 1
            switch key {
            case 0x0A:
                guard let (start, end) = _rawPayload(b, &q, n) else { return nil }
                name = UnsafeRawBufferPointer(start: b + Int(start), count: Int(end &- start))
            case 0x78:
                guard let v = _rawVarint(b, &q, n) else { return nil }
                version = UInt32(truncatingIfNeeded: v)
            case 0x28:
                guard let v = _rawVarint(b, &q, n) else { return nil }
                extent = UInt32(truncatingIfNeeded: v)
            default:
                return nil
            }
            return q
        }

        /// Reads the field at `r` with the checked reader: the header fields, and the
        /// feature, key and value records the raw walk left (a longer key, a malformed
        /// length). Kept out of line so the raw walk stays small enough to inline the
        /// value parse.
        @inline(never)
        mutating func checkedField(_ r: inout PBFReader) throws(MVTError) {
            if let b = r.bytes.baseAddress, r.offset < r.bytes.count,
               let next = rawHeaderField(b, r.offset, r.bytes.count)
            {
                r = r.positioned(at: next)
                return
            }
            let keyOffset = r.absoluteOffset
            let local = r.offset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            switch field {
            case 1:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                name = try pbf { () throws(PBFError) in try r.readLengthDelimited() }.bytes
            case 2:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                let length = try pbf { () throws(PBFError) in try r.readLength() }
                r.advance(by: length)
                if features == 0 { featuresStart = local }
                featuresEnd = r.offset
                featureOutOfIndex = true
                features += 1
            case 3, 4:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                let sub = try pbf { () throws(PBFError) in try r.readLengthDelimited() }
                if field == 3 { keyCount += 1 } else { valueCount += 1 }
                if deferredFrom < 0 && keyCount &+ valueCount <= Layer._tablesReadInline {
                    if field == 3 {
                        keys.append(sub.bytes)
                    } else {
                        values.append(try MVTValue._read(sub.bytes, loadable: sub.bytes.count, origin: sub.absoluteStart,
                                                         multiTyped: &multiTyped))
                    }
                } else if deferredFrom < 0 {
                    deferredFrom = local
                }
                tablesEnd = r.offset
            case 5:
                try expectOr(wire, .varint, "Layer", field, keyOffset)
                extent = try pbf { () throws(PBFError) in try r.readUInt32() }
            case 15:
                try expectOr(wire, .varint, "Layer", field, keyOffset)
                version = try pbf { () throws(PBFError) in try r.readUInt32() }
            default:
                try pbf { () throws(PBFError) in try r.skip(wire) }
            }
        }
    }

    /// How many keys and values the first scan of `init` reads before it leaves the rest to
    /// a second scan.
    static let _tablesReadInline = 1024

    /// The second scan of `init`: keys and values of the fields from byte `start` to byte
    /// `end` of `reader`. Every field was checked by the first scan, so only value messages
    /// can fail here. Kept out of line: inlined into `init`, it left the scan's loops fewer
    /// registers (about six more instructions per value on osm-qa-montevideo).
    @inline(never)
    static func _readTables(_ reader: PBFReader, from start: Int, to end: Int, valueCount: Int,
                            _ keys: inout [UnsafeRawBufferPointer], _ values: inout [MVTValue],
                            _ multiTyped: inout Bool) throws(MVTError)
    {
        guard let b = reader.bytes.baseAddress else { return }
        var failure: MVTError?
        let first = values
        let loadableEnd = reader.bytes.count
        // The values go straight into an array of the counted size. The first scan counted
        // every value field from here on, so exactly `valueCount` are written (the bound
        // below never stops it; it keeps the writes within the buffer whatever happens).
        values = [MVTValue](unsafeUninitializedCapacity: valueCount) { buffer, written in
            written = 0
            guard let out = buffer.baseAddress else { return }
            let capacity = buffer.count
            var count = 0
            defer { written = count }
            for v in first where count < capacity {
                (out + count).initialize(to: v)
                count &+= 1
            }
            let n = end
            var p = start
            while p < n {
                // The common record first: a value message under 128 bytes, one typed field
                // with a one-byte key (`_parseRaw`). Anything else, or a full buffer, goes on
                // below.
                // Safe: p < n, and p + 1 < n before the second load.
                if b.load(fromByteOffset: p, as: UInt8.self) == 0x22, p &+ 1 < n, count < capacity {
                    let length = Int(b.load(fromByteOffset: p &+ 1, as: UInt8.self))
                    let valueStart = p &+ 2, valueEnd = valueStart &+ length
                    if length < 0x80, valueEnd <= n,
                       let v = MVTValue._parseRaw(UnsafeRawBufferPointer(start: b + valueStart, count: length),
                                                  loadable: loadableEnd &- valueStart)
                    {
                        (out + count).initialize(to: v)
                        count &+= 1
                        p = valueEnd
                        continue
                    }
                }
                let record: (key: UInt8, start: Int, end: Int)
                if let raw = _rawTableRecord(b, p, n) {
                    record = raw
                } else {
                    // Anything else (other fields, longer keys) through the reader.
                    guard let checked = Layer._checkedTableRecord(reader, p) else { return }
                    record = checked
                }
                let bytes = UnsafeRawBufferPointer(start: b + record.start, count: record.end &- record.start)
                if record.key == 0x22 {
                    guard count < capacity else { return }
                    let value: MVTValue
                    do throws(MVTError) {
                        value = try MVTValue._read(bytes, loadable: loadableEnd &- record.start,
                                                   origin: reader.absoluteStart &+ record.start, multiTyped: &multiTyped)
                    } catch {
                        failure = error
                        return
                    }
                    (out + count).initialize(to: value)
                    count &+= 1
                } else if record.key == 0x1A {
                    keys.append(bytes)
                }
                // 0x12: a feature between the tables; 0: another field.
                p = record.end
            }
        }
        if let failure { throw failure }
    }

    /// The field at byte `p` of `reader` read with the checked reader: a key or value record
    /// as `_rawTableRecord` gives it, any other field as key 0 with `end` after it; nil when
    /// it is malformed.
    @inline(never)
    static func _checkedTableRecord(_ reader: PBFReader, _ p: Int) -> (key: UInt8, start: Int, end: Int)? {
        var r = reader.positioned(at: p)
        guard let (field, wire) = try? r.readKey() else { return nil }
        if field == 3 || field == 4, let sub = try? r.readLengthDelimited() {
            return (field == 3 ? 0x1A : 0x22, sub.absoluteStart &- reader.absoluteStart, r.offset)
        }
        guard (try? r.skip(wire)) != nil else { return nil }
        return (0, r.offset, r.offset)
    }

    /// Calls `body` with each feature, in order. Stops at the first error `body` throws.
    ///
    /// - Complexity: O(layer size); allocates nothing.
    @inlinable
    public func forEachFeature<E: Error>(_ body: (Feature) throws(E) -> Void) throws(E) {
        guard featureCount > 0, let b = message.bytes.baseAddress else { return }
        // Only the span from the first feature to the end of the last is walked, its
        // feature, key and value records with raw loads and anything else with the reader.
        // Safe to ignore errors here: the initialiser already walked every field.
        let n = featuresEnd, origin = message.absoluteStart
        let keyCount = keys.count, valueCount = values.count
        if let index = _featureIndex {
            // The scan's index: no walk over the keys and values between the features.
            let entries = index.base
            for i in 0..<featureCount {
                // Safe: the scan wrote `featureCount` entries, each a record inside the layer.
                let (start, end) = _FeatureIndex.bounds(entries[i])
                let sub = PBFReader(bytes: UnsafeRawBufferPointer(start: b + start, count: end &- start),
                                    origin: origin &+ start)
                try body(Feature(sub, keyCount: keyCount, valueCount: valueCount))
            }
            return
        }
        var p = featuresStart
        while p < n {
            if let (key, start, end) = _rawTableRecord(b, p, n) {
                if key == 0x12 {
                    let sub = PBFReader(bytes: UnsafeRawBufferPointer(start: b + start, count: end &- start),
                                        origin: origin &+ start)
                    try body(Feature(sub, keyCount: keyCount, valueCount: valueCount))
                }
                p = end
                continue
            }
            var r = PBFReader(bytes: UnsafeRawBufferPointer(start: b, count: n), origin: origin).positioned(at: p)
            guard let (field, wire) = try? r.readKey() else { return }
            if field == 2, wire == .lengthDelimited, let sub = try? r.readLengthDelimited() {
                try body(Feature(sub, keyCount: keyCount, valueCount: valueCount))
            } else if (try? r.skip(wire)) == nil {
                return
            }
            p = r.offset
        }
    }
}
