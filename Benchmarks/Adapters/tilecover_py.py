#!/usr/bin/env python3
"""External implementations of the tile-cover benchmarks for graticule's runner.

Speaks the external protocol (see `ExternalProgram` in Sources/BenchKit/External.swift and
the README): load the dataset, print `ready`, answer `digest` with the tiles' digest
(result_digest.py), then answer each `run N` with `ns T`, the nanoseconds N operations
took, until `quit`.

The digest holds each feature's cover as a multiset, as graticule's does (supermercado's
burn of every feature on its own; the timed operation burns them all at once, which also
merges tiles two features share); for mercantile, the set of the points' tiles.

Usage: tilecover_py.py LIBRARY KIND ZOOM --dataset PATH
  supermercado polygon|lines ZOOM   burntiles.burn of every polygon / line feature
  mercantile points ZOOM            mercantile.tile of every point, collected in a set
(pip install supermercado mercantile)
"""
import json
import sys

from adapter_protocol import serve
from result_digest import tiles_digest


def features_of(doc):
    t = doc.get("type")
    if t == "FeatureCollection":
        return [f for f in doc.get("features", []) if f.get("geometry")]
    if t == "Feature":
        return [doc] if doc.get("geometry") else []
    return [{"type": "Feature", "properties": {}, "geometry": doc}]


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 5 or args[3] != "--dataset":
        print("error usage: tilecover_py.py supermercado|mercantile KIND ZOOM --dataset PATH", flush=True)
        return 2
    library, kind, zoom, path = args[0], args[1], int(args[2]), args[4]
    with open(path, "rb") as f:
        doc = json.loads(f.read())
    feats = features_of(doc)
    if library == "supermercado":
        try:
            from supermercado import burntiles
        except ImportError:
            print("error supermercado is not installed (pip install supermercado)", flush=True)
            return 2
        wanted = {"polygon": ("Polygon", "MultiPolygon"), "lines": ("LineString", "MultiLineString")}.get(kind)
        if wanted is None:
            print(f"error unknown kind {kind}", flush=True)
            return 2
        polys = [f for f in feats if f["geometry"]["type"] in wanted]

        def op():
            return len(burntiles.burn(polys, zoom))

        def tiles():
            out = []
            for f in polys:
                out.extend((int(z), int(x), int(y)) for x, y, z in burntiles.burn([f], zoom))
            return out

        def digest():
            return tiles_digest(tiles())
    elif library == "mercantile" and kind == "points":
        try:
            import mercantile
        except ImportError:
            print("error mercantile is not installed (pip install mercantile)", flush=True)
            return 2
        pts = []
        for f in feats:
            g = f["geometry"]
            if g["type"] == "Point":
                pts.append(g["coordinates"][:2])
            elif g["type"] == "MultiPoint":
                pts.extend(c[:2] for c in g["coordinates"])
        tile = mercantile.tile

        def op():
            return len({tile(p[0], p[1], zoom) for p in pts})

        def tiles():
            return [(t.z, t.x, t.y) for t in {tile(p[0], p[1], zoom) for p in pts}]

        def digest():
            return tiles_digest(tiles())
    else:
        print(f"error unknown library/kind {library} {kind}", flush=True)
        return 2
    print(f"# {op()} tiles", file=sys.stderr, flush=True)  # fail at setup, not while timing
    # `elements`: the tiles as sorted z/x/y text, as Graticule lists them.
    return serve(op, digest=digest, elements=lambda: sorted(f"{z}/{x}/{y}" for z, x, y in tiles()))

if __name__ == "__main__":
    sys.exit(main())
