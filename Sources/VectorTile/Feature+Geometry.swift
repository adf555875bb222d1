import PBF

extension Feature {
    /// Decodes the geometry into `handler`, enforcing the command grammar of the feature's
    /// type (§4.3.4.2–4.3.4.4). UNKNOWN features (B4) produce no calls.
    ///
    /// - Throws: `MVTError` — missing or repeated geometry (B1, B9), bad type (B3), bad
    ///   command (C3), truncation (C4), ClosePath count (C7), zero-length segment (C8,
    ///   strict mode only), commands not allowed for the type (D1–D3), a polygon starting
    ///   with an interior ring (D4).
    /// - Complexity: O(geometry bytes); every loop step consumes input, so a huge command
    ///   count in a short tile ends with `truncatedGeometry`, never a long loop (F); allocates
    ///   nothing.
    @inlinable
    public func decodeGeometry<H: GeometryHandler>(into handler: inout H, mode: GeometryMode = .strict)
        throws(MVTError)
    {
        if _scanFailed, let scanError { throw scanError }
        guard geometryRecords > 0 else { throw .missingGeometry(offset: offset) }
        if geometryRecords > 1, mode == .strict { throw .repeatedGeometry(offset: offset) }
        try _decodeCommands(into: &handler, mode: mode)
    }

    /// The command grammar alone, without the record-level checks.
    @inlinable @inline(__always)
    func _decodeCommands<H: GeometryHandler>(into handler: inout H, mode: GeometryMode) throws(MVTError) {
        try _decodeCommands(into: &handler, mode: mode, linePoints: _DecodedLinePoints.self)
    }

    /// `_decodeCommands(into:mode:)`, with `_SkippedLinePoints` for a handler whose
    /// `linePoint` does nothing (the validator's): a LINESTRING's LineTo pairs are then
    /// checked without being decoded where `_checkLinePairs` can.
    @inlinable @inline(__always)
    func _decodeCommands<H: GeometryHandler, L: _LinePoints>(into handler: inout H, mode: GeometryMode,
                                                             linePoints: L.Type) throws(MVTError)
    {
        guard let type else { throw .invalidType(rawType ?? 0, offset: offset) }
        // The common case, one packed record, is read with a raw cursor over its bytes;
        // several records or unpacked values (P7, B9) go through the stream.
        if _geometryRecords == 1, geometryPayloadStart >= 0, let b = message.bytes.baseAddress {
            let start = Int(geometryPayloadStart)
            let cursor = _PackedCursor(base: b + start, end: Int(geometryPayloadEnd) &- start,
                                       loadable: message.bytes.count &- start,
                                       origin: message.absoluteStart &+ start, startOffset: message.absoluteStart)
            var d = _GeometryDecoder(source: cursor, mode: mode)
            try d.decode(type, &handler, L.self)
        } else {
            var d = _GeometryDecoder(source: geometryStream, mode: mode)
            try d.decode(type, &handler, L.self)
        }
    }
}
