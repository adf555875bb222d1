#!/usr/bin/env python3
"""Writes the crafted archives of the `pmtiles` conformance suite and its case table.

Each archive breaks one rule of the PMTiles v3 checklist (../../../../shared/specs/pmtiles.md,
ids PM1-PM21) or none; the expected verdict of each is declared here by hand, from the
specification's text, never from Graticule's output:

  valid            no finding
  valid:R+R        notes only (rules the specification states as MAY)
  findings:R+R     exactly these rules broken (the file is read as PMTiles v3)
  refused:R        the file cannot be read as PMTiles v3 at all, for that rule's reason

This script writes its archives with its own encoder (standard library only), so the suite
does not depend on Graticule's writer. Run it from anywhere; `--check` compares instead of
writing and exits 1 when a committed file differs.
"""
import gzip
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def directory(entries, raw_offsets=None):
    """entries: (tile_id, run_length, length, offset); offsets stored as offset + 1
    (or the raw values given)."""
    out = varint(len(entries))
    last = 0
    for e in entries:
        out += varint(e[0] - last)
        last = e[0]
    for e in entries:
        out += varint(e[1])
    for e in entries:
        out += varint(e[2])
    for i, e in enumerate(entries):
        out += varint(raw_offsets[i] if raw_offsets else e[3] + 1)
    return out


def gz(b):
    return gzip.compress(b, mtime=0)


def mvt_tile(name=b"l"):
    geometry = bytes([9, 4, 4])                        # MoveTo(1) to (2, 2)
    feature = b"\x18\x01" + b"\x22" + bytes([len(geometry)]) + geometry
    layer = b"\x78\x02" + b"\x0a" + bytes([len(name)]) + name + b"\x12" + bytes([len(feature)]) + feature + b"\x28\x80\x20"
    return b"\x1a" + bytes([len(layer)]) + layer


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\x00" * width for _ in range(height))   # greyscale, filter none
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


META_MVT = b'{"name":"crafted","vector_layers":[{"id":"l","fields":{}}]}'


def archive(tiles=None, *, metadata=META_MVT, internal=2, tile_compression=2, tile_type=1,
            min_zoom=0, max_zoom=1, bounds=(-1800000000, -850511287, 1800000000, 850511287),
            center=(0, 0, 0), clustered=1, counts=None, root_offset=None, version=b"\x03",
            entries=None, root=None, leaves=b"", data=None, header_edit=None, metadata_at=None,
            data_length_extra=0, data_offset_extra=0, metadata_raw=False):
    """A PMTiles v3 archive: tiles is a list of (tile_id, bytes) stored in order, one entry
    each (contents compressed as tile_compression says); entries/root/data override the
    computed directory, root directory bytes and tile data."""
    tiles = [(0, mvt_tile()), (1, mvt_tile()), (2, mvt_tile()), (3, mvt_tile()), (4, mvt_tile())] if tiles is None else tiles
    if data is None:
        data = b""
        computed = []
        for tid, t in tiles:
            body = gz(t) if tile_compression == 2 else t
            computed.append((tid, 1, len(body), len(data)))
            data += body
        if entries is None:
            entries = computed
    if root is None:
        root = directory(entries)
        if internal == 2:
            root = gz(root)
    meta = gz(metadata) if internal == 2 and metadata and not metadata_raw else metadata
    root_at = 127 if root_offset is None else root_offset
    gap = b"\x00" * (root_at - 127)
    meta_at = root_at + len(root) if metadata_at is None else metadata_at
    leaf_at = root_at + len(root) + (len(meta) if metadata_at is None else 0)
    data_at = leaf_at + len(leaves)
    if counts is None:
        addressed = sum(e[1] for e in entries if e[1] > 0)
        counts = (addressed, sum(1 for e in entries if e[1] > 0), len({e[3] for e in entries if e[1] > 0}))
    head = (b"PMTiles" + version
            + struct.pack("<11Q", root_at, len(root), meta_at, len(meta), leaf_at, len(leaves),
                          data_at + data_offset_extra, len(data) + data_length_extra, *counts)
            + bytes([clustered, internal, tile_compression, tile_type, min_zoom, max_zoom])
            + struct.pack("<iiii", *bounds) + bytes([center[2]]) + struct.pack("<ii", center[0], center[1]))
    assert len(head) == 127
    if header_edit:
        head = header_edit(bytearray(head))
    body = gap + root + (meta if metadata_at is None else b"") + leaves + data
    return bytes(head) + body


