#!/usr/bin/env bash
# Coverage-guided fuzzing of the GeoJSON reader, validator, sequence reader and writer with
# libFuzzer (differential: chunked reads must equal whole reads; write(read(x)) must read
# back equal). Usage: Tests/Fuzz/run-geojson.sh [SECONDS] [CORPUS_DIR...]
# Seeds: corpora/regressions/geojson and, when present, the small GeoJSON fixtures of
# ../shared/corpora. New failures are written to corpora/regressions/geojson.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
. Tests/Fuzz/lib.sh
mkdir -p "$out/corpus-geojson" corpora/regressions/geojson
build_module GeoModel
build_module JSON
# -enable-testing: the target compares the feature fast path with the validating path (`@testable`).
build_module GeoJSON -enable-testing
swiftc "${flags[@]}" Tests/Fuzz/FuzzGeoJSON.swift "$out/libGeoJSON.a" "$out/libJSON.a" "$out/libGeoModel.a" -o "$out/fuzz-geojson"
if [ -z "$(ls -A "$out/corpus-geojson")" ]; then
  for d in geojsonhint geojson-schema geojson-invalid-geometry json-test-suite/test_parsing; do
    [ -d "../shared/corpora/$d" ] || continue
    find "../shared/corpora/$d" \( -name '*.json' -o -name '*.geojson' \) -size -16k | while read -r f; do
      cp "$f" "$out/corpus-geojson/$(sha1sum "$f" | cut -c1-16)"
    done
  done
fi
"$out/fuzz-geojson" -max_total_time="$secs" -max_len=16384 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix=corpora/regressions/geojson/ "$out/corpus-geojson" corpora/regressions/geojson "$@"
