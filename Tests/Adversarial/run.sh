#!/usr/bin/env bash
# Hostile input, huge requests and failing outputs, through the built command: each case
# states the exit code, a pattern its messages must contain, a time bound, and the output
# that must not be left behind. Crafted inputs live in corpora/regressions/.
#
#   Tests/Adversarial/run.sh [BIN]      (default .build/release/graticule; run from the package root)
set -u
BIN=${1:-.build/release/graticule}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROOT=$(pwd)
SHARED=$ROOT/../shared/corpora
W=$(mktemp -d "${TMPDIR:-/tmp}/graticule-adversarial.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
pass=0; failed=0

# expect NAME CODE PATTERN SECONDS [--absent PATH] -- COMMAND...
expect() {
  local name=$1 code=$2 pattern=$3 seconds=$4; shift 4
  local absent=""
  if [ "$1" = "--absent" ]; then absent=$2; shift 2; fi
  [ "$1" = "--" ] && shift
  local start=$(date +%s.%N)
  timeout "$seconds" "$@" > out.txt 2> err.txt
  local got=$?
  local took=$(echo "$(date +%s.%N) - $start" | bc)
  local why=""
  if [ "$got" -eq 124 ]; then why="took more than ${seconds}s"
  elif [ "$got" -ne "$code" ]; then why="exit $got, expected $code"
  elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" out.txt err.txt; then why="no message matching '$pattern'"
  elif [ -n "$absent" ] && [ -e "$absent" ]; then why="left $absent behind"
  elif ls -a | grep -q '\.partial-'; then why="left a partial file: $(ls -a | grep '\.partial-' | head -1)"
  elif grep -q '^Usage:' err.txt && [ "$code" -ne 64 ]; then why="printed a stray Usage line"
  fi
  if [ -z "$why" ]; then
    pass=$((pass + 1)); printf 'ok    %-58s exit %s  %.2fs\n' "$name" "$got" "$took"
  else
    failed=$((failed + 1)); printf 'FAIL  %-58s %s\n' "$name" "$why"; head -c 400 err.txt; echo
  fi
}

printf '{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}}]}' > f.geojson
mkdir -p folder x.geojson
GPX=$SHARED/gpx/gpxpy/korita-zbevnica.gpx

echo "== input kinds"
expect "geojson validate DIR" 2 "is a directory" 10 -- "$BIN" geojson validate folder
expect "geojson stats DIR" 2 "is a directory" 10 -- "$BIN" geojson stats folder
expect "a folder named x.geojson" 2 "is a directory" 10 -- "$BIN" geojson validate x.geojson
expect "diff DIR NEW" 2 "is a directory" 10 --absent d.json -- "$BIN" diff folder f.geojson --out d.json
expect "cover geometry DIR" 2 "is a directory" 10 -- "$BIN" cover geometry folder --zoom 3
expect "mvt inspect DIR" 2 "is a directory" 10 -- "$BIN" mvt inspect folder
expect "profile of an empty folder" 2 "no tiles" 10 -- "$BIN" profile x.geojson
cp f.geojson folder/a.geojson
expect "profile of a folder of GeoJSON" 0 "GeoJSON folder \(1 file\)" 10 -- "$BIN" profile folder
expect "geojson validate --limit=-1" 2 "--limit must be 0 or more" 10 -- "$BIN" geojson validate f.geojson --limit=-1
expect "validate from a pipe (/dev/stdin)" 0 "valid, 0 errors.*1 feature," 10 -- sh -c "cat f.geojson | '$BIN' geojson validate /dev/stdin"
expect "stats from a pipe counts its bytes" 0 "bytes +13[0-9] " 10 -- sh -c "cat f.geojson | '$BIN' geojson stats /dev/stdin"
expect "an RS-prefixed sequence from a pipe" 0 "1 element," 10 -- sh -c "(printf '\036'; cat f.geojson) | '$BIN' geojson validate /dev/stdin"
mkfifo in.fifo
( cat f.geojson > in.fifo & )
expect "validate a FIFO" 0 "1 feature," 10 -- "$BIN" geojson validate in.fifo

echo "== crafted archives and tiles"
for f in offset-overflow data-offset-overflow leaf-fanout leaf-cycle length-2p32; do
  expect "profile pmtiles/$f" 2 "PMTiles" 10 -- "$BIN" profile "$ROOT/corpora/regressions/pmtiles/$f.pmtiles"
done
# Run lengths are counted, never expanded: a 155-byte archive addressing 10^10 tiles is
# profiled and verified exactly, in milliseconds (it used to time out from 10^6).
P=$ROOT/corpora/regressions/pmtiles
expect "profile pmtiles/run-1e10: exact counts" 0 "features 10000000000, tiles 10000000000" 2 -- "$BIN" profile "$P/run-1e10.pmtiles"
# The archive has no metadata (PM18), its only finding.
expect "verify pmtiles/run-1e10" 1 "^1 finding\(s\)" 2 -- "$BIN" verify "$P/run-1e10.pmtiles"
# 4294967295 tiles of the run, and the empty metadata (PM18).
expect "profile pmtiles/run-2p32: one decoding, every tile counted" 0 "findings: 4294967296 errors" 2 -- "$BIN" profile "$P/run-2p32.pmtiles"
# Lengths and run lengths are read at full width (they were read modulo 2^32: "valid").
expect "verify pmtiles/length-2p32" 1 "bytes 0\+4294968256 run past the tile data" 2 -- "$BIN" verify "$P/length-2p32.pmtiles"
expect "verify pmtiles/run-2p32-plus-1" 1 "directories address 4294967297" 2 -- "$BIN" verify "$P/run-2p32-plus-1.pmtiles"
expect "profile pmtiles/addressed-2p63" 0 "addressed tiles \(header\): 9223372036854775809" 10 -- "$BIN" profile "$ROOT/corpora/regressions/pmtiles/addressed-2p63.pmtiles"
expect "mvt inspect: extent 0 (A11)" 1 "\[A11\]" 10 -- "$BIN" mvt inspect "$ROOT/corpora/regressions/mvt-spec/extent-0.mvt"
expect "mvt inspect --geojson: extent 0 writes no null" 1 "invalidExtent" 10 -- "$BIN" mvt inspect "$ROOT/corpora/regressions/mvt-spec/extent-0.mvt" --geojson --z 3 --x 1 --y 1
grep -q null out.txt && { failed=$((failed + 1)); echo "FAIL  extent 0 wrote null coordinates"; }
expect "mvt inspect: a Value with two types (A10)" 1 "\[A10\]" 10 -- "$BIN" mvt inspect "$ROOT/corpora/regressions/mvt-spec/value-string-and-int.mvt"
H=$ROOT/corpora/regressions/hostile
expect "RFC 7946 §7.1: properties on a FeatureCollection" 1 "must not have a \"properties\" member" 10 -- "$BIN" geojson validate "$H/collection-with-properties.geojson"

echo "== huge requests"
expect "cover geometry: 1 degree at z22" 2 "estimated at 1.36e\+08 tiles.*--max-tiles" 10 --absent t.txt -- "$BIN" cover geometry "$H/square-1deg.geojson" --zoom 22 --output t.txt
expect "cover geometry: 1 degree at z30" 2 "--max-tiles" 10 -- "$BIN" cover geometry "$H/square-1deg.geojson" --zoom 30
expect "cover geometry: the world at z14" 2 "--max-tiles" 10 -- "$BIN" cover geometry "$H/world.geojson" --zoom 14
expect "cover camera --fov 179 --pitch 85" 2 "--fov must be" 10 -- "$BIN" cover camera --center 0,0 --zoom 3 --fov 179 --pitch 85
expect "cover camera: the largest view allowed" 0 "tiles" 10 -- "$BIN" cover camera --center 0,0 --zoom 22 --fov 60 --pitch 85 --max-tilt-profile 0:85 --viewport 16384x16384 --output cam.txt
if [ -f "$GPX" ]; then
  expect "cover follow 1e-6 m/s at 1000 Hz" 2 "--max-updates" 10 --absent follow.csv -- "$BIN" cover follow "$GPX" --zoom 15 --speed 0.000001 --rate 1000 --output follow.csv
fi
expect "cover transition: 1e9 s at 60 fps" 2 "frames; 2 to 1000000 are allowed" 10 --absent tr.csv -- "$BIN" cover transition --from 0,0,3 --to 10,10,5 --animation bow --duration 1e9 --output tr.csv
expect "cover transition: --fps 0" 2 "--fps must be a positive number" 10 --absent tr.csv -- "$BIN" cover transition --from 0,0,3 --to 10,10,5 --fps 0 --output tr.csv
expect "cover transition: --from without a zoom" 2 "LON,LAT,ZOOM" 10 --absent tr.csv -- "$BIN" cover transition --from 0,0 --to 10,10,5 --output tr.csv
expect "cover transition: a NaN bearing" 2 "LON,LAT,ZOOM" 10 --absent tr.csv -- "$BIN" cover transition --from 0,0,3,nan --to 10,10,5 --output tr.csv
expect "cover camera --fit-bounds: padding wider than the view" 2 "leaves no room" 10 -- "$BIN" cover camera --fit-bounds 0,0,1,1 --padding 1000 --viewport 390x844
expect "cover camera --fit-bounds: south above north" 2 "south 10 is above north 5" 10 -- "$BIN" cover camera --fit-bounds 0,10,1,5
expect "cover camera --fit-bounds with --zoom" 2 "not both" 10 -- "$BIN" cover camera --fit-bounds 0,0,1,1 --zoom 3
expect "corpus generate tiles --density 1e9" 2 "--density must be" 10 --absent t.pmtiles -- "$BIN" corpus generate tiles --density 1e9 --output t.pmtiles
expect "bench --min-samples=-1" 2 "--min-samples" 10 -- "$BIN" bench --quick --min-samples=-1
expect "compare --alpha 2" 2 "--alpha" 10 -- "$BIN" compare "$ROOT/reports/baselines/quick.csv" "$ROOT/reports/baselines/quick.csv" --alpha 2

echo "== linear time"
python3 - <<'PY'
big = "a" * (64 << 20)
open("string-64M.geojson", "w").write('{"type":"Feature","geometry":null,"properties":{"s":"' + big + '"}}')
feature = '{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{}}'
open("findings-40k.geojson", "w").write('{"type":"FeatureCollection","features":[\n' + ",\n".join([feature] * 40000) + "\n]}")
PY
expect "a 64 MiB string, streamed" 0 "valid, 0 errors" 20 -- "$BIN" geojson validate string-64M.geojson
expect "a 64 MiB string, from a pipe" 0 "valid, 0 errors" 20 -- sh -c "cat string-64M.geojson | '$BIN' geojson validate /dev/stdin"
expect "40k findings" 1 "40000 errors" 20 -- "$BIN" geojson validate findings-40k.geojson --limit 0
expect "40k findings, profile" 0 "40000 errors|errors: 40000|findings: 40000" 30 -- "$BIN" profile findings-40k.geojson
rm -f string-64M.geojson findings-40k.geojson

echo "== outputs whole or absent"
echo old > real.txt; ln -s real.txt link.txt
expect "--output through a symlink" 0 "1 tile at z3" 10 -- "$BIN" cover geometry f.geojson --zoom 3 --output link.txt
[ -L link.txt ] && grep -q '^3/4/3$' real.txt || { failed=$((failed + 1)); echo "FAIL  the symlink must stay a link and its target be written"; }
mkfifo out.fifo
( cat out.fifo > from-fifo.txt & )
expect "--output to a FIFO" 0 "1 tile at z3" 10 -- "$BIN" cover geometry f.geojson --zoom 3 --output out.fifo
sleep 0.2
[ -p out.fifo ] && grep -q '^3/4/3$' from-fifo.txt || { failed=$((failed + 1)); echo "FAIL  a FIFO must stay a FIFO and get the output"; }
[ -e /dev/full ] && expect "--output /dev/full" 2 "No space left" 10 -- "$BIN" cover geometry f.geojson --zoom 3 --output /dev/full
# Standard output on a full device: exit 2 saying so, never 0 with nothing written.
[ -e /dev/full ] && expect "stdout > /dev/full (cover geometry)" 2 "cannot write to standard output: No space left" 10 -- sh -c "'$BIN' cover geometry f.geojson --zoom 3 > /dev/full"
[ -e /dev/full ] && expect "stdout > /dev/full (--version)" 2 "cannot write to standard output" 10 -- sh -c "'$BIN' --version > /dev/full"
if [ -e /dev/full ]; then
  # A command's outputs are a set: one that cannot be written leaves none of the others.
  Q=$ROOT/reports/baselines/quick.csv
  expect "bench --check > /dev/full" 2 "cannot write to standard output" 10 -- sh -c "'$BIN' bench --check --external '$ROOT/Benchmarks/Adapters/python-json.json' > /dev/full"
  expect "geojson stats --output s.csv --json /dev/full" 2 "none of the outputs was written" 10 --absent s.csv -- "$BIN" geojson stats f.geojson --output s.csv --json /dev/full
  expect "compare --markdown m.md --output /dev/full" 2 "none of the outputs was written" 10 --absent m.md -- "$BIN" compare "$Q" "$Q" --markdown m.md --output /dev/full
  expect "report --html r.html --merged /dev/full" 2 "none of the outputs was written" 10 --absent r.html -- "$BIN" report "$Q" --html r.html --merged /dev/full
  expect "conform --output c.csv --junit /dev/full" 2 "cannot write /dev/full.*none of the outputs" 30 --absent c.rules.csv -- "$BIN" conform --suite pbf-varint --corpora "$SHARED" --output c.csv --junit /dev/full
  [ -e c.csv ] && { failed=$((failed + 1)); echo "FAIL  conform left c.csv behind"; }
  expect "bench --output r.csv --json /dev/full" 2 "none of the outputs was written" 60 --absent r.samples.csv -- "$BIN" bench --quick --quiet --filter pbf.varint --max-time 0.05 --output r.csv --json /dev/full
  [ -e r.csv ] && { failed=$((failed + 1)); echo "FAIL  bench left r.csv behind"; }
fi
expect "--output into a missing folder" 2 "does not exist" 10 --absent missing -- "$BIN" cover geometry f.geojson --zoom 3 --output missing/t.txt
expect "diff --out into a missing folder" 2 "does not exist" 10 --absent missing -- "$BIN" diff f.geojson f.geojson --out missing/d.json
if mkdir -p small && mount -t tmpfs -o size=200k tmpfs small 2> /dev/null; then
  expect "full disk: corpus generate features" 2 "No space left" 20 --absent small/f.json -- "$BIN" corpus generate features --count 100000 --output small/f.json
  expect "full disk: corpus generate features ndjson" 2 "No space left" 20 --absent small/f.ndjson -- "$BIN" corpus generate features --count 100000 --format ndjson --output small/f.ndjson
  expect "full disk: corpus generate tiles pmtiles" 2 "write failed" 20 --absent small/t.pmtiles -- "$BIN" corpus generate tiles --count 400 --format pmtiles --output small/t.pmtiles
  expect "full disk: corpus generate tiles mbtiles" 2 "full" 20 --absent small/t.mbtiles -- "$BIN" corpus generate tiles --count 400 --format mbtiles --output small/t.mbtiles
  [ -z "$(ls -A small)" ] || { failed=$((failed + 1)); echo "FAIL  files left on the full disk: $(ls -A small)"; }
  umount small
else
  echo "skip  full-disk cases (cannot mount a tmpfs here)"
fi

echo "== diffs"
expect "repeated ids: exit 2 naming them" 2 "id 1 at old features 0, 2" 10 --absent dd.json -- "$BIN" diff "$H/repeated-ids-old.geojson" "$H/repeated-ids-new.geojson" --out dd.json
expect "repeated ids, --duplicates last" 0 "updated 0" 10 -- "$BIN" diff "$H/repeated-ids-old.geojson" "$H/repeated-ids-new.geojson" --out dd.json --duplicates last
grep -q '^{}$' dd.json || { failed=$((failed + 1)); echo "FAIL  with the last copy standing and 2 = 2.0, the diff is empty: $(cat dd.json)"; }
expect "repeated ids, --duplicates first" 0 "updated 1" 10 -- "$BIN" diff "$H/repeated-ids-old.geojson" "$H/repeated-ids-new.geojson" --out dd.json --duplicates first
expect "a change to a foreign member alone" 0 "added 1, removed 1" 10 -- "$BIN" diff "$H/foreign-members-old.geojson" "$H/foreign-members-new.geojson" --out fm.json
expect "diff apply keeps bbox and foreign members" 0 "1 feature ->" 10 -- "$BIN" diff apply "$H/foreign-members-old.geojson" fm.json --output applied.geojson
expect "apply(old, diff(old, new)) is new" 0 "added 0, removed 0, updated 0" 10 -- "$BIN" diff applied.geojson "$H/foreign-members-new.geojson" --out empty.json

echo "== covers of any size, in bounded memory"
# A ~200-byte pair holding one world polygon that differs in one property: the touched
# tiles over z0-14 (3.6e8) once aborted allocating 3.2 GB. Now refused by --max-tiles with
# the estimate, and counted row by row when the limit is raised, under a 4 GiB limit.
printf '{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]},"properties":{"a":1}}]}' > world-old.json
sed 's/"a":1/"a":2/' world-old.json > world-new.json
expect "diff of a world polygon: refused with the estimate" 2 "estimated at 3.57e\+08.*--max-tiles" 20 --absent wd.json -- sh -c "ulimit -v 4194304; '$BIN' diff world-old.json world-new.json --out wd.json"
expect "diff of a world polygon, --max-tiles raised" 0 "touched tiles over z0-14: 356785493" 20 -- sh -c "ulimit -v 4194304; '$BIN' diff world-old.json world-new.json --out wd.json --max-tiles 1000000000"
expect "diff touched of a world polygon, streamed" 0 "touched tiles over z0-10: 1396053" 30 -- sh -c "ulimit -v 4194304; '$BIN' diff touched world-old.json world-new.json --zoom 0-10 --max-tiles 1000000000 --output wt.txt"
[ "$(wc -l < wt.txt)" -eq 1396053 ] || { failed=$((failed + 1)); echo "FAIL  diff touched must list 1396053 tiles, listed $(wc -l < wt.txt)"; }
rm -f wt.txt
echo '{"update":[{"id":1,"removeAllProperties":true}]}' > wu.json
expect "diff apply on a world polygon: refused, not aborted" 2 "tile index at z14 is estimated at 2.68e\+08 tiles" 20 --absent wa.json -- sh -c "ulimit -v 4194304; '$BIN' diff apply world-old.json wu.json --output wa.json --max-tiles 1000000000"
expect "cover geometry: the world at z14, streamed in 1 GiB" 0 "267583488 tiles at z14" 120 -- sh -c "ulimit -v 1048576; '$BIN' cover geometry '$H/world.geojson' --zoom 14 --max-tiles 300000000 --output /dev/null"
printf '{"type":"LineString","coordinates":[[-180,0],[180,1]]}' > across.json
expect "cover geometry: a line across the world at z30, limit raised" 2 "a cover holds while it is computed" 10 -- sh -c "ulimit -v 1048576; '$BIN' cover geometry across.json --zoom 30 --max-tiles 9000000000000"
printf '{"type":"Polygon","coordinates":[[[-1e300,-10],[1e300,-10],[1e300,10],[-1e300,10],[-1e300,-10]]]}' > far.json
expect "cover geometry: far longitudes give a real estimate" 2 "estimated at [0-9.]+e\+[0-9]+ tiles" 10 -- "$BIN" cover geometry far.json --zoom 14
grep -q nan err.txt && { failed=$((failed + 1)); echo "FAIL  the estimate printed nan"; }
expect "diff --zoom=-1-3 is an error" 2 "no negative zoom" 10 --absent zd.json -- "$BIN" diff f.geojson f.geojson --zoom=-1-3 --out zd.json

echo "== no silent coercion"
expect "cover camera --center 1e17,0" 2 "cannot be wrapped into -180...180 exactly" 10 -- "$BIN" cover camera --center 1e17,0 --zoom 3
expect "cover camera --center -1e300,0" 2 "cannot be wrapped" 10 -- "$BIN" cover camera --center -1e300,0 --zoom 3
printf '{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},{"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[3,4]},"properties":{}}]}' > snap.json
echo '{"removes":[1,2,3]}' > typo.json
expect "diff apply: a misspelt key" 2 "unknown member removes" 10 --absent ap.json -- "$BIN" diff apply snap.json typo.json --output ap.json
echo '{"remove":[2],"update":[{"id":2,"removeAllProperties":true}]}' > ru.json
expect "diff apply: remove then update names both" 2 "update\[0\] changes the feature that remove\[0\]" 10 --absent ap.json -- "$BIN" diff apply snap.json ru.json --output ap.json
echo '{"remove":[1,1]}' > rr.json
expect "diff apply: a repeated remove" 2 "remove\[1\] repeats remove\[0\]" 10 --absent ap.json -- "$BIN" diff apply snap.json rr.json --output ap.json
expect "a negative positional is a range error" 2 "2/-1/0 is not a tile" 10 -- "$BIN" mvt inspect "$P/run-1e10.pmtiles" 2 -1 0
expect "a negative option value is a range error" 2 "--limit must be 0 or more, got -1" 10 -- "$BIN" geojson validate f.geojson --limit -1
python3 - <<'PY'
import sqlite3
db = sqlite3.connect("rows.mbtiles")
db.execute("CREATE TABLE metadata (name text, value text)")
db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
tile = bytes([0x1A, 0x10, 0x78, 0x02, 0x0A, 0x01, 0x61, 0x12, 0x07, 0x18, 0x01, 0x22, 0x03, 0x09, 0x32, 0x22, 0x28, 0x80, 0x20])
rows = [(1, 0, 1, tile), (1, 0, 1, tile), (1, 1, 1, None), (None, 1, 0, tile), ("one", 1, 0, tile), (1, 2.5, 0, tile), (1, 1, 0, tile)]
db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)
db.commit()
PY
expect "MBTiles: a tile stored twice" 0 "2 rows store one tile" 10 -- "$BIN" profile rows.mbtiles
expect "MBTiles: NULL tile_data" 0 "rowid 3: .*tile_data is NULL" 10 -- "$BIN" profile rows.mbtiles
expect "MBTiles: a NULL zoom" 0 "rowid 4: zoom_level NULL" 10 -- "$BIN" profile rows.mbtiles
expect "MBTiles: a text zoom" 0 "rowid 5: zoom_level 'one'" 10 -- "$BIN" profile rows.mbtiles
expect "MBTiles: a column of 2.5" 0 "rowid 6: zoom_level 1, tile_column 2.5" 10 -- "$BIN" profile rows.mbtiles

