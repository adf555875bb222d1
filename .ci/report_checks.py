#!/usr/bin/env python3
"""The checks CI runs on the reports graticule wrote: one subcommand each, exit 0 when the
report is as it must be, a message and exit 1 when not.

Usage: report_checks.py CHECK FILE...      (report_checks.py --list; --self-test)
"""
import csv
import os
import re
import sys
import tempfile


def rows(path, metric=None):
    out = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
    return [r for r in out if metric is None or r.get("metric") == metric]


def gate_counts(path):
    """compare's CSV of the counts gate compared enough gated counts to mean something."""
    by = {}
    for r in rows(path):
        if r["gated"] == "true":
            by[r["verdict"]] = by.get(r["verdict"], 0) + 1
    compared = by.get("unchanged", 0) + by.get("improved", 0) + by.get("regressed", 0)
    assert compared >= 20, f"too few counts compared: {by}"
    return f"gated count findings: {by}"


def allocators(path):
    """Timing ran under the system allocator; allocation metrics came from the jemalloc child,
    and every graticule case has an ok allocation count."""
    a = rows(path)[0]["allocator"]
    assert re.match(r"glibc .* malloc \(timing\); jemalloc .* in a child process", a), "allocators: " + a
    counts = [r for r in rows(path, "alloc_count") if r["implementation"] == "graticule"]
    bad = [(r["benchmark"], r["status"], r["detail"]) for r in counts if r["status"] != "ok"]
    assert counts and not bad, bad or "no graticule allocation counts"
    return f"allocation counts from the jemalloc child: {len(counts)} graticule cases"


def trap(path):
    """An injected trap in foundation.jsondecoder's child is a crash verdict with its signal;
    every other case was measured."""
    timed = rows(path, "time_ns")
    crashed = [r for r in timed if r["implementation"] == "foundation.jsondecoder"]
    others = [r for r in timed if r["implementation"] != "foundation.jsondecoder"]
    assert crashed and all(r["status"] == "crash" and "signal" in r["detail"] and "injected trap" in r["detail"]
                           for r in crashed), crashed
    assert others and all(r["status"] == "ok" for r in others), [(r["implementation"], r["status"]) for r in others]
    return f"isolation: {len(crashed)} crash verdict with its signal, {len(others)} other cases measured"


def mvt_layer(path):
    """`--mvt-layer roads --mvt-layer nope`: roads measured, nope failed naming the layer."""
    timed = rows(path, "time_ns")
    ok = [r for r in timed if "layer=roads" in r["parameters"]]
    bad = [r for r in timed if "layer=nope" in r["parameters"]]
    assert ok and all(r["status"] == "ok" for r in ok), ok
    assert bad and all(r["status"] == "failed" and "nope" in r["detail"] for r in bad), bad
    return f"mvt.decode [layer=...]: {len(ok)} measured, {len(bad)} failed for a missing layer"


def conform_matrix(matrix, rules):
    """`conform --implementation all`: every peer is in the table, graticule fails nothing,
    the rule summary covers the catalogue."""
    table = rows(matrix)
    impls = {r["implementation"] for r in table}
    for need in ["python.json", "orjson", "mapbox-vector-tile", "mercantile", "swift-protobuf", "foundation.jsondecoder"]:
        assert need in impls, f"{need} missing from the conformance table"
    assert all(int(r["fail"]) == 0 for r in table if r["implementation"] == "graticule"), "graticule fails a case"
    assert len(rows(rules)) >= 100, "rule summary too short"
    return f"conformance table: {len(table)} rows, {len(impls)} implementations"


def peer_speedups(path, implementation):
    """Every case of IMPLEMENTATION was measured, with a same-run speedup."""
    peer = [r for r in rows(path, "time_ns") if r["implementation"] == implementation]
    assert peer and all(r["status"] == "ok" and r["speedup"] for r in peer), \
        [(r["dataset"], r["status"], r["detail"]) for r in peer] or f"no {implementation} rows"
    return f"{implementation} rows: {len(peer)}, speedups: {[r['speedup'] for r in peer]}"


