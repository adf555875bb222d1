#!/usr/bin/env bash
# Measures how well `graticule compare` gates on this machine:
#   - false alarms: A/A comparisons of the quick suite (the same build run twice);
#   - power: the quick suite against runs with a known slowdown injected into one case.
#
# Usage: Benchmarks/GateQuality/gate-quality.sh [BINARY] [OUTDIR] [PAIRS]
#   BINARY  release build of graticule (default .build/release/graticule)
#   OUTDIR  where runs and the summary go (default reports/gate-quality)
#   PAIRS   comparisons per experiment (default 20)
# Target case for injections: GATE_TARGET (default pbf.varint.decode|graticule).
# GATE_FILTER restricts every run to the cases bench --filter selects: with the example
# package's binary and GATE_FILTER='|example.' it measures the gate on an outside
# implementation (a candidate, gated by default).
# Writes OUTDIR/summary.csv (experiment,comparisons,alarms_time,alarms_instructions,
# target_time_detected,target_instructions_detected) and prints it.
set -euo pipefail
BIN=${1:-.build/release/graticule}
OUT=${2:-reports/gate-quality}
PAIRS=${3:-20}
TARGET=${GATE_TARGET:-pbf.varint.decode|graticule}
mkdir -p "$OUT"

run() { # name, extra args...
  local name=$1; shift
  "$BIN" bench --quick --quiet --instructions --allow-failures --output "$OUT/$name.csv" "$@"
}

# Did a comparison flag any gated regression on METRIC (suite level) / on the target case?
# (ALL_CASES=1 counts every case, gated or not.) Verdict columns: 5 metric, 6 verdict, 12 gated.
alarm() { # verdicts.csv metric
  awk -F, -v m="$2" -v all="${ALL_CASES:-0}" \
    'NR > 1 && $5 == m && $6 == "regressed" && (all == 1 || $12 == "true") { found = 1 } END { print found ? 1 : 0 }' "$1"
}
detected() { # verdicts.csv metric
  local bench=${TARGET%%|*} impl=${TARGET#*|}
  awk -F, -v m="$2" -v b="$bench" -v i="$impl" \
    'NR > 1 && $1 == b && $2 == i && $5 == m && $6 == "regressed" { found = 1 } END { print found ? 1 : 0 }' "$1"
}

echo "experiment,comparisons,alarms_time,alarms_instructions,target_time_detected,target_instructions_detected" > "$OUT/summary.csv"

# RECOMPARE=1 reuses the runs already in OUTDIR and only repeats the comparisons.
recompare=${RECOMPARE:-0}

# A/A: PAIRS + 1 runs, each compared with the next.
for i in $(seq 0 "$PAIRS"); do
  [ "$recompare" = 1 ] && break
  echo "[gate-quality] A run $i/$PAIRS" >&2
  run "a$i" ${GATE_FILTER:+--filter "$GATE_FILTER"}
done
at=0; ai=0
for i in $(seq 1 "$PAIRS"); do
  "$BIN" compare "$OUT/a$((i-1)).csv" "$OUT/a$i.csv" --quiet --output "$OUT/aa$i.verdicts.csv" || true
  at=$((at + $(alarm "$OUT/aa$i.verdicts.csv" time_ns)))
  ai=$((ai + $(alarm "$OUT/aa$i.verdicts.csv" instructions)))
done
echo "A/A,$PAIRS,$at,$ai,," >> "$OUT/summary.csv"

# Injected slowdowns on the target case, each run compared with an A run.
for level in 0.03 0.10 0.50; do
  dt=0; di=0; at=0; ai=0
  for i in $(seq 1 "$PAIRS"); do
    echo "[gate-quality] +$level run $i/$PAIRS" >&2
    # Only the target benchmark is re-run: detection is judged on the target case.
    [ "$recompare" = 1 ] || run "s${level}_$i" --inject-slowdown "$TARGET=$level" --filter "${TARGET%%|*}"
    v="$OUT/s${level}_$i.verdicts.csv"
    "$BIN" compare "$OUT/a$i.csv" "$OUT/s${level}_$i.csv" --quiet --output "$v" || true
    dt=$((dt + $(detected "$v" time_ns)))
    di=$((di + $(detected "$v" instructions)))
  done
  echo "slowdown+$level,$PAIRS,,,$dt,$di" >> "$OUT/summary.csv"
done
cat "$OUT/summary.csv"