echo "== messages that name the right thing"
printf '{"type":"Feature","geometry":null,"properties":{"a":"\\ud800"}}' > lone.json
expect "a lone surrogate is an invalid escape at its byte" 1 "invalid escape sequence .* \(byte 53\)" 10 -- "$BIN" geojson validate lone.json
expect "PMTiles offsets at full width" 1 "at byte 18446744073709551516" 10 -- "$BIN" verify "$P/root-offset-2p64.pmtiles"
if [ -f "$GPX" ]; then
  expect "cover follow without --speed: the vertices" 2 "vertices, one update each" 10 -- "$BIN" cover follow "$GPX" --zoom 15 --max-updates 10
fi
GHEAD='<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1"><trk><trkseg>'
GTAIL='</trkseg></trk></gpx>'
printf '%s<trkpt lat="1" lon="2" name="\377"/>%s' "$GHEAD" "$GTAIL" > utf8.gpx
printf '%s<trkpt lat="1" lon="2" name="\000"/>%s' "$GHEAD" "$GTAIL" > nul.gpx
printf '%s<trkpt lat="1" lon="2" lat="3"/>%s' "$GHEAD" "$GTAIL" > twice.gpx
expect "GPX with invalid UTF-8" 2 "invalid UTF-8 .*byte 99" 10 -- "$BIN" cover follow utf8.gpx --zoom 12 --output g.csv
expect "GPX with a NUL in an attribute" 2 "U\+0000 is not allowed .*byte 99" 10 -- "$BIN" cover follow nul.gpx --zoom 12 --output g.csv
expect "GPX with an attribute twice" 2 "attribute lat is given twice in <trkpt>" 10 -- "$BIN" cover follow twice.gpx --zoom 12 --output g.csv

