# conform on the project's fixtures and, from ../shared, on every public suite; a program
# brought with --external that never starts fails the run; mvt inspect of fixtures and of a
# gzip tile; one source layer as a benchmark case (measured where the layer exists, failed
# with a message where it does not).
source "$(dirname "$0")/../lib.sh"
"$BIN" conform --suite pbf-varint --path corpora/conformance/pbf-varint --output reports/ci-conformance.csv --quiet
printf '%s\n' '{"implementation": "dead", "command": ["sh", "-c", "exit 3"], "conformance": {"suites": ["pbf-varint"], "timeout": 1}}' \
  > reports/ci-dead.json
code=0; "$BIN" conform --suite pbf-varint --path corpora/conformance/pbf-varint --external reports/ci-dead.json \
  --output reports/ci-dead.csv --quiet > reports/ci-dead.out 2>&1 || code=$?
[ "$code" -eq 1 ] && grep -q 'did not start' reports/ci-dead.out || { cat reports/ci-dead.out; fail "an external program that never starts must fail conform (exit $code)"; }
for suite in mvt-fixtures json-test-suite parse-number-fxx geojsonhint geojson-schema geojson-invalid-geometry geojson-rewind turf \
             tile-cover supermercado; do
  if have_shared "corpora/$suite"; then
    "$BIN" conform --suite "$suite" --path "$SHARED/corpora/$suite" --output "reports/ci-$suite.csv" --quiet
  fi
done
if have_shared corpora/mvt-fixtures/real-world/bangkok/12-3188-1888.mvt; then
  "$BIN" mvt inspect "$SHARED/corpora/mvt-fixtures/fixtures/019/tile.mvt"
  gzip -c "$SHARED/corpora/mvt-fixtures/real-world/bangkok/12-3188-1888.mvt" > reports/ci-tile.mvt.gz
  "$BIN" mvt inspect reports/ci-tile.mvt.gz --layer water | grep -q 'inflated to 5970), 1 layer (--layer water)' \
    || fail "mvt inspect: a gzip tile is inflated and --layer selects one source layer"
  expect_exit 2 "$BIN" mvt inspect reports/ci-tile.mvt.gz --layer nope
fi
code=0; GRATICULE_JEMALLOC= "$BIN" bench --quick --quiet --mvt-layer roads --mvt-layer nope --filter 'layer=' --output reports/ci-layer.csv \
  2> reports/ci-layer.err || code=$?
[ "$code" -eq 1 ] || { cat reports/ci-layer.err; fail "a run with a failed case must exit 1, got $code"; }
GRATICULE_JEMALLOC= "$BIN" bench --quick --quiet --mvt-layer roads --mvt-layer nope --filter 'layer=' --allow-failures \
  --output reports/ci-layer.csv 2> /dev/null
python3 .ci/report_checks.py mvt-layer reports/ci-layer.csv
