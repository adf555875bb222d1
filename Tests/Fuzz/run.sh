#!/usr/bin/env bash
# Coverage-guided fuzzing of the VectorTile decoder and validator with libFuzzer.
# Usage: Tests/Fuzz/run.sh [SECONDS] [CORPUS_DIR...]
# Seeds: corpora/regressions/mvt (inputs that once failed, kept forever) and, when present,
# ../shared/corpora/mvt-fixtures. New crashes are written to corpora/regressions/mvt.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
out=.build/fuzz
mkdir -p "$out" "$out/corpus" corpora/regressions/mvt
flags=(-sanitize=fuzzer,address -parse-as-library -O -g)
swiftc "${flags[@]}" -emit-library -static -emit-module -module-name PBF \
  -emit-module-path "$out/PBF.swiftmodule" Sources/PBF/*.swift -o "$out/libPBF.a"
swiftc "${flags[@]}" -emit-library -static -emit-module -module-name GeoModel \
  -emit-module-path "$out/GeoModel.swiftmodule" Sources/GeoModel/*.swift -o "$out/libGeoModel.a"
# CVarintBlock is inline C in its header (module map beside it), compiled into the modules
# that import it.
cmods=(-I Sources/CVarintBlock/include)
# -enable-testing: the target also compares internal paths of the decoder (`@testable`).
swiftc "${flags[@]}" -I "$out" "${cmods[@]}" -enable-testing -emit-library -static -emit-module -module-name VectorTile \
  -emit-module-path "$out/VectorTile.swiftmodule" Sources/VectorTile/*.swift -o "$out/libVectorTile.a"
# LineOutcomes.swift: the tests' comparison of the line-pair check with decoding, shared.
swiftc "${flags[@]}" -I "$out" "${cmods[@]}" Tests/Fuzz/FuzzMVT.swift Tests/VectorTileTests/LineOutcomes.swift \
  "$out/libVectorTile.a" "$out/libGeoModel.a" "$out/libPBF.a" -o "$out/fuzz-mvt"
seeds=(corpora/regressions/mvt)
if [ -d ../shared/corpora/mvt-fixtures ] && [ -z "$(ls -A "$out/corpus")" ]; then
  find ../shared/corpora/mvt-fixtures -name '*.mvt' -size -64k -exec cp {} "$out/corpus/" \; 2>/dev/null || true
  for f in "$out"/corpus/*.mvt; do mv "$f" "$out/corpus/$(sha1sum "$f" | cut -c1-16)"; done
fi
"$out/fuzz-mvt" -max_total_time="$secs" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix=corpora/regressions/mvt/ "$out/corpus" "${seeds[@]}" "$@"