echo "== shards that cannot lie"
printf '{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}}\n{"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[3,4]},"properties":{"a":1}}\n' > s.ndjson
"$BIN" profile s.ndjson --shard 0/1 --output s0.json > /dev/null 2>&1 || { failed=$((failed + 1)); echo "FAIL  cannot make a shard file"; }
shard() { python3 -c "
import json, sys
d = json.load(open('s0.json')); exec(sys.argv[1]); json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"; }
shard "d['count'] = 2**62" c62.json
shard "d['count'] = 10**7; d['dataset']['bytes'] = 10**8" c7.json
shard "d['features'] = -1" neg.json
shard "d['byType']['Point'] = -2" negtype.json
shard "d['rawBytes']['99'] = 5" z99.json
shard "d['seconds'] = -1" sec.json
shard "d['extra'] = 1" unknown.json
expect "shard count 2^62" 2 "c62.json: field 'count'" 5 --absent m.csv -- "$BIN" profile merge c62.json --csv m.csv
expect "shard count 1e7: a short message" 2 "c7.json: field 'count'" 5 --absent m.csv -- "$BIN" profile merge c7.json --csv m.csv
[ "$(wc -c < err.txt)" -lt 1000 ] || { failed=$((failed + 1)); echo "FAIL  the message is $(wc -c < err.txt) bytes"; }
expect "shard: negative features" 2 "field 'features' is -1" 5 --absent m.csv -- "$BIN" profile merge neg.json --csv m.csv
expect "shard: a negative per-type count" 2 "field 'byType.Point' is -2" 5 --absent m.csv -- "$BIN" profile merge negtype.json --csv m.csv
expect "shard: zoom \"99\"" 2 "zoom \"99\", not a zoom 0-30" 5 --absent m.csv -- "$BIN" profile merge z99.json --csv m.csv
expect "shard: negative seconds" 2 "field 'seconds' is -1" 5 --absent m.csv -- "$BIN" profile merge sec.json --csv m.csv
expect "shard: an unknown key" 2 "unknown field 'extra'" 5 --absent m.csv -- "$BIN" profile merge unknown.json --csv m.csv
sed 's/"features":2,/"features":2,"features":2,/' s0.json > dup.json
expect "shard: a key given twice" 2 "field 'features' is given twice" 5 --absent m.csv -- "$BIN" profile merge dup.json --csv m.csv
sed 's/"features":2,/"features":2.5,/' s0.json > frac.json
expect "shard: valid JSON of the wrong type" 2 "field 'features' must be an integer" 5 --absent m.csv -- "$BIN" profile merge frac.json --csv m.csv
[ -e /dev/full ] && expect "merge: a full disk on --json leaves no --csv" 2 "none of the outputs was written" 5 --absent m.csv -- "$BIN" profile merge s0.json --csv m.csv --json /dev/full

echo "== absurd counts are refused, never trapped"
for n in 9223372036854775807 1000000000000 10000001; do
  expect "corpus generate points --count $n" 2 "at most 10000000" 5 --absent p.json -- "$BIN" corpus generate points --count $n --output p.json
done
expect "corpus generate walk --count 2^63-1" 2 "at most 100000000" 5 --absent w.json -- "$BIN" corpus generate walk --count 9223372036854775807 --output w.json
expect "corpus generate gpx --count 2^63-1" 2 "at most 10000000" 5 --absent g.gpx -- "$BIN" corpus generate gpx --count 9223372036854775807 --output g.gpx
expect "corpus generate features --count 0: an empty collection" 0 "0 features" 5 -- "$BIN" corpus generate features --count 0 --output zero.json
expect "corpus generate features --count 0 --format ndjson" 0 "0 features, 0 bytes" 5 -- "$BIN" corpus generate features --count 0 --format ndjson --output zero.ndjson
expect "corpus generate features --bytes 1e30G" 2 "--bytes must be" 5 --absent f.json -- "$BIN" corpus generate features --bytes 1e30G --output f.json
expect "corpus generate points --edits beyond --count" 2 "--edits 50 is more than" 5 --absent p.json -- "$BIN" corpus generate points --count 10 --edits 50 --output p.json

echo "== every gzip member is read"
"$BIN" corpus generate tiles --count 1 --format dir --compression none --output gz > /dev/null
python3 -c "
import gzip
t = open('gz/0/0/0.mvt', 'rb').read()
open('one.mvt.gz', 'wb').write(gzip.compress(t))
open('two.mvt.gz', 'wb').write(gzip.compress(t) + gzip.compress(t))
open('trailing.mvt.gz', 'wb').write(gzip.compress(t) + b'garbage')
open('zeros.mvt.gz', 'wb').write(gzip.compress(t) + bytes(4))"
layers=$("$BIN" mvt inspect one.mvt.gz | sed -n 's/.*, \([0-9]*\) layers*$/\1/p')
# Both members inflated: twice the layers, so every layer name repeats (exit 1, a finding).
expect "mvt inspect: two gzip members are both inflated" 1 "inflated to [0-9]+\), $((layers * 2)) layers" 5 -- "$BIN" mvt inspect two.mvt.gz
expect "mvt inspect: bytes after the last member" 2 "7 bytes after the end of the compressed data \(not a gzip member\) at byte" 5 -- "$BIN" mvt inspect trailing.mvt.gz
expect "mvt inspect: zeros after the last member" 2 "4 bytes after the end" 5 -- "$BIN" mvt inspect zeros.mvt.gz
mkdir -p gzt/0/0 && cp trailing.mvt.gz gzt/0/0/0.mvt
expect "profile: bytes after the last member are a finding" 0 "error: tile 0/0/0: gzip: 7 bytes after the end" 5 -- "$BIN" profile gzt

# A 69 KB tile inflating to 28.5 MB of 1.5 million layers (every name repeated): work and
# memory follow the inflated bytes (it took 15 s and 1.9 GB in mvt inspect, and profile
# built a message per finding).
python3 -c "
import gzip
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        if n: out.append(b | 0x80)
        else: out.append(b); return bytes(out)
def field(num, payload): return varint(num << 3 | 2) + varint(len(payload)) + payload
geom = bytes([9, 2, 2])
layer = bytes([0x78, 2]) + field(1, b'x') + bytes([0x28]) + varint(4096) + field(2, bytes([0x18, 1]) + field(4, geom))
open('layers.mvt.gz', 'wb').write(gzip.compress(field(3, layer) * 1500000, 9))"
mkdir -p manylayers/0/0 && cp layers.mvt.gz manylayers/0/0/0.mvt
expect "mvt inspect: 1.5 million layers, under 1 GB" 1 "and 1499000 more layers.*|A6 1499999" 10 -- sh -c "ulimit -v 1000000; '$BIN' mvt inspect layers.mvt.gz"
expect "profile: 1.5 million layers, under 1 GB" 0 "findings: 1499999 errors" 10 -- sh -c "ulimit -v 1000000; '$BIN' profile manylayers"

echo "== a corrupt record is never a deletion"
printf '{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}\n{"type":"Feature","id":2,"geometry":{"type":"Point","coordinates":[3,4]},"properties":{}}\n' > old.ndjson
printf '{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}\n{"type":"Feature","id":2,"geometry":{"type":"Point","coordi\n' > cut.ndjson
printf '\036{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}\n\036{"type":"Feature","id":2,"geometry":{"type":"Poi\n' > cut.geojsons
expect "diff: a truncated ndjson line" 2 "broken element.*nothing written" 5 --absent d.json -- "$BIN" diff old.ndjson cut.ndjson --out d.json
expect "diff: a truncated RFC 8142 element" 2 "broken element.*nothing written" 5 --absent d.json -- "$BIN" diff old.ndjson cut.geojsons --out d.json
expect "diff touched: a truncated ndjson line" 2 "broken element" 5 --absent t.txt -- "$BIN" diff touched old.ndjson cut.ndjson --output t.txt
printf '{"add":[],"remove":[],"update":[]}' > empty-diff.json
expect "diff apply: a truncated snapshot line" 2 "broken element" 5 --absent s.json -- "$BIN" diff apply cut.ndjson empty-diff.json --output s.json
expect "diff --lenient lists what it skipped" 0 "skipped: .*line 2" 5 -- "$BIN" diff old.ndjson cut.ndjson --out d.json --lenient

echo "== one verdict everywhere"
rm -f d.json st.csv c.txt
printf '{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},{"type":"Feature","id":2,"properties":{}},{"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[120,-40]},"properties":{},"coordinates":[0,0]}]}' > nogeom.json
printf '{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}\n{"type":"Feature","id":2,"properties":{}}\n' > nogeom.ndjson
printf '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}' > lone.json
expect "validate: a feature without geometry is an error" 1 "invalid, 2 errors.*3 features" 5 -- "$BIN" geojson validate nogeom.json
expect "stats refuses it, nothing written" 2 "\"geometry\" member.*nothing written" 5 --absent st.csv -- "$BIN" geojson stats nogeom.json --output st.csv
expect "stats refuses it in a sequence" 2 "broken element.*nothing written" 5 --absent st.csv -- "$BIN" geojson stats nogeom.ndjson --output st.csv
expect "stats --lenient counts what it read past" 0 "violations read past \(--lenient\): 2" 5 -- "$BIN" geojson stats nogeom.json --lenient
expect "profile counts them as errors" 0 "findings: 2 errors" 5 -- "$BIN" profile nogeom.json
expect "profile --jobs 2 counts the same" 0 "findings: 2 errors" 5 -- "$BIN" profile nogeom.json --jobs 2
expect "diff refuses it, nothing written" 2 "\"geometry\" member.*nothing written" 5 --absent d.json -- "$BIN" diff nogeom.json nogeom.json --out d.json
expect "diff refuses it in a sequence" 2 "broken element.*nothing written" 5 --absent d.json -- "$BIN" diff nogeom.ndjson nogeom.ndjson --out d.json
expect "diff --lenient reads it and says so" 0 "violations read past \(--lenient\): 2" 5 -- "$BIN" diff nogeom.json nogeom.json --out d.json --lenient
expect "cover geometry refuses it, nothing written" 2 "\"geometry\" member.*nothing written" 5 --absent c.txt -- "$BIN" cover geometry nogeom.json --zoom 3 --output c.txt
expect "cover geometry --lenient covers every feature" 0 "" 5 -- "$BIN" cover geometry nogeom.json --zoom 3 --lenient --output c.txt
[ "$(wc -l < c.txt)" -eq 2 ] || { failed=$((failed + 1)); echo "FAIL  cover geometry --lenient: $(wc -l < c.txt) tiles, expected 2"; }
expect "validate: a lone Feature is 1 feature" 0 "valid, 0 errors, 0 warnings, 1 feature," 5 -- "$BIN" geojson validate lone.json
expect "profile: a lone Feature is a Feature" 0 "^GeoJSON Feature:" 5 -- "$BIN" profile lone.json

printf '{"type":"LineString","coordinates":[[1,2],[1.001,2.001]]}' > line.geojson
expect "tiles load --route GeoJSON --mode compass without --headings" 2 "records no headings" 5 --absent tl.csv -- "$BIN" tiles load folder --route line.geojson --mode compass --zoom 14 --output tl.csv
expect "cover follow: a GeoJSON without a line" 2 "no LineString or MultiLineString" 5 --absent fl.csv -- "$BIN" cover follow lone.json --zoom 14 --output fl.csv

echo "== synthetic keys never collide with real ids"
rm -f d.json
printf '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},{"type":"Feature","id":"index:0","geometry":{"type":"Point","coordinates":[5,6]},"properties":{}}]}' > synth.json
expect "diff --match index: a real id index:0" 2 "feature 1 has the key \"index:0\"" 5 --absent d.json -- "$BIN" diff synth.json synth.json --match index --out d.json
printf '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}]}' > plain.json
printf '{"match":"geometry+properties","add":[{"type":"Feature","id":"index:0","geometry":{"type":"Point","coordinates":[5,6]},"properties":{}}],"remove":[],"update":[]}' > add-index.json
expect "diff apply --match geometry+properties keeps a real id index:0" 0 "added 1" 5 -- "$BIN" diff apply plain.json add-index.json --match geometry+properties --output applied.json
grep -q '"id":"index:0"' applied.json || { failed=$((failed + 1)); echo "FAIL  diff apply stripped a real id index:0"; }
printf '{"match":"index","add":[],"remove":[],"update":[]}' > empty-index-diff.json
expect "diff apply --match index: a real id of the synthetic form in the snapshot" 2 "has the key \"index:0\"" 5 --absent s.json -- "$BIN" diff apply synth.json empty-index-diff.json --match index --output s.json

echo "== messages that point the way"
expect "a mistyped command gets the nearest one" 2 "Did you mean 'graticule bench'" 5 -- "$BIN" bnech
expect "a mistyped subcommand gets the nearest one" 2 "Did you mean 'graticule cover camera'" 5 -- "$BIN" cover camra --zoom 3
expect "a filter that matches nothing points to --list" 2 "graticule bench --list" 5 -- "$BIN" bench --quick --filter nosuchcase

echo "== numbers and files as they arrive"
expect "cover camera --center 0x10,0 is not a decimal" 2 "--center must be LON,LAT in decimal degrees" 5 -- "$BIN" cover camera --center 0x10,0 --zoom 3
expect "cover camera --center nan,0" 2 "--center must be LON,LAT" 5 -- "$BIN" cover camera --center nan,0 --zoom 3
expect "cover camera --center 0,91: no place on Earth" 2 "latitude" 5 -- "$BIN" cover camera --center 0,91 --zoom 3
expect "cover camera --center 0,89: the clamp is stated" 0 "centre latitude 85.05° \(asked 89°, clamped" 5 -- "$BIN" cover camera --center 0,89 --zoom 3
printf '<gpx><trk><trkseg><trkpt lat="0x10" lon="0"/><trkpt lat="1" lon="1"/></trkseg></trk></gpx>' > hex.gpx
expect "cover follow: a GPX lat of 0x10" 2 "lat '0x10' is not a decimal number" 5 --absent hex.csv -- "$BIN" cover follow hex.gpx --zoom 15 --output hex.csv
"$BIN" corpus generate tiles --count 5 --format dir --compression none --output camtiles > /dev/null
printf 'longitude,latitude,zoom\r\n0.5,0.5,1\r\n1,1,1\r\n' > crlf.csv
printf '\357\273\277"longitude","latitude","zoom"\n0.5,0.5,1\n' > bom.csv
expect "tiles load --cameras: CRLF line ends" 0 "2 updates" 10 -- "$BIN" tiles load camtiles --cameras crlf.csv --output load1.csv
expect "tiles load --cameras: a BOM and quoted names" 0 "1 update" 10 -- "$BIN" tiles load camtiles --cameras bom.csv --output load2.csv
printf 'longitude,latitude\n"0.5,0.5\n' > quote.csv
expect "tiles load --cameras: an unclosed quote is named" 2 "line 2: the quote at column 1 is not closed" 10 --absent load3.csv -- "$BIN" tiles load camtiles --cameras quote.csv --output load3.csv

echo "== the same file read the same way with any --jobs"
python3 -c "
import sqlite3
db = sqlite3.connect('rowids.mbtiles')
db.executescript('CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);')
for rowid, z, x, y in [(-2**63, 0, 0, 0), (2**63 - 1, 1, 0, 0)]:
    db.execute('INSERT INTO tiles (rowid, zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?, ?)', (rowid, z, x, y, bytes([0x1a, 0])))
db.commit()"
for jobs in 1 2 7; do
  expect "profile --jobs $jobs: rowids -2^63 and 2^63-1" 0 "tiles +2\b|2 tiles" 10 -- "$BIN" profile rowids.mbtiles --jobs $jobs
done
"$BIN" corpus generate tiles --count 5 --format pmtiles --output claim.pmtiles > /dev/null
python3 -c "
import struct
b = bytearray(open('claim.pmtiles', 'rb').read())
b[72:80] = struct.pack('<Q', 2**64 - 1)
open('claim.pmtiles', 'wb').write(bytes(b))"
for jobs in 1 2 3; do
  expect "profile --jobs $jobs: a header claiming 2^64-1 addressed tiles" 0 "\[PM6\] the header says 18446744073709551615 addressed tiles, the directories address 5" 10 -- "$BIN" profile claim.pmtiles --jobs $jobs
done
rm -f claim-*.json
for i in 0 1 2; do "$BIN" profile claim.pmtiles --shard $i/3 --output claim-$i.json > /dev/null 2>&1; done
expect "profile merge of 3 shards: the header's claim once" 0 "\[PM6\] the header says 18446744073709551615" 10 -- "$BIN" profile merge claim-0.json claim-1.json claim-2.json

echo "== compare reads a report and its samples as one"
tamper() {  # tamper NAME PYTHON: a copy of the quick baseline (and samples) changed by PYTHON
  python3 - "$ROOT/reports/baselines/quick.csv" "$1" <<PY
import csv, sys
src, name = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(src))); samples = list(csv.reader(open(src[:-4] + '.samples.csv')))
h = rows[0]; sh = samples[0]
$2
csv.writer(open(name + '.csv', 'w', newline='')).writerows(rows)
csv.writer(open(name + '.samples.csv', 'w', newline='')).writerows(samples)
PY
}
tamper quantiles "
for r in rows[1:]:
    if r[h.index('metric')] == 'time_ns' and r[h.index('status')] == 'ok':
        for c in ('min', 'p25', 'median', 'p75', 'p90', 'p99', 'max', 'mean'): r[h.index(c)] = repr(float(r[h.index(c)]) * 100)
        break"
