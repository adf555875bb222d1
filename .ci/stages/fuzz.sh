# Fuzz smoke (libFuzzer): 20 s on the tile decoder and validator, 20 s on the GeoJSON reader
# (differential against chunked reads).
source "$(dirname "$0")/../lib.sh"
Tests/Fuzz/run.sh 20 > reports/ci-fuzz.log 2>&1 || { cat reports/ci-fuzz.log; fail "tile fuzzer"; }
grep -E '^Done [0-9]+ runs' reports/ci-fuzz.log
Tests/Fuzz/run-geojson.sh 20 > reports/ci-fuzz-geojson.log 2>&1 || { tail -80 reports/ci-fuzz-geojson.log; fail "GeoJSON fuzzer"; }
grep -E '^Done [0-9]+ runs' reports/ci-fuzz-geojson.log
