#!/usr/bin/env python3
"""Template: a Python implementation of `geojson.parse` for graticule's runner.

Copy this file, replace `parse` with your parser and `digest` with a walk of your model,
and point a manifest (manifest.json beside this file) at it. The runner starts
`python3 geojson_parse.py --dataset PATH` and speaks the external protocol on stdin/stdout:
`ready`; `digest` -> `digest features=F positions=P properties=Q checksum=HEX`;
`elements` -> `element LOCATION<tab>VALUE` lines, then `end` (asked only when the digest
differs from Graticule's, so the runner can name the first place the results part);
`run N` -> `ns T`; `quit`. See Benchmarks/Templates/README.md.
"""
import json
import struct
import sys
import time

MASK = (1 << 64) - 1


# ---- The result digest (Workloads' ResultDigests article): FNV-1a 64 of each element's
# bytes, finished with the SplitMix64 mixer; the checksum is the wrapping sum. ----------
def element_hash(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    z = (h + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def f64(x) -> bytes:
    x = float(x)
    return struct.pack("<d", 0.0 if x == 0 else x)


def text(s: str) -> bytes:
    b = s.encode("utf-8")
    return struct.pack("<I", len(b)) + b


def value(v) -> bytes:
    if v is None:
        return b"n"
    if isinstance(v, bool):
        return b"t" if v else b"f"
    if isinstance(v, (int, float)):
        return b"d" + f64(v)
    if isinstance(v, str):
        return b"s" + text(v)
    if isinstance(v, list):
        return b"a" + struct.pack("<I", len(v)) + b"".join(value(x) for x in v)
    members = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8"))
    return b"o" + struct.pack("<I", len(members)) + b"".join(text(k) + value(x) for k, x in members)


def walk(doc, feature, position, prop):
    """Visits the document as the digest sees it: each feature, each position of its
    geometry (x, y; altitude left out), each member of its properties."""
    def positions(c):
        if isinstance(c, list) and len(c) >= 2 and isinstance(c[0], (int, float)) and not isinstance(c[0], bool):
            position(c[0], c[1])
        elif isinstance(c, list):
            for x in c:
                positions(x)

    def geometry(g):
        if isinstance(g, dict):
            for m in g.get("geometries") or []:
                geometry(m)
            positions(g.get("coordinates"))

    def one(f):
        feature()
        geometry(f.get("geometry"))
        for k, v in (f.get("properties") or {}).items():
            prop(k, v)

    t = doc.get("type")
    if t == "FeatureCollection":
        for f in doc.get("features", []):
            one(f)
    elif t == "Feature":
        one(doc)
    else:
        geometry(doc)


def digest(doc) -> str:
    counts = {"features": 0, "positions": 0, "properties": 0}
    total = 0

    def feature():
        counts["features"] += 1

    def position(x, y):
        nonlocal total
        counts["positions"] += 1
        total += element_hash(b"c" + f64(x) + f64(y))

    def prop(k, v):
        nonlocal total
        counts["properties"] += 1
        total += element_hash(b"p" + text(k) + value(v))

    walk(doc, feature, position, prop)
    return " ".join(f"{k}={v}" for k, v in counts.items()) + f" checksum={total & MASK:016x}"


# ---- Located elements (the answer to `elements`), in the text Graticule writes ---------
def quoted(s: str) -> str:
    esc = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}
    return '"' + "".join(esc.get(ch) or ("\\u{%02X}" % ord(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F else ch) for ch in s) + '"'


def value_text(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(float(v))
    if isinstance(v, str):
        return quoted(v)
    if isinstance(v, list):
        return "[" + ",".join(value_text(x) for x in v) + "]"
    items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8"))
    return "{" + ",".join(quoted(k) + ":" + value_text(x) for k, x in items) + "}"


def located(doc) -> list:
    lines, feature_index, position_index = [], -1, 0

    def place():
        return "document" if feature_index < 0 else "feature %08d" % feature_index

    def feature():
        nonlocal feature_index, position_index
        feature_index, position_index = feature_index + 1, 0

    def position(x, y):
        nonlocal position_index
        lines.append("%s position %08d\t%r %r" % (place(), position_index, float(x), float(y)))
        position_index += 1

    def prop(k, v):
        lines.append("%s properties.%s\t%s" % (place(), k, value_text(v)))

    walk(doc, feature, position, prop)
    return sorted(lines)


# ---- The implementation under test -----------------------------------------------------
def parse(data: bytes):
    return json.loads(data)


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 2 or args[0] != "--dataset":
        print("error usage: geojson_parse.py --dataset PATH", flush=True)
        return 2
    with open(args[1], "rb") as f:
        data = f.read()
    parse(data)  # fail at setup, not while timing
    print("ready", flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "quit":
            return 0
        if cmd[0] == "digest":
            print("digest " + digest(parse(data)), flush=True)
        elif cmd[0] == "elements":
            sys.stdout.write("".join("element " + e + "\n" for e in located(parse(data))))
            print("end", flush=True)
        elif cmd[0] == "run" and len(cmd) == 2:
            n = int(cmd[1])
            t0 = time.perf_counter_ns()
            for _ in range(n):
                parse(data)
            print("ns", time.perf_counter_ns() - t0, flush=True)
        else:
            print(f"error unexpected command {line.strip()!r}", flush=True)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