tamper samples100 "
for r in samples[1:]:
    if r[sh.index('metric')] == 'time_ns': r[sh.index('value')] = repr(float(r[sh.index('value')]) * 100)"
tamper stray "samples.append([samples[1][0], 'no.such.benchmark', 'graticule', 'generated/points-2k', '', 'time_ns', '0', '1', '123.0'])"
tamper debugrow "rows[3][h.index('build_configuration')] = 'debug'"
B=$ROOT/reports/baselines/quick.csv
expect "compare: report quantiles x100, samples untouched" 2 "column (min|median|mean).*samples beside the report give" 10 -- "$BIN" compare "$B" quantiles.csv
expect "compare: samples x100 under an unchanged report" 2 "samples beside the report give" 10 -- "$BIN" compare "$B" samples100.csv
expect "compare: a samples row for a case the report lacks" 2 "no measured row of this case" 10 -- "$BIN" compare "$B" stray.csv
expect "compare: build_configuration=debug on line 4" 2 "quick.csv:4|debugrow.csv:4: column build_configuration" 10 -- "$BIN" compare "$B" debugrow.csv

echo "== signals leave no partial file"
# interrupt NAME SIGNAL TARGET -- COMMAND...: the command is interrupted after 1.5 s; it
# must exit 128+signal, leave no partial file, and leave TARGET as it was.
interrupt() {
  local name=$1 sig=$2 target=$3; shift 4
  echo previous > "$target"
  "$@" > /dev/null 2> int.err &
  local job=$!
  sleep 1.5
  kill -"$sig" "$job"; wait "$job"; local got=$?
  local want=$((128 + $(kill -l "$sig")))
  local why=""
  if [ "$got" -ne "$want" ]; then why="exit $got, expected $want"
  elif ls -a | grep -qE '\.partial-|-journal$'; then why="left $(ls -a | grep -E '\.partial-|-journal$' | head -1)"
  elif [ "$(cat "$target")" != previous ]; then why="$target was changed"
  fi
  if [ -z "$why" ]; then pass=$((pass + 1)); printf 'ok    %-58s exit %s\n' "$name" "$got"
  else failed=$((failed + 1)); printf 'FAIL  %-58s %s\n' "$name" "$why"; cat int.err; fi
  rm -f "$target"
}
interrupt "SIGTERM during corpus generate features --bytes 2G" TERM big.json -- "$BIN" corpus generate features --bytes 2G --output big.json
interrupt "SIGINT during corpus generate features --bytes 2G" INT big.json -- "$BIN" corpus generate features --bytes 2G --output big.json
interrupt "SIGTERM during corpus generate tiles (pmtiles)" TERM t.pmtiles -- "$BIN" corpus generate tiles --count 2000000 --format pmtiles --output t.pmtiles
interrupt "SIGHUP during corpus generate tiles (mbtiles)" HUP t.mbtiles -- "$BIN" corpus generate tiles --count 2000000 --format mbtiles --output t.mbtiles
# A folder of tiles: written into a new folder renamed into place, removed whole on a signal.
for sig in TERM INT HUP; do
  "$BIN" corpus generate tiles --count 2000000 --format dir --output tiles-dir > /dev/null 2> int.err &
  job=$!; sleep 1.5; kill -$sig $job; wait $job; got=$?
  if [ "$got" -ne $((128 + $(kill -l $sig))) ]; then failed=$((failed + 1)); echo "FAIL  SIG$sig during corpus generate tiles (dir): exit $got"
  elif [ -e tiles-dir ] || ls -a | grep -q '\.partial-'; then failed=$((failed + 1)); echo "FAIL  SIG$sig during corpus generate tiles (dir) left $(ls -a | grep -E 'tiles-dir|partial' | head -1)"
  else pass=$((pass + 1)); printf 'ok    %-58s exit %s\n' "SIG$sig during corpus generate tiles (dir)" "$got"; fi