def compass(path, pan_at="200"):
    """`cover follow --mode compass --headings` (heading i*7 mod 360) with `--pan-at N`: the
    bearing follows the headings until the user pans, and the camera stays after."""
    table = rows(path)
    n = int(pan_at)
    assert len(table) == 358, f"{len(table)} updates, not 358"
    assert all(r["auto_pan"] == ("on" if int(r["update"]) < n else "off") for r in table), "auto_pan column"
    assert all(abs(float(r["bearing"]) - (int(r["update"]) * 7) % 360) < 0.01 for r in table if int(r["update"]) < n), \
        "compass bearing"
    assert not any(r["moved"] == "true" for r in table if int(r["update"]) >= n), "the camera moved after the user pan"
    return f"compass mode and user pan: {len(table)} updates, auto-pan off from {n}"


def tiles_load(path, cache_tiles="8", clear_at="150"):
    """`tiles load --cache-tiles N --clear-cache-at K`: every update balances (requested =
    loaded + no tile + not available; in view = from cache + requested + known absent), the
    cache stays within N tiles, and the clear at K empties it (nothing from the cache)."""
    table = rows(path)
    cap, k = int(cache_tiles), int(clear_at)
    assert len(table) > k, f"{len(table)} updates, none at {k}"
    n = lambda r, c: int(r[c])
    for r in table:
        assert n(r, "requested") == n(r, "loaded") + n(r, "no_tile") + n(r, "unavailable"), f"update {r['update']}: requests"
        assert n(r, "in_view") == n(r, "from_cache") + n(r, "requested") + n(r, "known_absent"), f"update {r['update']}: tiles in view"
        assert n(r, "cache_tiles") <= cap, f"update {r['update']}: cache above {cap}"
        assert (r["cleared"] == "true") == (n(r, "update") == k), f"update {r['update']}: cleared column"
    cleared = table[k]
    assert n(cleared, "from_cache") == 0 and n(cleared, "known_absent") == 0, "the clear must make every tile load again"
    assert sum(n(r, "loaded") for r in table) > 0 and sum(n(r, "from_cache") for r in table) > 0, "nothing loaded or reused"
    return f"tiles load: {len(table)} updates balanced, cache within {cap} tiles, cleared at {k}"


CHECKS = {"gate-counts": gate_counts, "allocators": allocators, "trap": trap, "mvt-layer": mvt_layer,
          "conform-matrix": conform_matrix, "peer-speedups": peer_speedups, "compass": compass, "tiles-load": tiles_load}