def with_leaves(leaf_ids=((0, 1), (2, 3, 4)), root_ids=(0, 2), order=(0, 1), twice=False, clustered=1):
    """Five tiles in two leaf directories holding the tile ids leaf_ids, the root's leaf
    entries starting at root_ids; order places the leaves in the leaf section, twice points
    both root entries at the first leaf."""
    t = [gz(mvt_tile()) for _ in range(5)]
    data = b"".join(t)
    offs = [sum(len(x) for x in t[:i]) for i in range(5)]
    leaves = [gz(directory([(i, 1, len(t[i]), offs[i]) for i in ids])) for ids in leaf_ids]
    blob = leaves[order[0]] + leaves[order[1]]
    start = {order[0]: 0, order[1]: len(leaves[order[0]])}
    root_entries = [(root_ids[k], 0, len(leaves[k]), start[k]) for k in (0, 1)]
    if twice:
        root_entries[1] = (root_ids[1], 0, len(leaves[0]), start[0])
    return archive(data=data, entries=root_entries, root=gz(directory(root_entries)), leaves=blob,
                   counts=(0, 0, 0), clustered=clustered)


def set_bytes(at, values):
    def edit(h):
        h[at:at + len(values)] = bytes(values)
        return h
    return edit


def cases():
    gz_png = [(i, png(256, 256)) for i in range(5)]
    yield "valid-mvt-gzip", "PM1+PM6+PM13+PM18+PM19+PM21", archive(), "valid"
    yield "valid-png-raster", "PM9+PM21", archive(gz_png, tile_type=2, tile_compression=1,
                                                   metadata=b'{"name":"raster","type":"baselayer","version":"1.0.0"}'), "valid"
    yield "valid-uncompressed", "PM8+PM13", archive(internal=1, tile_compression=1), "valid"
    yield "valid-run-length", "PM15+PM6", archive(entries=[(0, 1, len(gz(mvt_tile())), 0), (1, 4, len(gz(mvt_tile())), 0)],
                                                  data=gz(mvt_tile()), counts=(5, 2, 1)), "valid"
    yield "valid-leaf-directories", "PM15+PM17", with_leaves(), "valid"
    yield "valid-counts-unknown", "PM6", archive(counts=(0, 0, 0)), "valid"
    yield "valid-dedup-clustered", "PM7", archive(entries=[(0, 1, len(gz(mvt_tile())), 0), (1, 1, len(gz(mvt_tile())), 0)],
                                                  data=gz(mvt_tile())), "valid"
    yield "note-type-and-version", "PM20", archive(metadata=b'{"type":"map","version":"2","vector_layers":[{"id":"l","fields":{}}]}'), "valid:PM20"
    yield "note-name-not-string", "PM20", archive(metadata=b'{"name":3,"vector_layers":[{"id":"l","fields":{}}]}'), "valid:PM20"
    # PM1, PM4: not readable as PMTiles v3
    yield "header-cut-short", "PM1", archive()[:60], "refused:PM1"
    yield "version-2-layout", "PM4", b"PM\x02\x00" + b"\x00" * 508, "refused:PM4"
    yield "version-4", "PM4", archive(version=b"\x04"), "refused:PM4"
    yield "not-pmtiles", "PM4", b"MBTiles?" + b"\x00" * 200, "refused:PM4"
    # PM2: the root directory beyond the first 16 KiB
    yield "root-beyond-16k", "PM2", archive(root_offset=16_400), "findings:PM2"
    # PM3: sections inside the file, after the header
    yield "data-past-end", "PM3", archive(data_length_extra=100), "findings:PM3"
    yield "metadata-in-header", "PM3", archive(metadata_at=20, internal=1), "findings:PM3+PM18"
    # PM5: a 64-bit offset whose low 32 bits alone would point at the tile data
    yield "offset-high-bits", "PM5+PM3", archive(data_offset_extra=1 << 32), "findings:PM3"
    # PM6: header counts against the directories
    yield "addressed-107-of-108", "PM6", archive(counts=(4, 5, 5)), "findings:PM6"
    yield "contents-miscounted", "PM6", archive(counts=(5, 5, 4)), "findings:PM6"
    # PM7: clustered
    yield "clustered-0xfe", "PM7", archive(clustered=0xFE), "findings:PM7"
    t = gz(mvt_tile())
    yield "clustered-out-of-order", "PM7", archive(entries=[(0, 1, len(t), len(t)), (1, 1, len(t), 0)], data=t + t), "findings:PM7"
    yield "unclustered-out-of-order", "PM7", archive(entries=[(0, 1, len(t), len(t)), (1, 1, len(t), 0)], data=t + t,
                                                     clustered=0), "valid"
    # PM8: compressions
    yield "tile-compression-7", "PM8", archive(tile_compression=7, tiles=[(i, mvt_tile()) for i in range(5)]), "findings:PM8"
    yield "internal-compression-9", "PM8", archive(header_edit=set_bytes(97, [9])), "findings:PM8"
    yield "metadata-not-gzip", "PM8", archive(metadata_raw=True), "findings:PM8"
    # PM9: tile type
    yield "tile-type-9", "PM9", archive(tile_type=9), "findings:PM9"
    yield "mlt-tile-type-6", "PM9", archive(tile_type=6, metadata=b'{"name":"mlt"}'), "valid"
    # PM10: zooms
    yield "max-zoom-255", "PM10", archive(max_zoom=255), "findings:PM10"
    yield "min-above-max", "PM10", archive(min_zoom=2, max_zoom=1), "findings:PM10"
    yield "tiles-outside-zooms", "PM10", archive(min_zoom=1, max_zoom=1), "findings:PM10"
    # PM11: positions
    yield "bounds-min-above-max", "PM11", archive(bounds=(100000000, 0, -100000000, 10000000)), "findings:PM11"
    yield "bounds-latitude-95", "PM11", archive(bounds=(-10000000, -10000000, 10000000, 950000000)), "findings:PM11"
    yield "centre-longitude-200", "PM11", archive(center=(2000000000, 0, 0)), "findings:PM11"
    # PM12-PM17: directories
    yield "root-no-entries", "PM12", archive(root=gz(varint(0)), entries=[], data=b"", counts=(0, 0, 0)), "findings:PM12"
    yield "directory-cut-short", "PM13", archive(root=gz(directory([(i, 1, len(t), i * len(t)) for i in range(5)])[:-3]),
                                                 data=t * 5, entries=[], counts=(0, 0, 0)), "findings:PM13"
    yield "first-offset-zero-delta", "PM13", archive(root=gz(directory([(0, 1, len(t), 0)], raw_offsets=[0])), data=t,
                                                     entries=[], counts=(0, 0, 0)), "findings:PM13"
    yield "entry-length-0", "PM14", archive(entries=[(0, 1, len(t), 0), (1, 1, 0, len(t))], data=t, counts=(0, 0, 0),
                                            clustered=0), "findings:PM14"
    yield "tile-past-data", "PM15", archive(entries=[(0, 1, len(t), 0), (1, 1, len(t), 1000)], data=t, counts=(0, 0, 0),
                                            clustered=0), "findings:PM15"
    yield "leaf-referenced-twice", "PM15", with_leaves(twice=True), "findings:PM15"
    yield "overlapping-runs", "PM16", archive(entries=[(0, 1, len(t), 0), (1, 3, len(t), 0), (2, 1, len(t), 0)], data=t,
                                              counts=(0, 0, 0)), "findings:PM16"
    yield "leaf-starts-before-entry", "PM16", with_leaves(leaf_ids=((0, 1), (2, 3, 4)), root_ids=(0, 3)), "findings:PM16"
    yield "leaves-placed-in-any-order", "PM3+PM15", with_leaves(order=(1, 0)), "valid"
    yield "leaf-tiles-past-next-leaf", "PM17", with_leaves(leaf_ids=((0, 3, 4), (1, 2)), root_ids=(0, 1), clustered=0), "findings:PM17"
    # PM18-PM19: metadata
    yield "metadata-not-json", "PM18", archive(metadata=b"name: crafted"), "findings:PM18"
    yield "metadata-array", "PM18", archive(metadata=b'[{"vector_layers":[]}]'), "findings:PM18"
    yield "metadata-empty", "PM18", archive(metadata=b""), "findings:PM18"
    yield "metadata-cut-short", "PM18", archive(metadata=META_MVT[:30]), "findings:PM18"
    yield "metadata-bad-utf8", "PM18", archive(metadata=b'{"name":"\xc3\x28","vector_layers":[{"id":"l","fields":{}}]}'), "findings:PM18"
    yield "mvt-no-vector-layers", "PM19", archive(metadata=b'{"name":"crafted"}'), "findings:PM19"
    yield "vector-layers-not-array", "PM19", archive(metadata=b'{"vector_layers":{"id":"l"}}'), "findings:PM19"
    yield "vector-layer-without-fields", "PM19", archive(metadata=b'{"vector_layers":[{"id":"l"}]}'), "findings:PM19"
    yield "raster-without-vector-layers", "PM19", archive(gz_png, tile_type=2, tile_compression=1, metadata=b"{}"), "valid"
    # PM21: tile contents
    yield "gzip-under-none", "PM21", archive([(i, gz(mvt_tile())) for i in range(5)], tile_compression=1), "findings:PM21"
    yield "png-in-webp-archive", "PM21", archive(gz_png, tile_type=4, tile_compression=1, metadata=b"{}"), "findings:PM21"
    yield "png-in-mvt-archive", "PM21", archive(gz_png, tile_type=1, tile_compression=1), "findings:PM21"
    yield "png-header-cut", "PM21", archive([(i, png(256, 256)[:20]) for i in range(5)], tile_type=2, tile_compression=1,
                                            metadata=b"{}"), "findings:PM21"
    yield "not-gzip-under-gzip", "PM21", archive([(i, mvt_tile()) for i in range(5)], tile_compression=1,
                                                 header_edit=set_bytes(98, [2])), "findings:PM21"


