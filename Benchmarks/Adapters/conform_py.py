"""Conformance adapters for Python implementations, speaking the runner's conformance
protocol (`ExternalConformanceProgram` in Sources/Conformance/External.swift): print
`ready`, answer each `case SUITE N PATH` with `accept`, `output B64`, `reject CLASS DETAIL` or
`unsupported REASON`, stop at `quit`.

Usage: python3 conform_py.py json|orjson|mapbox-vector-tile|mercantile
"""
import base64
import sys


def json_stdlib(suite, data):
    import json
    if suite != "json-test-suite":
        return "unsupported suite " + suite
    try:
        json.loads(data)  # bytes: the standard library detects UTF-8/16/32
    except Exception as e:  # ValueError, RecursionError, UnicodeDecodeError...
        return "reject invalid " + type(e).__name__
    return "accept"


def orjson_loads(suite, data):
    import orjson
    if suite != "json-test-suite":
        return "unsupported suite " + suite
    try:
        orjson.loads(data)
    except Exception as e:
        return "reject invalid " + type(e).__name__
    return "accept"


def mapbox_vector_tile(suite, data):
    import mapbox_vector_tile
    if suite != "mvt-fixtures":
        return "unsupported suite " + suite
    try:
        mapbox_vector_tile.decode(data)
    except Exception as e:
        return "reject fatal " + type(e).__name__ + ": " + str(e).replace("\n", " ")[:160]
    # decode() returns GeoJSON-like layers: the raw keys, values and commands the suite's
    # canonical text is made of are gone, so only the verdict is given (manifest: outputs false).
    return "accept"


def mercantile_ops(suite, data):
    import mercantile
    if suite != "tile-math":
        return "unsupported suite " + suite
    op, *args = data.decode().split()
    try:
        if op == "tile":
            t = mercantile.tile(float(args[0]), float(args[1]), int(args[2]))
            return ok(f"{t.x} {t.y}")
        x, y, z = (int(a) for a in args)
        if not (0 <= x < 2 ** z and 0 <= y < 2 ** z):
            # mercantile does not range-check tiles; refusing here would be the adapter's
            # judgement, not mercantile's, so its answer is passed through.
            pass
        if op == "quadkey":
            return ok(mercantile.quadkey(x, y, z))
        if op == "bounds":
            b = mercantile.bounds(x, y, z)
            return ok(" ".join(fmt(v) for v in (b.west, b.south, b.east, b.north)))
        if op == "parent":
            p = mercantile.parent(x, y, z)
            return ok(f"{p.x} {p.y} {p.z}")
        if op == "tms":
            return "unsupported mercantile has no TMS conversion"
    except Exception as e:
        return "reject invalid " + type(e).__name__ + ": " + str(e).replace("\n", " ")[:160]
    return "unsupported operation " + op


def fmt(v):
    s = "%.9f" % v
    return "0.000000000" if s == "-0.000000000" else s


def ok(text):
    return "output " + base64.b64encode(text.encode()).decode()


ADAPTERS = {"json": json_stdlib, "orjson": orjson_loads,
            "mapbox-vector-tile": mapbox_vector_tile, "mercantile": mercantile_ops}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ADAPTERS:
        print("error usage: conform_py.py " + "|".join(ADAPTERS), flush=True)
        return 2
    op = ADAPTERS[sys.argv[1]]
    try:
        op("none", b"")  # imports the library now, so a missing one fails before `ready`
    except ImportError as e:
        print("error " + str(e), flush=True)
        return 2
    import warnings
    warnings.simplefilter("ignore")
    sys.setrecursionlimit(10000)
    print("ready", flush=True)
    for line in sys.stdin:
        parts = line.split(" ", 3)
        if parts[0].strip() == "quit":
            return 0
        if parts[0] != "case" or len(parts) != 4:
            print("error unexpected " + line.strip(), flush=True)
            return 2
        with open(parts[3].rstrip("\n"), "rb") as f:
            data = f.read()
        print(op(parts[1], data), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