def self_test():
    """Each check passes a good report and fails a bad one (a check that cannot fail is none)."""
    d = tempfile.mkdtemp(prefix="report-checks.", dir=os.environ.get("TMPDIR"))

    def write(name, header, body):
        p = os.path.join(d, name)
        with open(p, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(body)
        return p

    def fails(fn, *args):
        try:
            fn(*args)
        except AssertionError:
            return True
        return False

    gate = ["gated", "verdict"]
    assert not fails(gate_counts, write("g1.csv", gate, [["true", "unchanged"]] * 20))
    assert fails(gate_counts, write("g2.csv", gate, [["true", "unchanged"]] * 19 + [["false", "unchanged"]] * 5))
    h = ["implementation", "metric", "status", "detail", "parameters", "dataset", "speedup", "benchmark", "allocator"]
    good_alloc = "glibc 2.36 malloc (timing); jemalloc 5.3 in a child process"
    assert not fails(allocators, write("a1.csv", h, [["graticule", "alloc_count", "ok", "", "", "d", "", "b", good_alloc]]))
    assert fails(allocators, write("a2.csv", h, [["graticule", "alloc_count", "unsupported", "", "", "d", "", "b", good_alloc]]))
    assert fails(allocators, write("a3.csv", h, [["graticule", "alloc_count", "ok", "", "", "d", "", "b", "jemalloc"]]))
    crash = ["foundation.jsondecoder", "time_ns", "crash", "signal 5 (injected trap)", "", "d", "", "b", ""]
    assert not fails(trap, write("t1.csv", h, [crash, ["graticule", "time_ns", "ok", "", "", "d", "1", "b", ""]]))
    assert fails(trap, write("t2.csv", h, [crash, ["graticule", "time_ns", "failed", "", "", "d", "1", "b", ""]]))
    assert fails(trap, write("t3.csv", h, [["graticule", "time_ns", "ok", "", "", "d", "1", "b", ""]]))
    roads = ["graticule", "time_ns", "ok", "", "layer=roads", "d", "", "b", ""]
    nope = ["graticule", "time_ns", "failed", "no layer named 'nope'", "layer=nope", "d", "", "b", ""]
    assert not fails(mvt_layer, write("l1.csv", h, [roads, nope]))
    assert fails(mvt_layer, write("l2.csv", h, [roads]))
    m = ["implementation", "fail"]
    impls = ["python.json", "orjson", "mapbox-vector-tile", "mercantile", "swift-protobuf", "foundation.jsondecoder"]
    rules = write("r.csv", ["rule"], [[str(i)] for i in range(100)])
    assert not fails(conform_matrix, write("m1.csv", m, [[i, "3"] for i in impls] + [["graticule", "0"]]), rules)
    assert fails(conform_matrix, write("m2.csv", m, [[i, "3"] for i in impls] + [["graticule", "1"]]), rules)
    assert fails(conform_matrix, write("m3.csv", m, [[i, "0"] for i in impls[1:]]), rules)
    js = ["tile-cover.js", "time_ns", "ok", "", "", "d", "2.5", "b", ""]
    assert not fails(peer_speedups, write("p1.csv", h, [js]), "tile-cover.js")
    assert fails(peer_speedups, write("p2.csv", h, [js[:2] + ["failed"] + js[3:]]), "tile-cover.js")
    assert fails(peer_speedups, write("p3.csv", h, [js]), "other.js")
    c = ["update", "auto_pan", "bearing", "moved"]
    good = [[str(i), "on" if i < 200 else "off", str((i * 7) % 360), "true" if i < 200 else "false"] for i in range(358)]
    assert not fails(compass, write("c1.csv", c, good))
    bad = [list(r) for r in good]
    bad[250][3] = "true"
    assert fails(compass, write("c2.csv", c, bad))
    t = ["update", "cleared", "in_view", "from_cache", "requested", "loaded", "no_tile", "known_absent", "unavailable", "cache_tiles"]
    ok = [[str(i), "true" if i == 2 else "false", "4", "0" if i in (0, 2) else "3", "4" if i in (0, 2) else "1",
           "3" if i in (0, 2) else "1", "1" if i in (0, 2) else "0", "0", "0", "3"] for i in range(4)]
    assert not fails(tiles_load, write("tl1.csv", t, ok), "3", "2")
    off = [list(r) for r in ok]
    off[1][5] = "0"
    assert fails(tiles_load, write("tl2.csv", t, off), "3", "2")
    assert fails(tiles_load, write("tl3.csv", t, ok), "2", "2")
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    os.rmdir(d)
    return f"self-test: {len(CHECKS)} checks each pass a good report and fail a bad one"


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        for name, fn in CHECKS.items():
            print(f"{name}: {fn.__doc__.split(chr(10))[0]}")
        sys.exit(0)
    if sys.argv[1:] == ["--self-test"]:
        print(self_test())
        sys.exit(0)
    if len(sys.argv) < 3 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    try:
        print(CHECKS[sys.argv[1]](*sys.argv[2:]))
    except AssertionError as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        sys.exit(1)
