import GeoModel

/// Tiles as features whose geometry is the tile's square in longitude and latitude: what
/// a map draws to show a tile set (a cover, a camera's tiles, a heat map of counts). Every
/// command and report that writes tiles as GeoJSON builds its features here.
public enum TileSquares {
    /// The square of `tile` as a polygon feature with id `z/x/y` (plus `@wrap`, `>overscaledZ`
    /// as `CameraTile` writes them) and properties `z`, `x`, `y`, `quadkey`, then `wrap` and
    /// `overscaledZ` when they say something, then `extra`. Longitudes are shifted by 360°
    /// per world copy.
    ///
    /// - Complexity: O(1) plus the properties.
    public static func feature(_ ct: CameraTile, extra: PropertyList = PropertyList()) -> GeoFeature {
        let t = ct.tile
        let b = t.bounds
        let shift = 360 * Double(ct.wrap)
        let (w, e) = (b.west + shift, b.east + shift)
        let ring = [w, b.south, e, b.south, e, b.north, w, b.north, w, b.south]
        var props: PropertyList = ["z": .int(Int64(t.z)), "x": .int(Int64(t.x)), "y": .int(Int64(t.y)),
                                   "quadkey": .string(t.quadkey)]
        if ct.wrap != 0 { props.append(key: "wrap", value: .int(Int64(ct.wrap))) }
        if ct.overscaledZ != Int(t.z) { props.append(key: "overscaledZ", value: .int(Int64(ct.overscaledZ))) }
        for (k, v) in extra { props.append(key: k, value: v) }
        return GeoFeature(id: .string(ct.description),
                          geometry: Geometry(kind: .polygon, coordinates: ring, partStarts: [0], polygonStarts: [0]),
                          properties: props)
    }

    /// The squares of `tiles`, in order.
    public static func features(_ tiles: [CameraTile]) -> [GeoFeature] {
        tiles.map { feature($0) }
    }
}