done
mkdir -p kept-dir && echo mine > kept-dir/keep.txt
expect "corpus generate tiles --format dir into a folder holding files" 2 "already holds files" 10 -- "$BIN" corpus generate tiles --count 5 --format dir --output kept-dir
[ "$(ls kept-dir)" = keep.txt ] || { failed=$((failed + 1)); echo "FAIL  a folder holding files was written into: $(ls kept-dir | head -3)"; }
mkdir -p empty-dir
expect "corpus generate tiles --format dir into an empty folder" 0 "tiles: 5 tiles" 10 -- "$BIN" corpus generate tiles --count 5 --format dir --output empty-dir
[ -e /dev/full ] && expect "stdout > /dev/full (mvt inspect --geojson)" 2 "cannot write to standard output" 10 -- sh -c "'$BIN' mvt inspect '$P/run-1e10.pmtiles' 0 0 0 --geojson > /dev/full"

echo "== adapters"
# An adapter that never answers: interrupting the runner stops it too (no orphan left).
cat > hang.json <<'JSON'
{"benchmark": "geojson.parse", "parameters": {"mode": "whole"}, "implementation": "hang.sleeper",
 "datasetKinds": ["geojson"], "command": ["sh", "-c", "exec sleep 4243", "adapter"], "requires": "sh"}
