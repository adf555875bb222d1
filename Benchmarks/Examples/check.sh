#!/usr/bin/env bash
# Builds the example package in Benchmarks/Examples/CustomImplementations and checks that
# its implementations take part: the Foundation parser is timed in `bench` and judged in
# `conform` beside graticule, and the one-tile-short cover is reported `wrong` with the first
# differing tile; and that the gate gates the example's parser as a candidate. Run from the
# repository root, with ../shared beside it.
set -euo pipefail
root=$(pwd)
shared=${GRATICULE_SHARED:-$root/../shared}
out=$root/reports/ci-example
mkdir -p "$out"
cd Benchmarks/Examples/CustomImplementations
swift build -c release 2>&1 | tail -1
bin=$(swift build -c release --show-bin-path)/my-graticule

# The one-tile-short cover is wrong at z12, so the run exits 1 and lists it last.
code=0
"$bin" bench --data "$shared/corpora" --filter 'geojson.parse|graticule,geojson.parse|example,tilecover.polygon,tilecover.lines' --max-time 0.2 \
  --output "$out/bench.csv" > "$out/bench.txt" 2>&1 || code=$?
[ "$code" -eq 1 ] && grep -q '^  wrong: tilecover.polygon|example.one-tile-short|' "$out/bench.txt" \
  || { cat "$out/bench.txt"; echo "a run with a wrong case must exit 1 and list it (exit $code)"; exit 1; }
# The outside implementation alone (graticule's cases filtered out): still checked against
# graticule's result, computed untimed.
code=0
"$bin" bench --data "$shared/corpora" --filter 'tilecover.polygon|example.one-tile-short' --max-time 0.1 \
  --output "$out/alone.csv" > "$out/alone.txt" 2>&1 || code=$?
[ "$code" -eq 1 ] && grep -q 'wrong: tilecover.polygon|example.one-tile-short|.*first difference' "$out/alone.txt" \
  || { cat "$out/alone.txt"; echo "an outside implementation timed alone must still be checked (exit $code)"; exit 1; }
"$bin" conform --suite geojsonhint --corpora "$shared/corpora" \
  --implementation graticule --implementation all --output "$out/conform.csv" > "$out/conform.txt" 2>&1 \
  || { cat "$out/conform.txt"; exit 1; }
# Found from anywhere: from the example's folder, with neither --corpora nor --rules, conform
# finds Graticule's own suites (package resources) and its whole rule catalogue.
rules=$(awk -F'\t' '!/^#/ && $1 != "id" && NF == 5' "$root/corpora/conformance/rules.tsv" | wc -l)
"$bin" conform --output "$out/conform-all.csv" > "$out/conform-all.txt" 2>&1 || { cat "$out/conform-all.txt"; exit 1; }
for s in pbf-varint geojson-seq tile-math; do
  grep -q "^$s  *graticule " "$out/conform-all.txt" || { cat "$out/conform-all.txt"; echo "conform from the example package lost $s"; exit 1; }
done
grep -q "^rules: $rules in Graticule's catalogue" "$out/conform-all.txt" \
  || { cat "$out/conform-all.txt"; echo "conform from the example package must find all $rules rules"; exit 1; }

# Gate your own implementation (README): the example's parser is a candidate, gated by
# default. Base, base again and head with 10% more work injected into it.
gate=$out/gate
mkdir -p "$gate"
for side in base same; do
  "$bin" bench --quick --quiet --instructions --filter '|example.jsonserialization|' --output "$gate/$side.csv"
done
"$bin" bench --quick --quiet --instructions --filter '|example.jsonserialization|' \
  --inject-slowdown 'example.jsonserialization=0.10' --output "$gate/slow.csv"
counts=instructions,alloc_count,alloc_bytes
code=0; "$bin" compare "$gate/base.csv" "$gate/same.csv" --gate-metrics "$counts" --quiet || code=$?
[ "$code" -eq 0 ] || { echo "the candidate's unchanged counts must pass the gate (exit $code)"; exit 1; }
code=0; "$bin" compare "$gate/base.csv" "$gate/slow.csv" --gate-metrics "$counts" --output "$gate/slow.verdicts.csv" --quiet || code=$?
[ "$code" -eq 1 ] || { echo "the candidate's +10% instructions must fail the gate (exit $code)"; exit 1; }
grep -q '^geojson.parse,example.jsonserialization,.*,instructions,regressed,.*,true,' "$gate/slow.verdicts.csv" \
  || { cat "$gate/slow.verdicts.csv"; echo "the regression must be the candidate's, gated"; exit 1; }
code=0; "$bin" compare "$gate/base.csv" "$gate/slow.csv" --gate-metrics "$counts" --gate nobody --quiet 2> "$gate/nobody.err" || code=$?
[ "$code" -eq 2 ] && grep -q "which neither report holds" "$gate/nobody.err" \
  || { cat "$gate/nobody.err"; echo "--gate naming nobody must exit 2 (exit $code)"; exit 1; }
echo "example gate: unchanged 0, +10% 1 (the candidate's instructions regressed), --gate nobody 2"

python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
rows = [r for r in csv.DictReader(open(out + "/bench.csv")) if r["metric"] == "time_ns"]
parser = [r for r in rows if r["implementation"] == "example.jsonserialization"]
assert parser and all(r["status"] == "ok" for r in parser), [(r["dataset"], r["status"], r["detail"]) for r in parser]
ok = [r for r in rows if r["benchmark"] == "geojson.parse" and r["implementation"] == "graticule"]
assert ok, "graticule's geojson.parse rows are missing"
cover = [r for r in rows if r["implementation"] == "example.one-tile-short"]
z12 = [r for r in cover if r["parameters"] == "zoom=12"]
others = [r for r in cover if r["parameters"] != "zoom=12"]
assert z12 and all(r["status"] == "wrong" and "first difference:" in r["detail"] for r in z12), [(r["status"], r["detail"]) for r in z12]
assert others and all(r["status"] == "ok" for r in others), [(r["parameters"], r["status"], r["detail"]) for r in others]
matrix = list(csv.DictReader(open(out + "/conform.matrix.csv")))
assert any(r["implementation"] == "example.jsonserialization" for r in matrix), matrix
assert any(r["implementation"] == "graticule" for r in matrix), matrix
print("example: parser timed on", len(parser), "datasets; wrong cover:", z12[0]["detail"][:160])
PY
