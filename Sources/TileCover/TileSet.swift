import GeoModel

/// Operations on a set of tiles of one zoom: its edge tiles and its outline as polygons
/// (what supermercado's `edges` and `union` commands compute).
public enum TileSet {
    /// The tiles of `tiles` with at least one of their 8 neighbours missing from the set
    /// (neighbours off the grid count as missing), sorted. Tiles of other zooms than the
    /// first tile's are ignored.
    ///
    /// - Complexity: O(n) hash lookups.
    public static func edges(_ tiles: [TileID]) -> [TileID] {
        guard let z = tiles.first?.z else { return [] }
        let set = Set(tiles.filter { $0.z == z })
        return set.filter { t in
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    guard let n = TileID(z: Int(z), x: Int(t.x) + dx, y: Int(t.y) + dy), set.contains(n) else { return true }
                }
            }
            return false
        }.sorted()
    }

    /// The outline of the tiles' union as polygons in longitude/latitude: one polygon per
    /// group of tiles connected through shared edges (tiles meeting only at a corner are
    /// separate polygons), with holes where the group encloses missing tiles. Exterior
    /// rings are counterclockwise and holes clockwise (RFC 7946 §3.1.6); collinear
    /// vertices are dropped, so a 2×1 block is a four-vertex rectangle. Polygons come in
    /// the order of their north-westernmost tile.
    ///
    /// - Complexity: O(n log n).
    public static func union(_ tiles: [TileID]) -> [Geometry] {
        guard let z = tiles.first?.z else { return [] }
        let cells = Set(tiles.filter { $0.z == z }.map { Cell(x: Int($0.x), y: Int($0.y)) })
        // Groups by 4-connectivity, numbered in row-major order of their first cell.
        var group: [Cell: Int] = [:]
        var groups = 0
        for c in cells.sorted() where group[c] == nil {
            var stack = [c]
            group[c] = groups
            while let d = stack.popLast() {
                for n in [Cell(x: d.x + 1, y: d.y), Cell(x: d.x - 1, y: d.y), Cell(x: d.x, y: d.y + 1), Cell(x: d.x, y: d.y - 1)]
                where cells.contains(n) && group[n] == nil {
                    group[n] = groups
                    stack.append(n)
                }
            }
            groups += 1
        }
        // Directed boundary edges: each cell's sides clockwise on screen (y down), so the
        // cell is on the right of every edge; a side is kept where the cell across it is
        // missing.
        struct Edge { var from: Cell; var to: Cell; var group: Int }
        var outgoing: [Cell: [Int]] = [:]
        var edges: [Edge] = []
        for c in cells.sorted() {
            let g = group[c]!
            let corners = [Cell(x: c.x, y: c.y), Cell(x: c.x + 1, y: c.y), Cell(x: c.x + 1, y: c.y + 1), Cell(x: c.x, y: c.y + 1)]
            let across = [Cell(x: c.x, y: c.y - 1), Cell(x: c.x + 1, y: c.y), Cell(x: c.x, y: c.y + 1), Cell(x: c.x - 1, y: c.y)]
            for k in 0..<4 where !cells.contains(across[k]) {
                outgoing[corners[k], default: []].append(edges.count)
                edges.append(Edge(from: corners[k], to: corners[(k + 1) % 4], group: g))
            }
        }
        // Trace rings. At a vertex where two groups (or two parts of one) meet diagonally
        // there are two outgoing edges: take the one of the same group that turns right
        // of the incoming direction, which keeps corner-touching cells apart.
        var used = [Bool](repeating: false, count: edges.count)
        var rings: [(group: Int, vertices: [Cell])] = []
        for start in edges.indices where !used[start] {
            var ring: [Cell] = []
            var e = start
            while !used[e] {
                used[e] = true
                ring.append(edges[e].from)
                let here = edges[e].to
                let dir = (edges[e].to.x - edges[e].from.x, edges[e].to.y - edges[e].from.y)
                let candidates = (outgoing[here] ?? []).filter { !used[$0] && edges[$0].group == edges[e].group }
                guard !candidates.isEmpty else { break }
                if candidates.count == 1 {
                    e = candidates[0]
                } else {
                    // Right turn in y-down tile space: (dx, dy) → (−dy, dx).
                    let right = (-dir.1, dir.0)
                    e = candidates.first { (edges[$0].to.x - here.x, edges[$0].to.y - here.y) == right } ?? candidates[0]
                }
            }
            rings.append((edges[start].group, simplify(ring)))
        }
        // Per group: the ring of largest area is the exterior, the others are holes.
        let n = Double(1 << Int(z))
        var out: [Geometry] = []
        for g in 0..<groups {
            let mine = rings.filter { $0.group == g }.map(\.vertices).sorted { abs(area($0)) > abs(area($1)) }
            var coords: [Double] = []
            var starts: [Int] = []
            for (i, ring) in mine.enumerated() {
                // Exterior counterclockwise on the map (north up), holes clockwise; in y-down
                // tile space counterclockwise on the map has negative shoelace area.
                let wantNegative = i == 0
                let r = (area(ring) < 0) == wantNegative ? ring : Array(ring.reversed())
                starts.append(coords.count / 2)
                for v in r + [r[0]] {
                    coords.append(WebMercator.longitude(x: Double(v.x) / n))
                    coords.append(WebMercator.latitude(y: Double(v.y) / n))
                }
            }
            out.append(Geometry(kind: .polygon, coordinates: coords, partStarts: starts, polygonStarts: [0]))
        }
        return out
    }

    struct Cell: Hashable, Comparable {
        var x: Int, y: Int
        static func < (a: Cell, b: Cell) -> Bool { (a.y, a.x) < (b.y, b.x) }
    }

    /// Drops vertices where the ring goes straight on.
    static func simplify(_ ring: [Cell]) -> [Cell] {
        guard ring.count > 3 else { return ring }
        var out: [Cell] = []
        for i in ring.indices {
            let a = ring[(i + ring.count - 1) % ring.count], b = ring[i], c = ring[(i + 1) % ring.count]
            if (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) != 0 { out.append(b) }
        }
        return out
    }

    /// Twice the signed area in tile space (y down).
    static func area(_ ring: [Cell]) -> Int {
        var s = 0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            s += a.x * b.y - b.x * a.y
        }
        return s
    }
}
