import GeoModel

extension TileCoverage {
    /// A cover at one zoom that is used again and again: add the geometries of one feature
    /// (or any group), take their union's tiles, and go on with the next group. The
    /// buffers the cover works in (projected positions, tile keys, polygon crossings) are
    /// kept from group to group, so covering many small geometries, as a profile of a
    /// dataset does feature by feature, allocates nothing per geometry once they have
    /// grown. The tiles are those `tiles(for:zoom:mode:)` gives.
    ///
    /// ```swift
    /// var cover = TileCoverage.Accumulator(zoom: 6)
    /// var keys: [UInt64] = []
    /// cover.add(geometry)
    /// cover.finish(into: &keys)   // row << 32 | column, sorted
    /// ```
    public struct Accumulator {
        var cover: _Cover

        /// An empty cover at `zoom`.
        ///
        /// - Parameters:
        ///   - zoom: the zoom, 0...30.
        ///   - mode: which tiles count as covered where a geometry only touches tile edges.
        public init(zoom: Int, mode: Mode = .closed) {
            precondition(zoom >= 0 && zoom <= Int(TileID.maxZoom), "zoom must be 0...30")
            cover = _Cover(zoom: zoom)
            cover.minimal = mode == .minimal
        }

        /// The zoom of the cover.
        public var zoom: Int { cover.zoom }

        /// Adds a geometry (longitude/latitude); a collection adds its members.
        ///
        /// - Parameter geometry: the geometry.
        public mutating func add(_ geometry: Geometry) {
            cover.add(geometry, projected: true)
        }

        /// Adds a geometry held in shared buffers (longitude/latitude).
        ///
        /// - Parameter geometry: the geometry.
        public mutating func add(_ geometry: FlatGeometry) {
            cover.addSimple(geometry, projected: true)
        }

        /// Writes the tiles of everything added since the last call to `keys` (replacing its
        /// contents) as packed keys `row << 32 | column`, sorted, each once; the cover is then
        /// empty again.
        ///
        /// - Parameter keys: receives the tile keys; its buffer is reused.
        public mutating func finish(into keys: inout [UInt64]) {
            cover.finish(into: &keys)
        }
    }
}
