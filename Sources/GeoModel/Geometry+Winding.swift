extension Geometry {
    /// Twice the signed area of part `part` by the shoelace formula, in the plane of x
    /// (east) and y (north): positive when the ring runs counterclockwise.
    ///
    /// - Complexity: O(positions of the part); allocates nothing.
    public func signedArea(part: Int) -> Double {
        let r = partStarts.isEmpty ? 0..<positionCount : partRange(part)
        guard r.count >= 3 else { return 0 }
        var sum = 0.0
        var i = r.lowerBound
        while i < r.upperBound {
            let j = i + 1 < r.upperBound ? i + 1 : r.lowerBound
            sum += x(i) * y(j) - x(j) * y(i)
            i += 1
        }
        return sum
    }

    /// The geometry with every polygon ring oriented by the right-hand rule of RFC 7946
    /// §3.1.6: exterior rings counterclockwise, holes clockwise (in longitude/latitude with
    /// y north). Rings keep their first position; other geometries are unchanged; members
    /// of a collection are rewound too.
    ///
    /// - Complexity: O(positions).
    public func rewound() -> Geometry {
        var g = self
        if kind == .geometryCollection {
            g.geometries = geometries.map { $0.rewound() }
            return g
        }
        guard kind == .polygon || kind == .multiPolygon else { return g }
        for poly in 0..<polygonStarts.count {
            for (n, part) in polygonRange(poly).enumerated() {
                let area = signedArea(part: part)
                guard area != 0, (area > 0) != (n == 0) else { continue }
                // Reverse positions 1...count-2 of a closed ring keeps the first and last.
                let r = partRange(part)
                var lo = r.lowerBound + 1, hi = r.upperBound - 2
                if r.count < 4 || g.coordinates.count == 0 { continue }
                let d = dimensions
                while lo < hi {
                    for k in 0..<d { g.coordinates.swapAt(lo * d + k, hi * d + k) }
                    lo += 1
                    hi -= 1
                }
            }
        }
        return g
    }
}

extension GeoObject {
    /// The object with every polygon rewound per RFC 7946 §3.1.6 (see `Geometry.rewound()`).
    public func rewound() -> GeoObject {
        switch self {
        case .geometry(let g): return .geometry(g.rewound())
        case .feature(var f):
            f.geometry = f.geometry?.rewound()
            return .feature(f)
        case .featureCollection(let fs):
            return .featureCollection(fs.map { f in
                var f = f
                f.geometry = f.geometry?.rewound()
                return f
            })
        }
    }
}
