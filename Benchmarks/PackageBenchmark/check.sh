#!/usr/bin/env bash
# Builds the package-benchmark bridge (Benchmarks/PackageBenchmark) and runs one Graticule
# case with `swift package benchmark`; fails unless the case's wall-clock row is printed.
# Run from the repository root.
set -euo pipefail
root=$(pwd)
mkdir -p "$root/reports"
cd Benchmarks/PackageBenchmark
swift package --allow-writing-to-package-directory benchmark --filter 'pbf.varint.decode.graticule.*' --no-progress \
  > "$root/reports/ci-package-benchmark.txt" 2>&1 || { tail -40 "$root/reports/ci-package-benchmark.txt"; exit 1; }
grep -q '^pbf.varint.decode|graticule|' "$root/reports/ci-package-benchmark.txt"
grep -q 'Time (wall clock)' "$root/reports/ci-package-benchmark.txt"
grep -A6 '^pbf.varint.decode|graticule|' "$root/reports/ci-package-benchmark.txt"
