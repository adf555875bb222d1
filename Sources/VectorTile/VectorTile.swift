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
    /// The tile's bytes, borrowed.
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
        // Room for the layers of most tiles, so the array does not grow one layer at a time.
        out.reserveCapacity(16)
        try _forEachLayerMessage { message throws(MVTError) in out.append(try Layer(message)) }
        return out
    }

    /// Calls `body` with each layer message in order; unknown top-level fields are skipped
    /// (P6), a layer field with another wire type is an error (P5).
    @inlinable
    func _forEachLayerMessage(_ body: (PBFReader) throws(MVTError) -> Void) throws(MVTError) {
        var r = PBFReader(bytes: bytes)
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            if field == 3 {
                try expectOr(wire, .lengthDelimited, "Tile", field, keyOffset)
                try body(try pbf { () throws(PBFError) in try r.readLengthDelimited() })
            } else {
                try pbf { () throws(PBFError) in try r.skip(wire) }
            }
        }
    }
}

extension VectorTile {
    /// Calls `body` with each layer in order, as `layers()` finds them, without building the
    /// array. The layers' keys and values are read into storage reused from one layer to
    /// the next, so a tile costs two allocations instead of two per layer; a layer that
    /// `body` keeps keeps its own keys and values (the next layer then allocates anew).
    ///
    /// ```swift
    /// try tile.forEachLayer { layer in
    ///     try layer.forEachFeature { (f: Feature) throws(MVTError) in
    ///         try f.decodeGeometry(into: &handler)
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `MVTError`: the first fatal problem of the tile or of a layer header (the
    ///   layers before it have been passed to `body`), or what `body` throws.
    /// - Complexity: O(tile size) besides `body`; nothing allocated per feature.
    @inlinable
    public func forEachLayer(_ body: (Layer) throws(MVTError) -> Void) throws(MVTError) {
        try forEachLayer(storage: LayerStorage(), body)
    }

    /// `forEachLayer(_:)` with the layers' keys, values and feature index read into
    /// `storage`, which can be passed again for the next tile: a stream of tiles decoded
    /// with one storage allocates only when a layer needs more room than any before it.
    /// A layer that `body` keeps keeps its own tables (the next layer then allocates anew).
    ///
    /// ```swift
    /// let storage = LayerStorage()
    /// for bytes in tiles {
    ///     try VectorTile(bytes: bytes).forEachLayer(storage: storage) { layer in … }
    /// }
    /// ```
    @inlinable
    public func forEachLayer(storage: LayerStorage, _ body: (Layer) throws(MVTError) -> Void) throws(MVTError) {
        try _forEachLayerMessage { message throws(MVTError) in
            try body(try Layer(message, reusing: &storage.keys, &storage.values, &storage.index))
        }
    }

    /// `forEachLayer(storage:_:)` over the layers named `name` only (one source layer, as
    /// a map style reads it). The other layers are passed over without reading their keys,
    /// values or features: layers are self-contained (A13), so only each layer's `name`
    /// field is looked for, skipping its other records by their lengths.
    ///
    /// - Throws: `MVTError` for a malformed tile-level field, a layer whose fields cannot be
    ///   walked to find its name, or the first fatal problem of a matching layer's header;
    ///   or what `body` throws.
    /// - Complexity: O(records of the tile's layers) to find the names, plus the matching
    ///   layers' decode.
    public func forEachLayer(named name: String, storage: LayerStorage,
                             _ body: (Layer) throws(MVTError) -> Void) throws(MVTError) {
        let target = name.utf8
        try _forEachLayerMessage { message throws(MVTError) in
            guard let found = try Self._layerName(message), found.count == target.count,
                  found.elementsEqual(target) else { return }
            try body(try Layer(message, reusing: &storage.keys, &storage.values, &storage.index))
        }
    }

    /// The bytes of a layer message's `name` (field 1; the last one when repeated, as
    /// protobuf reads a repeated scalar), nil when it has none.
    static func _layerName(_ message: PBFReader) throws(MVTError) -> UnsafeRawBufferPointer? {
        var r = message
        var name: UnsafeRawBufferPointer?
        while !r.isAtEnd {
            let keyOffset = r.absoluteOffset
            let (field, wire) = try pbf { () throws(PBFError) in try r.readKey() }
            if field == 1 {
                try expectOr(wire, .lengthDelimited, "Layer", field, keyOffset)
                name = try pbf { () throws(PBFError) in try r.readLengthDelimited() }.bytes
            } else {
                try pbf { () throws(PBFError) in try r.skip(wire) }
            }
        }
        return name
    }

    /// The layers that can be read, skipping those whose header is broken (an unknown
    /// version may be skipped per §4.1, A4; layers are self-contained, A13, so the rest
    /// stay usable), with a finding for each skipped layer. A malformed tile-level field
    /// ends the scan, as nothing after it can be located; that is reported too. Never
    /// silent: every layer is either returned or reported.
    ///
    /// - Complexity: O(tile size).
    public func readableLayers() -> (layers: [Layer], skipped: [MVTFinding]) {
        var layers: [Layer] = []
        layers.reserveCapacity(16)
        var skipped: [MVTFinding] = []
        forEachReadableLayer(storage: nil, { layers.append($0) }, skipped: { skipped.append($0) })
        return (layers, skipped)
    }

    /// `readableLayers()` one layer at a time: each readable layer to `body`, each skipped
    /// one (and a malformed tile-level field) to `skipped`, in tile order. With `storage`,
    /// the layers' tables are read into it and reused, so a tile of many layers costs the
    /// memory of its largest layer, not of all of them; a layer given to `body` is then
    /// valid until `body` returns.
    public func forEachReadableLayer(storage: LayerStorage?, _ body: (Layer) -> Void, skipped: (MVTFinding) -> Void) {
        var index = 0
        do throws(MVTError) {
            try _forEachLayerMessage { message throws(MVTError) in
                defer { index += 1 }
                do throws(MVTError) {
                    if let storage {
                        body(try Layer(message, reusing: &storage.keys, &storage.values, &storage.index))
                    } else {
                        body(try Layer(message))
                    }
                } catch {
                    skipped(MVTFinding(error: error, layer: index))
                }
            }
        } catch {
            skipped(MVTFinding(error: error, layer: index))
        }
    }
}