JSON
"$BIN" bench --quick --quiet --filter 'hang.sleeper' --external hang.json --output hang.csv > hang.out 2>&1 &
runner=$!
sleep 3
if pgrep -f "sleep 4243" > /dev/null; then
  kill -TERM "$runner"; wait "$runner"; code=$?
  sleep 0.5
  if [ "$code" -eq 143 ] && ! pgrep -f "sleep 4243" > /dev/null && grep -q "external programs stopped" hang.out; then
    pass=$((pass + 1)); echo "ok    interrupted runner stops its adapter                         exit 143"
  else
    failed=$((failed + 1)); echo "FAIL  interrupted runner: exit $code, adapter still running: $(pgrep -f 'sleep 4243' | tr '\n' ' ')"
    pkill -f "sleep 4243"
  fi
else
  failed=$((failed + 1)); echo "FAIL  the hanging adapter did not start: $(tail -2 hang.out)"; kill "$runner" 2> /dev/null
fi

# Nothing an adapter starts outlives the run: one refused for its first line that then
# sleeps, and one whose child leaves the process group (setsid), both stopped by the time
# bench exits; an adapter writing 300 MB of errors costs the runner no more memory.
cat > notready.json <<'JSON'
{"benchmark": "geojson.parse", "parameters": {"mode": "whole"}, "implementation": "not.ready",
 "datasetKinds": ["geojson"], "command": ["sh", "-c", "echo hello; exec sleep 4244", "adapter"], "requires": "sh"}
