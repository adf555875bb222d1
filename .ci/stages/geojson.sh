# geojson validate / stats on real files; an invalid file exits 1.
source "$(dirname "$0")/../lib.sh"
have_shared corpora/geojson || skip "no $SHARED/corpora/geojson"
"$BIN" geojson validate "$SHARED/corpora/geojson/canada.json" --output reports/ci-validate.csv
"$BIN" geojson stats "$SHARED/corpora/geojson/ne_10m_populated_places.json" --output reports/ci-stats.csv
grep -q '^features,7343$' reports/ci-stats.csv
expect_exit 1 "$BIN" geojson validate "$SHARED/corpora/geojsonhint/bad/unknowntype.geojson"
