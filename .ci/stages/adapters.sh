# An external implementation through its adapter (python json), and isolation: another
# implementation's in-process case traps in its child; the run goes on and exits 1.
source "$(dirname "$0")/../lib.sh"
"$BIN" bench --quick --quiet --filter 'geojson.parse|python.json' --external Benchmarks/Adapters/python-json.json \
  --output reports/ci-external.csv
python3 .ci/check_report.py reports/ci-external.csv --require-impl python.json
code=0; "$BIN" bench --quick --quiet --filter 'geojson.parse|foundation,geojson.parse|graticule|generated/points-2k|mode=whole' \
  --inject-trap foundation.jsondecoder --max-time 0.2 --output reports/ci-trap.csv 2> reports/ci-trap.err || code=$?
[ "$code" -eq 1 ] || { cat reports/ci-trap.err; fail "a run with a crashed case must exit 1, got $code"; }
python3 .ci/report_checks.py trap reports/ci-trap.csv
