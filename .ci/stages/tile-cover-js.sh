# tile-cover (JavaScript) in the same run: conformance with expected failures, benchmarks
# with checked results and same-run speedups.
source "$(dirname "$0")/../lib.sh"
have_shared peers/tile-cover && have_shared corpora/tile-cover || skip "no tile-cover peer or fixtures in $SHARED"
"$BIN" conform --suite tile-cover --external Benchmarks/Adapters/tile-cover-js.json --implementation graticule \
  --implementation tile-cover.js --expected Benchmarks/Adapters/tile-cover-js.expected --output reports/ci-tile-cover-js.csv \
  --quiet | tee reports/ci-tile-cover-js.txt
grep -q 'listed but passing' reports/ci-tile-cover-js.txt
"$BIN" bench --quick --quiet --filter 'tilecover.points,tilecover.lines' --max-time 0.3 \
  --external Benchmarks/Adapters/tile-cover-js.json --output reports/ci-tile-cover-bench.csv
python3 .ci/report_checks.py peer-speedups reports/ci-tile-cover-bench.csv tile-cover.js
