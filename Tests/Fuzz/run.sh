#!/usr/bin/env bash
# Coverage-guided fuzzing of the VectorTile decoder and validator, and of PBF's raw varint
# kernels against their scalar reference, with libFuzzer.
# Usage: Tests/Fuzz/run.sh [SECONDS] [CORPUS_DIR...]
# Seeds: corpora/regressions/mvt (inputs that once failed, kept forever) and, when present,
# ../shared/corpora/mvt-fixtures. New crashes are written to corpora/regressions/mvt.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
. Tests/Fuzz/lib.sh
mkdir -p "$out/corpus" corpora/regressions/mvt
build_module PBF
build_module GeoModel
# -enable-testing: the target also compares internal paths of the decoder (`@testable`).
build_module VectorTile -enable-testing
# LineOutcomes.swift: the tests' comparison of the line-pair check with decoding;
# VarintReference.swift: the scalar varint reference of PBF's kernel tests.
swiftc "${flags[@]}" Tests/Fuzz/FuzzMVT.swift Tests/Fuzz/FuzzPBFKernels.swift Tests/VectorTileTests/LineOutcomes.swift \
  Tests/PBFTests/VarintReference.swift "$out/libVectorTile.a" "$out/libGeoModel.a" "$out/libPBF.a" -o "$out/fuzz-mvt"
seeds=(corpora/regressions/mvt)
if [ -d ../shared/corpora/mvt-fixtures ] && [ -z "$(ls -A "$out/corpus")" ]; then
  find ../shared/corpora/mvt-fixtures -name '*.mvt' -size -64k -exec cp {} "$out/corpus/" \; 2>/dev/null || true
  for f in "$out"/corpus/*.mvt; do mv "$f" "$out/corpus/$(sha1sum "$f" | cut -c1-16)"; done
fi
"$out/fuzz-mvt" -max_total_time="$secs" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix=corpora/regressions/mvt/ "$out/corpus" "${seeds[@]}" "$@"
