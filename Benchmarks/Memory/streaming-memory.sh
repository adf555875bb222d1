#!/bin/sh
# Peak resident memory of `graticule geojson stats` (the streaming feature reader) on a
# FeatureCollection repeated 1x, 10x and to about 1 GB, built from a real-world file.
# Memory should not grow with the file: the reader holds one feature and a 64 KiB window.
# The `empty` row (an empty collection) is the process's own baseline.
#
# Usage: Benchmarks/Memory/streaming-memory.sh [SOURCE.json] [OUT_DIR]
# Needs a release build (swift build -c release) and python3. Writes OUT_DIR/memory.csv.
set -eu
src=${1:-../shared/corpora/geojson/ne_10m_coastline.json}
out=${2:-reports/memory}
bin=.build/release/graticule
mkdir -p "$out"
python3 - "$src" "$out" <<'PY'
import json, os, sys
src, out = sys.argv[1], sys.argv[2]
features = [json.dumps(f, separators=(",", ":")) for f in json.load(open(src))["features"]]
size = sum(len(f) + 1 for f in features)
for name, copies in (("empty", 0), ("x1", 1), ("x10", 10), ("1gb", max(1, (1 << 30) // size + 1))):
    path = os.path.join(out, name + ".geojson")
    with open(path, "w") as w:
        w.write('{"type":"FeatureCollection","features":[\n')
        first = True
        for _ in range(copies):
            for f in features:
                if not first:
                    w.write(",\n")
                w.write(f)
                first = False
        w.write("\n]}\n")
PY
echo "file,bytes,features,peak_resident_bytes,mb_per_s" > "$out/memory.csv"
for name in empty x1 x10 1gb; do
  f="$out/$name.geojson"
  "$bin" geojson stats "$f" --output "$out/$name.stats.csv" > /dev/null
  awk -F, -v file="$name" '
    $1 == "bytes" { b = $2 } $1 == "features" { n = $2 }
    $1 == "peak_resident_bytes" { p = $2 } $1 == "mb_per_s" { r = $2 }
    END { print file "," b "," n "," p "," r }' "$out/$name.stats.csv" >> "$out/memory.csv"
done
rm -f "$out"/*.geojson
cat "$out/memory.csv"