JSON
cat > escape.json <<'JSON'
{"benchmark": "geojson.parse", "parameters": {"mode": "whole"}, "implementation": "set.loose",
 "datasetKinds": ["geojson"], "command": ["sh", "-c", "setsid sleep 4245 < /dev/null > /dev/null 2>&1 & sleep 0.2; echo hello; exec sleep 4246", "adapter"], "requires": "sh"}
JSON
cat > noisy.json <<'JSON'
{"benchmark": "geojson.parse", "parameters": {"mode": "whole"}, "implementation": "noisy.errors",
 "datasetKinds": ["geojson"], "command": ["sh", "-c", "head -c 300000000 /dev/zero | tr '\\0' x >&2; echo hello", "adapter"], "requires": "sh"}
JSON
for m in notready escape; do
  expect "bench: adapter $m is failed and stopped" 1 "failed" 30 -- "$BIN" bench --quick --quiet --filter "geojson.parse|$(python3 -c "import json;print(json.load(open('$m.json'))['implementation'])")|generated/points-2k" --external $m.json --output $m.csv
done
sleep 0.3
if pgrep -f "sleep 424[456]" > /dev/null; then
  failed=$((failed + 1)); echo "FAIL  an adapter's process outlived bench: $(pgrep -af 'sleep 424[456]' | head -3 | tr '\n' ' ')"; pkill -f "sleep 424[456]"
else
  pass=$((pass + 1)); echo "ok    no adapter process outlives bench (refused, setsid child)"
fi
expect "bench: 300 MB of adapter errors, runner under 1 GB" 1 "failed" 60 -- sh -c "ulimit -v 1500000; '$BIN' bench --quick --quiet --filter 'geojson.parse|noisy.errors|generated/points-2k' --external noisy.json --output noisy.csv"

echo
echo "adversarial cases: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
