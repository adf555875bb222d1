# Every suite against every implementation (graticule, Foundation, swift-protobuf and the
# Python peers through their adapters): graticule fails nothing, every peer is in the table,
# rules without a case are listed.
source "$(dirname "$0")/../lib.sh"
have_shared corpora || skip "no $SHARED/corpora: the public suites are not here"
python3 -c "import orjson, mapbox_vector_tile, mercantile" 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check orjson mapbox-vector-tile mercantile
"$BIN" conform --implementation all --external Benchmarks/Adapters/conform-json.json \
  --external Benchmarks/Adapters/conform-orjson.json --external Benchmarks/Adapters/conform-mapbox-vector-tile.json \
  --external Benchmarks/Adapters/conform-mercantile.json --output reports/ci-conform-all.csv --quiet \
  --junit reports/ci-conform-all.junit.xml --markdown reports/ci-conform-all.md | tee reports/ci-conform-all.txt
grep -q '^rules: ' reports/ci-conform-all.txt
python3 .ci/report_checks.py conform-matrix reports/ci-conform-all.matrix.csv reports/ci-conform-all.rules.csv
