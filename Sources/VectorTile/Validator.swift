import PBF

/// One problem found by `MVTValidator`: the error, and where it sits in the tile.
public struct MVTFinding: Equatable, Sendable, CustomStringConvertible {
    /// The violated rule, with the byte offset where it was found.
    public var error: MVTError
    /// Index of the layer (in tile order), when the problem is inside one.
    public var layer: Int?
    /// Index of the feature within its layer, when the problem is inside one.
    public var feature: Int?

    /// The error's severity (fatal, recoverable or warning).
    public var severity: MVTError.Severity { error.severity }
    /// The checklist rule the error enforces ("B6", "D4", …; see `MVTError.rule`).
    public var rule: String { error.rule }

    /// One line: severity, rule, error and place, as `graticule mvt inspect` prints it.
    public var description: String {
        var place = "byte \(error.offset)"
        if let layer { place += ", layer \(layer)" }
        if let feature { place += ", feature \(feature)" }
        return "\(severity.rawValue) [\(rule)] \(error) at \(place)"
    }
}

/// Checks a whole tile against MVT 2.1 and reports every problem it finds, instead of
/// stopping at the first (as `VectorTile.layers()` does).
///
/// After a fatal problem inside a layer the rest of that layer is not examined, but the
/// next layers are (layers are self-contained, A13); a malformed tile-level field stops the
/// scan, as nothing after it can be located.
public enum MVTValidator {
    /// - Parameter tile: the tile to check (a view: its bytes must outlive the call).
    /// - Parameter warnings: also check the SHOULD rules (A1, A3, A7, A8, A9, B5, D7). The
    ///   duplicate checks hash every key, value and id, which costs about as much as the
    ///   decode itself on tiles with large property tables; D7 reads every polygon's
    ///   geometry a second time (without warnings, no ring's area but each geometry's
    ///   first is read).
    /// - Parameter storage: where the layers' tables and feature index are read (see
    ///   `VectorTile.forEachLayer(storage:_:)`); pass the same storage for a stream of
    ///   tiles to reuse it, or none to allocate for this tile.
    /// - Complexity: O(tile size); allocates per finding, and for the layers' keys, values
    ///   and feature index (storage reused from one layer to the next).
    public static func validate(_ tile: VectorTile, warnings: Bool = true, storage: LayerStorage? = nil) -> [MVTFinding] {
        var all: [MVTFinding] = []
        validate(tile, warnings: warnings, storage: storage) { all.append($0) }
        return all
    }

    /// `validate(_:warnings:storage:)` giving each finding to `body` as its layer is done,
    /// in the same order, so that a caller that counts findings keeps none: the memory of a
    /// tile of a million layers does not grow with its findings.
    public static func validate(_ tile: VectorTile, warnings: Bool = true, storage: LayerStorage? = nil,
                                each body: (MVTFinding) -> Void) {
        var findings: [MVTFinding] = []
        func flush() {
            for f in findings { body(f) }
            findings.removeAll(keepingCapacity: true)
        }
        var names = Set<_BytesKey>()   // borrowed from the tile, which outlives the call
        var layerIndex = 0
        // Storage for the layers' keys, values and feature index, reused from one layer to
        // the next.
        let storage = storage ?? LayerStorage()
        do throws(MVTError) {
            try tile._forEachLayerMessage { sub throws(MVTError) in
                defer { layerIndex += 1; flush() }
                let layer: Layer
                do throws(MVTError) { layer = try Layer(sub, reusing: &storage.keys, &storage.values, &storage.index) } catch {
                    findings.append(MVTFinding(error: error, layer: layerIndex))
                    return
                }
                if layer.extent == 0 {
                    findings.append(MVTFinding(error: .invalidExtent(offset: layer.offset), layer: layerIndex))
                }
                if layer._multiTypedValues { multiTypedValues(layer, layerIndex: layerIndex, into: &findings) }
                if !names.insert(_BytesKey(bytes: layer.nameBytes)).inserted {
                    findings.append(MVTFinding(error: .duplicateLayerName(layer.name, offset: layer.offset),
                                               layer: layerIndex))
                }
                if warnings { layerWarnings(layer, layerIndex: layerIndex, into: &findings) }
                validateFeatures(layer, layerIndex: layerIndex, warnings: warnings, into: &findings)
            }
        } catch {
            // A malformed tile-level field: nothing after it can be located.
            flush()
            body(MVTFinding(error: error))
            return
        }
        if warnings && layerIndex == 0 { body(MVTFinding(error: .noLayers)) }
    }

    /// Values with more than one typed field (A10: exactly one), found by walking the
    /// layer's value records (field 4).
    static func multiTypedValues(_ layer: Layer, layerIndex: Int, into findings: inout [MVTFinding]) {
        var r = layer.message
        while !r.isAtEnd {
            let at = r.absoluteOffset
            guard let (field, wire) = try? r.readKey() else { return }
            if field == 4 && wire == .lengthDelimited {
                guard let sub = try? r.readLengthDelimited() else { return }
                if let n = MVTValue.typedFieldCount(sub.bytes), n > 1 {
                    findings.append(MVTFinding(error: .multiTypedValue(offset: at), layer: layerIndex))
                }
            } else {
                guard (try? r.skip(wire)) != nil else { return }
            }
        }
    }

