# bench --quick: every export written, progress lines without a terminal, no ratio printed
# as zero, the grouped summary table well formed, allocation metrics from the jemalloc child;
# without jemalloc, time only and the allocation metrics `unsupported`, said once.
source "$(dirname "$0")/../lib.sh"
"$BIN" bench --quick --output reports/ci-smoke.csv \
  --json reports/ci-smoke.bmf.json --gab reports/ci-smoke.gab.json --markdown reports/ci-smoke.md 2>&1 | cat > reports/ci-smoke.log
progress=$(grep -c '^\[graticule\] ' reports/ci-smoke.log || true)
[ "$progress" -ge 5 ] || fail "bench without a terminal must print progress lines (got $progress)"
grep -E '^\[graticule\] (setup|warm-up|sampling|allocations|memory|instructions)' reports/ci-smoke.log | cut -c1-100 | head -12
if grep -E '(^|[^0-9.])0\.0+[x×]' reports/ci-smoke.log; then fail "a ratio printed as zero"; fi
python3 .ci/check_summary.py reports/ci-smoke.log || { cat reports/ci-smoke.log; fail "summary table"; }
grep -q '^## Graticule benchmark run' reports/ci-smoke.md
python3 .ci/check_report.py reports/ci-smoke.csv --require-metric time_ns --require-metric alloc_count \
  --require-metric alloc_bytes --require-impl graticule
python3 .ci/report_checks.py allocators reports/ci-smoke.csv
code=0; GRATICULE_JEMALLOC= "$BIN" bench --quick --quiet --filter 'pbf.varint.decode|graticule' --output reports/ci-nojemalloc.csv \
  2> reports/ci-nojemalloc.err || code=$?
[ "$code" -eq 0 ] && [ "$(grep -c 'jemalloc was not found' reports/ci-nojemalloc.err)" -eq 1 ] \
  && grep -q ',alloc_count,unsupported,' reports/ci-nojemalloc.csv || fail "without jemalloc: time, and allocation metrics unsupported, said once"
