# A package that adds its own implementations (Benchmarks/Examples): built, benchmarked,
# conformance-run and gated.
source "$(dirname "$0")/../lib.sh"
have_shared corpora/geojson || skip "no $SHARED/corpora/geojson: the example measures on it"
Benchmarks/Examples/check.sh
