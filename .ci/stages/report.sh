# report: runs merged, history across runs, the conformance table, a headless Chromium
# screenshot of the HTML.
source "$(dirname "$0")/../lib.sh"
"$BIN" report reports/ci-smoke.csv --html reports/ci-smoke.html
grep -q '<svg' reports/ci-smoke.html
conformance=()
[ -f reports/ci-conform-all.matrix.csv ] && conformance=(--conformance reports/ci-conform-all.matrix.csv) \
  || note "no conform-all table: the report's conformance section not checked"
"$BIN" report reports/baselines/quick.csv reports/ci-smoke.csv "${conformance[@]}" \
  --html reports/ci-report.html --merged reports/ci-merged.csv
grep -q 'History across runs' reports/ci-report.html
[ ${#conformance[@]} -eq 0 ] || grep -q 'Conformance: implementation' reports/ci-report.html
command -v chromium >/dev/null 2>&1 || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 || true; }
if command -v chromium >/dev/null 2>&1; then
  Benchmarks/Report/screenshot.sh reports/ci-report.html reports/ci-report.png
else
  note "chromium could not be installed: screenshot not taken"
fi
