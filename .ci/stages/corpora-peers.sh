# Corpora and peers for people without ../shared: the lists match ../shared byte for byte;
# every shipped adapter's requirements are met here; adapters run from another folder; a
# missing TMPDIR, corpora folder or peer exits 2 with one line saying what to do.
source "$(dirname "$0")/../lib.sh"
if have_shared corpora; then corpora/fetch --check "$SHARED/corpora"; fi
if have_shared peers; then corpora/fetch --manifest Benchmarks/Adapters/peers.tsv --check "$SHARED/peers"; fi
for m in Benchmarks/Adapters/*.json; do
  case "$m" in */conform-*) continue;; esac
  "$BIN" bench --check --external "$m"
done
# Shipped manifests run from the repository root wherever graticule starts (workingDirectory).
repo=$(pwd)
(cd "$CI_ROOT" && "$repo/$BIN" bench --quick --filter 'geojson.parse|python.json' --max-time 0.05 \
  --external "$repo/Benchmarks/Adapters/python-json.json" --output "$CI_ROOT/elsewhere.csv" > "$repo/reports/ci-elsewhere.txt" 2>&1) \
  || { cat reports/ci-elsewhere.txt; fail "an adapter run from another folder must work"; }
grep -E '^[0-9]+ cases?: [0-9]+ ok$' reports/ci-elsewhere.txt
code=0; TMPDIR=$CI_ROOT/no-such-tmp "$BIN" bench --quick --filter tilecover.camera > reports/ci-no-tmp.txt 2>&1 || code=$?
[ "$code" -eq 2 ] && grep -q 'set TMPDIR to a writable folder' reports/ci-no-tmp.txt && [ ! -e "$CI_ROOT/no-such-tmp" ] \
  || { cat reports/ci-no-tmp.txt; fail "a missing TMPDIR must exit 2 and never be made (exit $code)"; }
code=0; "$BIN" bench --quick --data "$CI_ROOT/no-such-corpora" > reports/ci-no-corpora.txt 2>&1 || code=$?
[ "$code" -eq 2 ] && grep -q 'get them with `corpora/fetch DEST`' reports/ci-no-corpora.txt \
  || { cat reports/ci-no-corpora.txt; fail "a missing corpora folder must exit 2 naming corpora/fetch (exit $code)"; }
code=0
GRATICULE_TILE_COVER=/nonexistent "$BIN" bench --quick --filter tilecover.points --external Benchmarks/Adapters/tile-cover-js.json \
  --output reports/ci-missing-peer.csv > reports/ci-missing-peer.txt 2>&1 || code=$?
[ "$code" -eq 2 ] && grep -q 'install it with: corpora/fetch --manifest Benchmarks/Adapters/peers.tsv' reports/ci-missing-peer.txt \
  && [ ! -e reports/ci-missing-peer.csv ] \
  || { cat reports/ci-missing-peer.txt; fail "a missing peer must exit 2 with the line that installs it, before any row (exit $code)"; }