SHARED = [
    ("fixture-1", "PM1+PM13+PM18+PM19+PM20", "test_fixture_1.pmtiles", "valid:PM20"),
    ("fixture-2", "PM1+PM13+PM18+PM19+PM20", "test_fixture_2.pmtiles", "valid:PM20"),
    ("stamen-toner-raster", "PM9+PM21", "stamen_toner_raster_z3.pmtiles", "valid"),
    ("reference-invalid", "PM4", "invalid.pmtiles", "refused:PM4"),
    ("reference-invalid-v4", "PM4", "invalid_v4.pmtiles", "refused:PM4"),
    ("reference-empty", "PM1", "empty.pmtiles", "refused:PM1"),
]


def main():
    check = "--check" in sys.argv[1:]
    out_dir = os.path.join(HERE, "crafted")
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    differ = []
    names = set()
    for name, rule, data, expected in cases():
        assert name not in names, name
        names.add(name)
        path = os.path.join(out_dir, name + ".pmtiles")
        if check:
            if not os.path.exists(path) or open(path, "rb").read() != data:
                differ.append(path)
        else:
            with open(path, "wb") as f:
                f.write(data)
        rows.append(f"{name}\t{rule}\tcrafted/{name}.pmtiles\t{expected}")
    for name, rule, file, expected in SHARED:
        rows.append(f"{name}\t{rule}\tcorpora:pmtiles/{file}\t{expected}")
    table = ("# PMTiles v3 conformance cases, written by make.py (run it again after editing it).\n"
             "# Columns: id, rules (PM ids of ../../../../shared/specs/pmtiles.md), the archive (crafted/ here,\n"
             "# or corpora: under the shared corpora), the expected verdict: valid, valid:NOTES,\n"
             "# findings:RULES (exactly those rules broken), refused:RULE (not readable as PMTiles v3).\n"
             "id\trule\tinput\texpected\n" + "\n".join(rows) + "\n")
    tpath = os.path.join(HERE, "cases.tsv")
    if check:
        if not os.path.exists(tpath) or open(tpath).read() != table:
            differ.append(tpath)
        for p in differ:
            print("differs from make.py's output:", p)
        sys.exit(1 if differ else 0)
    with open(tpath, "w") as f:
        f.write(table)
    print(f"{len(rows)} cases")


if __name__ == "__main__":
    main()
