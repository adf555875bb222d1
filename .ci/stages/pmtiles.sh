# PMTiles with gzip, brotli and zstd tiles profile alike; profile, mvt inspect and geojson
# stats JSON against their schemas; mvt inspect ARCHIVE Z X Y; verify of a written archive
# and of a broken one; a tile the archive lacks exits 2; the raster example profiles as images;
# the pmtiles conformance suite passes.
source "$(dirname "$0")/../lib.sh"
for c in gzip brotli zstd; do
  "$BIN" corpus generate tiles --count 300 --compression "$c" --output "reports/ci-tiles-$c.pmtiles" > /dev/null
  "$BIN" profile "reports/ci-tiles-$c.pmtiles" | grep -E '^features|^findings' > "reports/ci-tiles-$c.profile.txt"
done
cmp -s reports/ci-tiles-gzip.profile.txt reports/ci-tiles-brotli.profile.txt && cmp -s reports/ci-tiles-gzip.profile.txt reports/ci-tiles-zstd.profile.txt \
  || { cat reports/ci-tiles-*.profile.txt; fail "brotli and zstd archives must profile as the gzip one does"; }
head -1 reports/ci-tiles-zstd.profile.txt
"$BIN" profile reports/ci-tiles-zstd.pmtiles --json reports/ci-profile.json > /dev/null
schemas=(--profile reports/ci-profile.json)
if have_shared corpora/geojson/canada.json; then
  "$BIN" profile "$SHARED/corpora/geojson/canada.json" --json reports/ci-profile-geojson.json > /dev/null
  schemas+=(--profile reports/ci-profile-geojson.json)
fi
# A raster archive profiles as images (the specification's example: 85 PNG tiles, 256×256).
if have_shared corpora/pmtiles/stamen_toner_raster_z3.pmtiles; then
  "$BIN" profile "$SHARED/corpora/pmtiles/stamen_toner_raster_z3.pmtiles" --json reports/ci-profile-raster.json > /dev/null
  schemas+=(--profile reports/ci-profile-raster.json)
  python3 -c "import json,sys; d=json.load(open('reports/ci-profile-raster.json')); sys.exit(0 if d['tile_contents']=={'png 256×256': 85} and d['findings']['errors']==0 else 1)" \
    || fail "the raster example must profile as 85 PNG tiles of 256×256 without errors"
  "$BIN" mvt inspect "$SHARED/corpora/pmtiles/stamen_toner_raster_z3.pmtiles" 1 0 1 | grep -q 'a png image, 256×256' \
    || fail "mvt inspect of a raster tile must describe the image"
fi
# The PMTiles v3 rules: every crafted archive gets exactly its rule's verdict.
"$BIN" conform --suite pmtiles --output reports/ci-conform-pmtiles.csv --quiet | tee reports/ci-conform-pmtiles.txt
grep -qE '^pmtiles +graticule +([0-9]+)/\1 ' reports/ci-conform-pmtiles.txt || fail "verify must pass every pmtiles case"
"$BIN" mvt inspect reports/ci-tiles-zstd.pmtiles 2 1 1 --json reports/ci-mvt-inspect.json > /dev/null
expect_exit 1 "$BIN" mvt inspect corpora/regressions/mvt-spec/extent-0.mvt --json reports/ci-mvt-inspect-finding.json
"$BIN" corpus generate points --count 500 --output reports/ci-points.json > /dev/null
"$BIN" geojson stats reports/ci-points.json --json reports/ci-geojson-stats.json > /dev/null
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check jsonschema
python3 Benchmarks/Schemas/check.py "${schemas[@]}" --mvt-inspect reports/ci-mvt-inspect.json \
  --mvt-inspect reports/ci-mvt-inspect-finding.json --geojson-stats reports/ci-geojson-stats.json
"$BIN" mvt inspect reports/ci-tiles-zstd.pmtiles 2 1 1 | grep -q '^reports/ci-tiles-zstd.pmtiles 2/1/1: 764 bytes, 3 layers' \
  || fail "mvt inspect ARCHIVE Z X Y must read one tile"
"$BIN" verify reports/ci-tiles-brotli.pmtiles | grep -q '^valid: no findings' || fail "a written archive must verify"
expect_exit 1 "$BIN" verify corpora/regressions/pmtiles/leaf-fanout.pmtiles
expect_exit 2 "$BIN" mvt inspect reports/ci-tiles-zstd.pmtiles 9 1 1
expect_exit 1 "$BIN" mvt inspect corpora/conformance/pmtiles/crafted/png-in-mvt-archive.pmtiles 0 0 0
