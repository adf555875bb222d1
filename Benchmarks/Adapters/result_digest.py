"""Result digests for Python adapters: the counts and order-independent checksum that the
runner compares with graticule's before it times an implementation (see `ResultDigest` in
Sources/BenchKit/ResultDigest.swift and the ResultDigests article of the Workloads module).

An element's hash is FNV-1a (64 bit) of its byte encoding, finished with the SplitMix64
mixer; the checksum is the wrapping sum of the element hashes. Text form:
`features=2 positions=10 properties=4 checksum=00ff12ab34cd56ef`.
"""
import struct

MASK = (1 << 64) - 1


def element_hash(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & MASK
    z = (h + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _double(d: float) -> bytes:
    # IEEE 754 bits, little-endian; -0 is written as +0.
    return struct.pack("<d", 0.0 if d == 0 else float(d))


def _string(s: str) -> bytes:
    b = s.encode("utf-8", "surrogatepass")
    return struct.pack("<I", len(b) & 0xFFFFFFFF) + b


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def encode_value(v) -> bytes:
    """A JSON value's digest bytes: numbers as doubles, object members sorted by key bytes."""
    if v is None:
        return b"n"
    if v is True:
        return b"t"
    if v is False:
        return b"f"
    if _is_number(v):
        return b"d" + _double(float(v))
    if isinstance(v, str):
        return b"s" + _string(v)
    if isinstance(v, list):
        return b"a" + struct.pack("<I", len(v) & 0xFFFFFFFF) + b"".join(encode_value(x) for x in v)
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8", "surrogatepass"))
        return b"o" + struct.pack("<I", len(items) & 0xFFFFFFFF) + b"".join(_string(k) + encode_value(x) for k, x in items)
    raise TypeError(f"not a JSON value: {type(v).__name__}")


class Digest:
    """Counts in a fixed order and the checksum of the elements added."""

    def __init__(self, *names):
        self.names = list(names)
        self.counts = [0] * len(names)
        self.checksum = 0

    def count(self, index: int, by: int = 1) -> None:
        self.counts[index] += by

    def add(self, element: bytes) -> None:
        self.checksum = (self.checksum + element_hash(element)) & MASK

    def text(self) -> str:
        return " ".join([f"{n}={c}" for n, c in zip(self.names, self.counts)] + [f"checksum={self.checksum:016x}"])


def walk_geojson(doc, feature, position, prop) -> None:
    """Visits a GeoJSON document as the digests see it: `feature()` at each Feature,
    `position(x, y)` at each position of its geometry (a collection's members in order;
    altitude left out), `prop(key, value)` at each member of its properties."""

    def coordinates(c):
        if not isinstance(c, list):
            return
        if len(c) >= 2 and _is_number(c[0]) and _is_number(c[1]):
            position(c[0], c[1])
        else:
            for x in c:
                coordinates(x)

    def geometry(g):
        if not isinstance(g, dict):
            return
        for m in g.get("geometries") or []:
            geometry(m)
        if "coordinates" in g:
            coordinates(g["coordinates"])

    def one(f):
        if not isinstance(f, dict):
            return
        feature()
        geometry(f.get("geometry"))
        props = f.get("properties")
        if isinstance(props, dict):
            for k, v in props.items():
                prop(k, v)

    if isinstance(doc, dict):
        t = doc.get("type")
        if t == "FeatureCollection":
            for f in doc.get("features") or []:
                one(f)
        elif t == "Feature":
            one(doc)
        else:
            geometry(doc)


def geojson_digest(doc) -> str:
    """`geojson.parse`: counts features, positions and properties; elements are every
    position (`c`, x, y) and every member of a feature's properties (`p`, key, value)."""
    d = Digest("features", "positions", "properties")

    def position(x, y):
        d.count(1)
        d.add(b"c" + _double(x) + _double(y))

    def prop(k, v):
        d.count(2)
        d.add(b"p" + _string(k) + encode_value(v))

    walk_geojson(doc, lambda: d.count(0), position, prop)
    return d.text()


def tiles_digest(tiles) -> str:
    """`tilecover.*`: counts tiles (a multiset); each tile is `t`, z (1 byte), x and y
    (4 bytes each, little-endian)."""
    d = Digest("tiles")
    for z, x, y in tiles:
        d.count(0)
        d.add(b"t" + struct.pack("<BII", z, x, y))
    return d.text()


# ---- Located elements: the answer to `elements`, asked only after a digest that differs.
# Each element as `LOCATION<tab>VALUE`, sorted, in the text Graticule writes (numbers in
# shortest round-trip form, strings quoted as Swift quotes them), so that the runner can name
# the first place where the two results part.

def _number_text(x) -> str:
    return repr(float(x))


def _quoted(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\0":
            out.append("\\0")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%02X}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def value_text(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if _is_number(v):
        return _number_text(v)
    if isinstance(v, str):
        return _quoted(v)
    if isinstance(v, list):
        return "[" + ",".join(value_text(x) for x in v) + "]"
    items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8", "surrogatepass"))
    return "{" + ",".join(_quoted(k) + ":" + value_text(x) for k, x in items) + "}"


def geojson_located(doc) -> list:
    """`geojson.parse`: every position as `feature NNNNNNNN position NNNNNNNN<tab>X Y` and
    every property as `feature NNNNNNNN properties.KEY<tab>VALUE`, sorted."""
    lines = []
    state = {"feature": -1, "position": 0}

    def place():
        f = state["feature"]
        return "document" if f < 0 else "feature %08d" % f

    def feature():
        state["feature"] += 1
        state["position"] = 0

    def position(x, y):
        lines.append("%s position %08d\t%s %s" % (place(), state["position"], _number_text(x), _number_text(y)))
        state["position"] += 1

    def prop(k, v):
        lines.append("%s properties.%s\t%s" % (place(), k, value_text(v)))

    walk_geojson(doc, feature, position, prop)
    return sorted(lines)
