# Every module's DocC catalog builds with warnings as errors.
source "$(dirname "$0")/../lib.sh"
targets=()
for m in PBF GeoModel JSON GeoJSON VectorTile TileCover GPX SourceDiff SourceDiffJSON TileArchive DatasetProfile BenchKit Conformance \
         Workloads GraticuleTool; do
  targets+=(--target "$m")
done
swift package generate-documentation "${targets[@]}" --warnings-as-errors > reports/ci-docs.log 2>&1 \
  || { tail -40 reports/ci-docs.log; fail "documentation"; }
echo "$(grep -c 'doccarchive' reports/ci-docs.log) documentation archives"
