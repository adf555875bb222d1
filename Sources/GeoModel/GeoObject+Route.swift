extension GeoObject {
    /// The object's first line as a route, the way a simulated location source takes any
    /// polyline: a LineString's positions, or a MultiLineString's lines joined in order; the
    /// geometry itself, a Feature's, or the first feature of a collection whose geometry is a
    /// line. Nil when there is none, or when it has no position.
    public var firstLine: [GeoPosition]? {
        func line(_ g: Geometry?) -> [GeoPosition]? {
            guard let g, g.kind == .lineString || g.kind == .multiLineString else { return nil }
            let d = g.dimensions
            var out: [GeoPosition] = []
            out.reserveCapacity(g.coordinates.count / d)
            var i = 0
            while i + 1 < g.coordinates.count {
                out.append(GeoPosition(latitude: g.coordinates[i + 1], longitude: g.coordinates[i]))
                i += d
            }
            return out.isEmpty ? nil : out
        }
        switch self {
        case .geometry(let g): return line(g)
        case .feature(let f): return line(f.geometry)
        case .featureCollection(let fs):
            for f in fs { if let l = line(f.geometry) { return l } }
            return nil
        }
    }
}
