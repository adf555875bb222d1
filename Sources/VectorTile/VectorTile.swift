import PBF

/// A Mapbox Vector Tile (MVT 2.1) read lazily from bytes the caller owns.
///
/// A tile, its layers and their features are views: they point into the caller's bytes and
/// decode only what is asked for. Keep the bytes alive and unchanged while any view is used
/// (`VectorTile.read(_:_:)` scopes this for an array), and copy out what you keep.
///
/// ```swift
/// try VectorTile.read(bytes) { tile in
///     for layer in try tile.layers() {
///         print(layer.name, layer.featureCount)
///     }
/// }
/// ```
///
/// - Complexity: `layers()` is one scan of the tile's top-level fields plus, per layer, one
///   scan of that layer's fields; features are not decoded until iterated.
public struct VectorTile {
    public let bytes: UnsafeRawBufferPointer

    /// A view over `bytes`, which must outlive it.
    public init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Runs `body` with a tile over `bytes`.
    public static func read<R>(_ bytes: [UInt8], _ body: (VectorTile) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(VectorTile(bytes: $0)) }
    }

    /// The tile's layers in order (Tile field 3, A1). Unknown top-level fields are skipped
    /// (P6); a layer field with another wire type is an error (P5).
    ///
    /// - Throws: `MVTError` for the first fatal problem of the tile or of a layer header.
    /// - Complexity: O(tile size); allocates the array of layers and each layer's keys and
    ///   values, nothing per feature.
    public func layers() throws(MVTError) -> [Layer] {
        var out: [Layer] = []
        var r = PBFReader(bytes: bytes)
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            if field == 3 {
                try expectOr(wire, .lengthDelimited, "Tile", field, keyOffset)
                out.append(try Layer(try pbf { () throws(PBFError) in try r.readLengthDelimited() }))
            } else {
                try pbf { () throws(PBFError) in try r.skip(wire) }
            }
        }
        return out
    }
}

extension VectorTile {
    /// The layers that can be read, skipping those whose header is broken (an unknown
    /// version may be skipped per §4.1, A4; layers are self-contained, A13, so the rest
    /// stay usable), with a finding for each skipped layer. A malformed tile-level field
    /// ends the scan, as nothing after it can be located; that is reported too. Never
    /// silent: every layer is either returned or reported.
    ///
    /// - Complexity: O(tile size).
    public func readableLayers() -> (layers: [Layer], skipped: [MVTFinding]) {
        var layers: [Layer] = []
        var skipped: [MVTFinding] = []
        var r = PBFReader(bytes: bytes)
        var index = 0
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            do throws(MVTError) {
                let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
                guard field == 3 else {
                    try pbf { () throws(PBFError) in try r.skip(wire) }
                    continue
                }
                try expectOr(wire, .lengthDelimited, "Tile", field, keyOffset)
                let sub = try pbf { () throws(PBFError) in try r.readLengthDelimited() }
                defer { index += 1 }
                do throws(MVTError) { layers.append(try Layer(sub)) } catch {
                    skipped.append(MVTFinding(error: error, layer: index))
                }
            } catch {
                skipped.append(MVTFinding(error: error, layer: index))
                break
            }
        }
        return (layers, skipped)
    }
}

/// One layer (MVT 2.1 §4.1): its name, version, extent, keys and values, and its features.
public struct Layer {
    /// The layer message's bytes.
    public let message: PBFReader
    /// Name bytes (UTF-8), borrowed.
    public let nameBytes: UnsafeRawBufferPointer
    public let version: UInt32
    /// Extent; 4096 when the field is absent (A11).
    public let extent: UInt32
    /// Key strings, borrowed, in index order (A8).
    public let keys: [UnsafeRawBufferPointer]
    /// Values in index order (A9, A10).
    public let values: [MVTValue]
    /// Number of feature records.
    public let featureCount: Int
    /// Where the first feature record's key starts and where the last one ends, within the
    /// layer message, so iterating features does not walk the keys and values again.
    @usableFromInline let featuresStart: Int
    @usableFromInline let featuresEnd: Int
    /// Offset of the layer message in the tile.
    public var offset: Int { message.absoluteStart }

    /// The name as a string (copied).
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// Reads the layer's header fields in one scan, in any order (A3, P9); repeated scalar
    /// fields take the last value (P8).
    init(_ reader: PBFReader) throws(MVTError) {
        var r = reader
        var name: UnsafeRawBufferPointer?
        var version: UInt32?
        var extent: UInt32 = 4096
        var keys: [UnsafeRawBufferPointer] = []
        var values: [MVTValue] = []
        var features = 0
        var featuresStart = 0, featuresEnd = 0
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            let local = r.offset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            switch field {
            case 1:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                name = try pbf { () throws(PBFError) in try r.readLengthDelimited() }.bytes
            case 2:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                _ = try pbf { () throws(PBFError) in try r.readLengthDelimited() }
                if features == 0 { featuresStart = local }
                featuresEnd = r.offset
                features += 1
            case 3:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                keys.append(try pbf { () throws(PBFError) in try r.readLengthDelimited() }.bytes)
            case 4:
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                values.append(try MVTValue.parse(try pbf { () throws(PBFError) in try r.readLengthDelimited() }))
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
        guard let version else { throw .missingVersion(offset: reader.absoluteStart) }
        guard version == 1 || version == 2 else {
            throw .unsupportedVersion(version, offset: reader.absoluteStart)
        }
        guard let name else { throw .missingName(offset: reader.absoluteStart) }
        self.message = reader
        self.nameBytes = name
        self.version = version
        self.extent = extent
        self.keys = keys
        self.values = values
        self.featureCount = features
        self.featuresStart = featuresStart
        self.featuresEnd = featuresEnd
    }

    /// Calls `body` with each feature, in order. Stops at the first error `body` throws.
    ///
    /// - Complexity: O(layer size); allocates nothing.
    @inlinable
    public func forEachFeature<E: Error>(_ body: (Feature) throws(E) -> Void) throws(E) {
        guard featureCount > 0 else { return }
        // Only the span from the first feature to the end of the last is walked.
        var r = PBFReader(bytes: UnsafeRawBufferPointer(rebasing: message.bytes[featuresStart..<featuresEnd]),
                          origin: message.absoluteStart &+ featuresStart)
        let keyCount = keys.count, valueCount = values.count
        // Safe to ignore errors here: the initialiser already walked every field.
        while !r.isAtEnd {
            guard let (field, wire) = try? r.readKey() else { return }
            if field == 2, wire == .lengthDelimited, let sub = try? r.readLengthDelimited() {
                try body(Feature(sub, keyCount: keyCount, valueCount: valueCount))
            } else if (try? r.skip(wire)) == nil {
                return
            }
        }
    }
}
