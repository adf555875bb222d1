#!/usr/bin/env bash
# Runs every template (Python, JavaScript, C++) through `graticule bench` on the quick
# datasets and checks that each is timed, its digest agreeing with graticule's. A template
# whose toolchain is missing (node, g++) is skipped with a note. Run from the repository root.
set -euo pipefail
bin=${1:-.build/release/graticule}
args=()
command -v python3 >/dev/null && args+=(--external Benchmarks/Templates/python/manifest.json)
command -v node >/dev/null && args+=(--external Benchmarks/Templates/javascript/manifest.json) || echo "node missing: JavaScript template skipped"
command -v g++ >/dev/null && args+=(--external Benchmarks/Templates/cpp/manifest.json) || echo "g++ missing: C++ template skipped"
mkdir -p reports
"$bin" bench --quick --quiet --max-time 0.3 --filter 'geojson.parse|graticule,geojson.parse|template,pbf.varint.decode|graticule,pbf.varint.decode|template' \
  "${args[@]}" --output reports/ci-templates.csv
python3 - <<'PY'
import csv
rows = [r for r in csv.DictReader(open("reports/ci-templates.csv")) if r["metric"] == "time_ns"]
templates = [r for r in rows if r["implementation"].startswith("template.")]
assert templates, "no template ran"
bad = [(r["implementation"], r["dataset"], r["status"], r["detail"]) for r in templates if r["status"] != "ok" or not r["speedup"]]
assert not bad, bad
print("templates timed with checked results:", sorted({r["implementation"] for r in templates}))
PY
