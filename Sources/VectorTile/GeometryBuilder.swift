import GeoModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a tile sits in the Web Mercator XYZ grid, to turn tile coordinates into
/// longitude/latitude.
public struct TileAddress: Equatable, Sendable {
    /// Zoom level, column (from the west) and row (from the north).
    public var z: Int, x: Int, y: Int
    /// - Precondition: 0 ≤ z ≤ 30 and x, y inside the 2^z grid (API misuse otherwise).
    public init(z: Int, x: Int, y: Int) {
        precondition(z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < 1 << z && y < 1 << z, "tile outside the grid")
        self.z = z; self.x = x; self.y = y
    }

    /// Longitude/latitude of a point in tile coordinates (0...extent across the tile,
    /// y down; §4.3.3), through the spherical Web Mercator inverse.
    public func lonLat(x px: Int64, y py: Int64, extent: UInt32) -> (lon: Double, lat: Double) {
        let n = Double(1 << z)
        let wx = (Double(x) + Double(px) / Double(extent)) / n
        let wy = (Double(y) + Double(py) / Double(extent)) / n
        let lon = wx * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * wy))) * 180 / Double.pi
        return (lon, lat)
    }
}

extension Feature {
    /// The feature's geometry as a `GeoModel.Geometry`, in tile coordinates, or in
    /// longitude/latitude when `tile` is given. Polygons are grouped by ring sign: each
    /// exterior ring starts a polygon and the interior rings after it are its holes
    /// (§4.3.4.4); rings are closed; a degenerate (zero-area) ring is dropped (D7). In
    /// longitude/latitude, rings are reversed to follow RFC 7946 §3.1.6's right-hand rule
    /// (MVT exteriors are clockwise on screen, which is clockwise on the map too); in tile
    /// coordinates they keep the encoded order. Several
    /// polygons or lines make a Multi* geometry. UNKNOWN features give nil (B4).
    ///
    /// - Throws: what `decodeGeometry` throws.
    /// - Complexity: O(geometry); allocates the geometry's arrays, sized as it goes (never
    ///   from a count read off the wire).
    public func geometry(in tile: TileAddress? = nil, extent: UInt32 = 4096, mode: GeometryMode = .strict)
        throws(MVTError) -> Geometry?
    {
        // Longitude and latitude are fractions of the extent: with none, every coordinate
        // would be infinite or NaN (and a GeoJSON writer would have to write non-numbers).
        if tile != nil && extent == 0 { throw .invalidExtent(offset: offset) }
        var b = _GeometryBuilder(tile: tile, extent: extent)
        try decodeGeometry(into: &b, mode: mode)
        guard let type, type != .unknown else { return nil }
        switch type {
        case .point:
            return Geometry(kind: b.coords.count == 2 ? .point : .multiPoint, coordinates: b.coords)
        case .lineString:
            return Geometry(kind: b.parts.count == 1 ? .lineString : .multiLineString,
                            coordinates: b.coords, partStarts: b.parts)
        case .polygon:
            return Geometry(kind: b.polygons.count == 1 ? .polygon : .multiPolygon,
                            coordinates: b.coords, partStarts: b.parts, polygonStarts: b.polygons)
        case .unknown:
            return nil
        }
    }
}

struct _GeometryBuilder: GeometryHandler {
    let tile: TileAddress?
    let extent: UInt32
    var coords: [Double] = []
    var parts: [Int] = []
    var polygons: [Int] = []
    var ringStart = 0
    var firstX: Int64 = 0, firstY: Int64 = 0

    init(tile: TileAddress?, extent: UInt32) {
        self.tile = tile
        self.extent = extent
    }

    mutating func put(_ x: Int64, _ y: Int64) {
        if let tile {
            let p = tile.lonLat(x: x, y: y, extent: extent)
            coords.append(p.lon); coords.append(p.lat)
        } else {
            coords.append(Double(x)); coords.append(Double(y))
        }
    }

    mutating func point(x: Int64, y: Int64) { put(x, y) }
    mutating func lineBegin() { parts.append(coords.count / 2) }
    mutating func linePoint(x: Int64, y: Int64) { put(x, y) }
    mutating func ringBegin() {
        ringStart = coords.count
        parts.append(coords.count / 2)
    }
    mutating func ringPoint(x: Int64, y: Int64) {
        if coords.count == ringStart { firstX = x; firstY = y }
        put(x, y)
    }
    mutating func ringEnd(_ kind: RingKind) {
        switch kind {
        case .degenerate:
            coords.removeSubrange(ringStart...)
            parts.removeLast()
        case .exterior:
            polygons.append(parts.count - 1)
            put(firstX, firstY)
            if tile != nil { reverseRing() }
        case .interior:
            if polygons.isEmpty {
                // A hole with no exterior before it (only after a dropped degenerate ring).
                coords.removeSubrange(ringStart...)
                parts.removeLast()
            } else {
                put(firstX, firstY)
                if tile != nil { reverseRing() }
            }
        }
    }

    /// Reverses the positions of the ring just closed (from `ringStart`), keeping it closed.
    mutating func reverseRing() {
        var i = ringStart, j = coords.count - 2
        while i < j {
            coords.swapAt(i, j); coords.swapAt(i + 1, j + 1)
            i += 2; j -= 2
        }
    }
}
