# corpus generate tiles / features, then profile: counts right, generated tiles valid;
# --jobs 1, 2, 3 and three merged --shard runs give the figures of one job on every input
# that can be cut; bad --jobs, --shard and incomplete shard sets exit 2; the Kubernetes
# Indexed Job recipe's fields checked and its commands run here as 4 shards.
source "$(dirname "$0")/../lib.sh"
"$BIN" corpus generate tiles --count 2000 --format pmtiles --output reports/ci-tiles.pmtiles
"$BIN" corpus generate tiles --count 2000 --format mbtiles --output reports/ci-tiles.mbtiles
rm -rf reports/ci-tiles-dir
"$BIN" corpus generate tiles --count 85 --format dir --output reports/ci-tiles-dir
for a in reports/ci-tiles.pmtiles reports/ci-tiles.mbtiles; do
  "$BIN" profile "$a" --zoom 4 --csv "$a.profile.csv" --heatmap "$a.heat.geojson" --html "$a.profile.html" > /dev/null
  grep -q '^count,tiles,2000$' "$a.profile.csv" || fail "$a: profile must count 2000 tiles"
  grep -q '^findings,errors,0$' "$a.profile.csv" || fail "$a: generated tiles must validate"
done
"$BIN" profile reports/ci-tiles-dir --csv reports/ci-tiles-dir.profile.csv > /dev/null
grep -q '^count,tiles,85$' reports/ci-tiles-dir.profile.csv
"$BIN" corpus generate features --bytes 20M --format seq --output reports/ci-features.geojsons | tee reports/ci-features.txt
n=$(sed -E 's/^features: ([0-9]+) features.*/\1/' reports/ci-features.txt)
"$BIN" profile reports/ci-features.geojsons --zoom 5 --csv reports/ci-features.profile.csv > /dev/null
grep -q "^count,features,$n\$" reports/ci-features.profile.csv || fail "profile must count the $n generated features"
expect_exit 2 "$BIN" profile /nonexistent.pmtiles
# A newline-delimited file with broken and blank lines, so that findings are renumbered too.
"$BIN" corpus generate features --bytes 4M --format ndjson --output reports/ci-features.ndjson > /dev/null
printf '{"type":"Feature","geometry":null,"properties":{"a":[1,\n\n{"type":"Point"}\n' >> reports/ci-features.ndjson
"$BIN" corpus generate features --bytes 2M --format ndjson --seed 2 --output reports/ci-features-2.ndjson > /dev/null
cat reports/ci-features-2.ndjson >> reports/ci-features.ndjson
"$BIN" corpus generate features --bytes 6M --format geojson --output reports/ci-features.geojson > /dev/null
for d in reports/ci-tiles.pmtiles reports/ci-tiles.mbtiles reports/ci-tiles-dir reports/ci-features.geojsons reports/ci-features.ndjson \
         reports/ci-features.geojson; do
  name=$(basename "$d")
  for j in 1 2 3; do
    "$BIN" profile "$d" --zoom 4 --jobs "$j" --findings 50 --csv "reports/ci-jobs-$name-$j.csv" > /dev/null
    grep -v '^run,' "reports/ci-jobs-$name-$j.csv" > "reports/ci-jobs-$name-$j.figures.csv"
  done
  cmp "reports/ci-jobs-$name-1.figures.csv" "reports/ci-jobs-$name-2.figures.csv" \
    && cmp "reports/ci-jobs-$name-1.figures.csv" "reports/ci-jobs-$name-3.figures.csv" \
    || fail "$d: profile --jobs 2 and 3 must give the figures of --jobs 1"
  case "$d" in *.geojson) echo "$d: --jobs 1, 2, 3 agree (a FeatureCollection is not sharded)"; continue ;; esac
  pids=()
  for i in 0 1 2; do
    "$BIN" profile "$d" --zoom 4 --findings 50 --shard "$i/3" --output "reports/ci-shard-$name-$i.json" > /dev/null & pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  "$BIN" profile merge "reports/ci-shard-$name-2.json" "reports/ci-shard-$name-0.json" "reports/ci-shard-$name-1.json" \
    --output "reports/ci-shards-$name-merged.csv" > /dev/null
  grep -v '^run,' "reports/ci-shards-$name-merged.csv" > "reports/ci-shards-$name-merged.figures.csv"
  cmp "reports/ci-jobs-$name-1.figures.csv" "reports/ci-shards-$name-merged.figures.csv" \
    || fail "$d: merged shards must give the figures of one run"
  echo "$d: --jobs 1, 2, 3 and 3 merged shards agree"
done
grep -q '^findings,errors,[1-9]' reports/ci-jobs-ci-features.ndjson-1.csv || fail "the broken ndjson lines must be findings"
expect_exit 2 "$BIN" profile reports/ci-tiles.pmtiles --jobs 0
for bad in "3/2" "0/0"; do
  expect_exit 2 "$BIN" profile reports/ci-tiles.pmtiles --shard "$bad" --output reports/ci-shard-bad.json
done
expect_exit 2 "$BIN" profile merge reports/ci-shard-ci-tiles.pmtiles-0.json reports/ci-shard-ci-tiles.pmtiles-2.json
python3 Benchmarks/Examples/ProfileShards/check.py "$BIN" reports/ci-tiles.pmtiles
