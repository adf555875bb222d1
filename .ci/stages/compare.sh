# compare's exit codes. The gate fails closed: a 3x slowdown with no samples file, samples of
# another run, malformed reports (each shape exits 2 naming file, line and column) and bad
# gate options never pass.
source "$(dirname "$0")/../lib.sh"
"$BIN" compare reports/ci-smoke.csv reports/ci-smoke.csv --quiet
expect_exit 2 "$BIN" compare reports/ci-smoke.csv /nonexistent.csv --quiet
python3 .ci/make_inputs.py slow-report reports/ci-smoke.csv reports/ci-slow.csv
python3 .ci/make_inputs.py other-run reports/ci-smoke.csv reports/ci-otherrun.csv
code=0; "$BIN" compare reports/ci-smoke.csv reports/ci-slow.csv --quiet 2> reports/ci-slow.err || code=$?
[ "$code" -eq 2 ] && grep -q 'cannot be compared' reports/ci-slow.err || fail "3x slower without samples must exit 2, got $code"
code=0; "$BIN" compare reports/ci-smoke.csv reports/ci-otherrun.csv --quiet 2> reports/ci-otherrun.err || code=$?
[ "$code" -eq 2 ] && grep -q 'samples are from run' reports/ci-otherrun.err || fail "samples of another run must exit 2, got $code"
python3 .ci/make_inputs.py bad-reports reports/ci-smoke.csv reports/ci-bad
for shape in nan zero negative inf huge duplicate; do
  code=0; "$BIN" compare reports/ci-smoke.csv "reports/ci-bad-$shape.csv" --quiet 2> reports/ci-bad.err || code=$?
  [ "$code" -eq 2 ] && grep -q "reports/ci-bad-$shape.csv:[0-9]" reports/ci-bad.err \
    || { cat reports/ci-bad.err; fail "a report with a $shape median or duplicate rows must exit 2, got $code"; }
done
for opts in "--gate nobody" "--gate-metrics ," "--threshold bogus=0.1"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$BIN" compare reports/ci-smoke.csv reports/ci-smoke.csv $opts --quiet
done
expect_exit 2 "$BIN" bench --no-such-flag
echo "malformed reports, gate options and usage errors: exit 2 for each"
