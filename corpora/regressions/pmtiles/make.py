"""Writes the crafted PMTiles archives of this folder (each a few hundred bytes that once
trapped or hung a reader). Run from this folder: python3 make.py"""
import struct

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

def directory(entries):
    """entries: (tile_id, run_length, length, offset); offset None = right after the previous."""
    out = varint(len(entries))
    last = 0
    for e in entries:
        out += varint(e[0] - last)
        last = e[0]
    for e in entries: out += varint(e[1])
    for e in entries: out += varint(e[2])
    for e in entries: out += varint(0 if e[3] is None else e[3] + 1)
    return out

def archive(root, leaves=b"", data=b"", addressed=1, data_offset=None, max_zoom=14):
    header_size = 127
    root_off = header_size
    leaf_off = root_off + len(root)
    data_off = leaf_off + len(leaves) if data_offset is None else data_offset
    h = b"PMTiles" + bytes([3])
    h += struct.pack("<QQQQQQQQQQQ", root_off, len(root), 0, 0, leaf_off, len(leaves),
                     data_off, len(data), addressed, 1, 1)
    h += bytes([1, 1, 1, 1, 0, max_zoom])          # clustered, compressions none, type mvt, zooms
    h += struct.pack("<iiii", -1800000000, -850000000, 1800000000, 850000000)
    h += bytes([0]) + struct.pack("<ii", 0, 0)
    assert len(h) == header_size
    tail = data if data_offset is None else b""
    return h + root + leaves + tail

TILE = b"\x1a\x00"   # not a valid tile; never reached in these archives
# A valid tile: one layer "a" (version 2, extent 4096) with one point feature.
FEATURE = bytes([0x18, 0x01, 0x22, 0x03, 0x09, 0x32, 0x22])
LAYER = bytes([0x78, 0x02, 0x0A, 0x01, 0x61, 0x12, len(FEATURE)]) + FEATURE + bytes([0x28, 0x80, 0x20])
POINT_TILE = bytes([0x1A, len(LAYER)]) + LAYER

files = {
    # addressed_tiles of 2^63 + 1 in the header, one real tile.
    "addressed-2p63.pmtiles": archive(directory([(0, 1, 2, 0)]), data=TILE, addressed=(1 << 63) + 1),
    # The second entry follows the first, whose offset is 2^64 - 10: the sum overflows.
    "offset-overflow.pmtiles": archive(directory([(0, 1, 100, (1 << 64) - 11), (1, 1, 2, None)]), data=TILE, addressed=2),
    # data_offset near 2^64 plus an entry offset.
    "data-offset-overflow.pmtiles": archive(directory([(0, 1, 2, 10)]), addressed=1, data_offset=(1 << 64) - 5),
    # One entry with a run length of 2^32 - 1: four billion tiles from a tiny file.
    "run-2p32.pmtiles": archive(directory([(5, (1 << 32) - 1, 2, 0)]), data=TILE, addressed=0),
    # One valid tile shared by a run of 10^10 tiles (z0 to z17), the header agreeing: work
    # must follow the bytes, not the run length.
    "run-1e10.pmtiles": archive(directory([(0, 10**10, len(POINT_TILE), 0)]), data=POINT_TILE, addressed=10**10, max_zoom=17),
    # Lengths and run lengths past 2^32, once read modulo 2^32 (960 bytes, 1 tile).
    "length-2p32.pmtiles": archive(directory([(0, 1, (1 << 32) + 960, 0)]), data=POINT_TILE, addressed=1),
    "run-2p32-plus-1.pmtiles": archive(directory([(0, (1 << 32) + 1, len(POINT_TILE), 0)]), data=POINT_TILE, addressed=1, max_zoom=17),
}
# A root directory offset of 2^64 - 100 (once printed as 9223372036854775807).
far = bytearray(archive(directory([(0, 1, len(POINT_TILE), 0)]), data=POINT_TILE, addressed=1))
far[8:16] = struct.pack("<Q", (1 << 64) - 100)
files["root-offset-2p64.pmtiles"] = bytes(far)
# Wide fan-out: a root of 200 entries all pointing at the same leaf, which points at
# itself (a cycle as well).
leaf = directory([(0, 1, 2, 0)])
root = directory([(i, 0, len(leaf), 0) for i in range(200)])
files["leaf-fanout.pmtiles"] = archive(root, leaves=leaf, data=TILE, addressed=200)
cycle = directory([(0, 0, 0, 0)])
cycle = directory([(0, 0, len(cycle), 0)])
files["leaf-cycle.pmtiles"] = archive(directory([(0, 0, len(cycle), 0)]), leaves=cycle, data=TILE, addressed=1)

for name, content in files.items():
    open(name, "wb").write(content)
    print(name, len(content), "bytes")
