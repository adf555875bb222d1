# The CI gate: instruction and allocation counts of the quick suite's graticule cases against
# reports/baselines/quick.csv. Only the gated implementation's cases are counted (peers are
# never gated; Foundation's cases alone cost minutes under callgrind). Also: one callgrind
# profile per case with --keep-profiles, read by callgrind_annotate; the committed baseline's
# times compared (informational: another machine's time is not gated).
source "$(dirname "$0")/../lib.sh"
"$BIN" bench --quick --quiet --instructions --filter '|graticule|' --keep-profiles reports/ci-profiles --output reports/ci-counts.csv
code=0
"$BIN" compare reports/baselines/quick.csv reports/ci-counts.csv --gate-metrics instructions,alloc_count,alloc_bytes \
  --markdown reports/ci-counts-gate.md --output reports/ci-counts-gate.csv --quiet || code=$?
python3 .ci/report_checks.py gate-counts reports/ci-counts-gate.csv
if [ "$code" -ne 0 ]; then
  sed -n '/### Regressions/,/### Improvements/p' reports/ci-counts-gate.md
  fail "counts regressed against reports/baselines/quick.csv (refresh it in the commit that makes the trade-off, with the reason)"
fi
python3 .ci/check_report.py reports/ci-counts.csv --require-metric instructions
echo "$(ls reports/ci-profiles/*.callgrind.out | wc -l) callgrind profiles"
callgrind_annotate "$(ls reports/ci-profiles/pbf.varint.decode_graticule_*.callgrind.out | head -1)" | grep -q 'PROGRAM TOTALS'
code=0
"$BIN" compare reports/baselines/quick.csv reports/ci-smoke.csv --gate-metrics time_ns --markdown reports/ci-gate.md --quiet || code=$?
echo "time against reports/baselines/quick.csv: exit $code (informational)"
[ "$code" -le 1 ] || fail "the committed baseline could not be compared"
sed -n '1,/### Improvements/p' reports/ci-gate.md