    /// SHOULD-level checks of a layer header (A3, A7, A8, A9).
    static func layerWarnings(_ layer: Layer, layerIndex: Int, into findings: inout [MVTFinding]) {
        func add(_ e: MVTError) { findings.append(MVTFinding(error: e, layer: layerIndex)) }
        var first = layer.message
        if let (field, _) = try? first.readKey(), field != 15 { add(.versionNotFirst(offset: layer.offset)) }
        if layer.featureCount == 0 { add(.emptyLayer(offset: layer.offset)) }
        var keys = Set<_BytesKey>(minimumCapacity: layer.keys.count)
        for k in layer.keys where !keys.insert(_BytesKey(bytes: k)).inserted {
            add(.duplicateKey(String(decoding: k, as: UTF8.self), offset: layer.offset))
        }
        var values = Set<_ValueKey>(minimumCapacity: layer.values.count)
        for v in layer.values where !values.insert(_ValueKey(value: v)).inserted {
            add(.duplicateValue(offset: layer.offset))
        }
    }

    static func validateFeatures(_ layer: Layer, layerIndex: Int, warnings: Bool, into findings: inout [MVTFinding]) {
        // The bounds of the tag check for large tables (`_checkPairBlocks`), made once per layer.
        var bounds = _PairBounds(first: UInt32(truncatingIfNeeded: layer.keys.count),
                                 second: UInt32(truncatingIfNeeded: layer.values.count))
        withUnsafePointer(to: &bounds) {
            validateFeatures(layer, layerIndex: layerIndex, warnings: warnings, tagBounds: $0,
                             into: &findings)
        }
    }

    static func validateFeatures(_ layer: Layer, layerIndex: Int, warnings: Bool, tagBounds: UnsafePointer<_PairBounds>,
                                 into findings: inout [MVTFinding])
    {
        var index = 0
        var ids = Set<UInt64>(minimumCapacity: warnings ? layer.featureCount : 0)
        // The closure only forwards to a static function, so the state it captures is
        // checked for exclusive access when compiled, not on every feature.
        layer.forEachFeature { (f: Feature) in
            validateFeature(f, layerIndex: layerIndex, index: index, warnings: warnings, tagBounds: tagBounds,
                            ids: &ids, into: &findings)
            index += 1
        }
    }

    /// The MUST rules of one feature (and, with `warnings`, B5 and D7).
    @inline(__always)
    static func validateFeature(_ f: Feature, layerIndex: Int, index: Int, warnings: Bool, tagBounds: UnsafePointer<_PairBounds>,
                                ids: inout Set<UInt64>, into findings: inout [MVTFinding])
    {
        struct Discard: GeometryHandler {}
        // A nested function, not a closure: its captures are checked when compiled.
        func add(_ e: MVTError) { findings.append(MVTFinding(error: e, layer: layerIndex, feature: index)) }
        if let e = f.scanError { add(e); return }
        if warnings && f.hasID && !ids.insert(f.id).inserted { add(.duplicateFeatureID(f.id, offset: f.offset)) }
        if f.rawType == nil { add(.missingType(offset: f.offset)) }
        do throws(MVTError) { try f._checkTags(tagBounds: tagBounds) { _, _ in } } catch { add(error) }
        guard f.geometryRecords > 0 else { add(.missingGeometry(offset: f.offset)); return }
        // Several geometry records concatenate by protobuf rules; the feature is skipped as a
        // whole (recoverable), so its concatenated commands are not judged.
        if f.geometryRecords > 1 { add(.repeatedGeometry(offset: f.offset)); return }
        var h = Discard()
        // `Discard` ignores every call, so line pairs and the pairs of rings after the first
        // need only be checked.
        do throws(MVTError) {
            try f._decodeCommands(into: &h, mode: .strict, linePoints: _CheckedOnly.self)
        } catch {
            add(error)
        }
        if warnings && degenerateRings(f) > 0 { add(.degenerateRing(offset: f.offset)) }
    }

    /// How many of a polygon feature's rings have zero area (D7), up to the first error: a
    /// second pass, for warnings only, so that the first reads no ring's area but the
    /// first ring's.
    @inline(never)
    static func degenerateRings(_ f: Feature) -> Int {
        struct Count: GeometryHandler {
            var degenerate = 0
            mutating func ringEnd(_ kind: RingKind) { if kind == .degenerate { degenerate += 1 } }
        }
        guard f.type == .polygon else { return 0 }
        var h = Count()
        try? f._decodeCommands(into: &h, mode: .strict, linePoints: _SkippedLinePoints.self)
        return h.degenerate
    }
}
