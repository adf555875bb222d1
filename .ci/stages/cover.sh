# cover geometry, camera and follow: tile counts, world copies, MapLibre's camera limits
# (clamped and clipped; only a camera no limit gives a meaning exits 2), tile size and
# scale, and the location display's modes (navigation, recenter with speed, compass from a
# headings file and from GPX courses, auto-pan off after a user pan, the height factor in
# compass mode, orientation changes), the google zoom convention, and a tile layer's loading.
source "$(dirname "$0")/../lib.sh"
if have_shared corpora/geojson/canada.json; then
  "$BIN" cover geometry "$SHARED/corpora/geojson/canada.json" --zoom 12 --output reports/ci-cover.txt
  [ "$(wc -l < reports/ci-cover.txt)" -eq 556327 ] || fail "canada z12 must cover 556327 tiles"
fi
"$BIN" cover camera --center 13.4,52.5 --zoom 8 --pitch 60 --bearing 30 --viewport 1920x1080 --output reports/ci-camera.txt
[ "$(wc -l < reports/ci-camera.txt)" -gt 20 ] || fail "camera cover too small"
"$BIN" cover camera --center 179.9,0.3 --zoom 4.2 --viewport 1200x800 | grep -q 'wrap 1' || fail "no world copy east of 180"
"$BIN" cover camera --center 0,0 --zoom 3 --pitch 86 --output reports/ci-camera-clip.txt \
  | grep -q 'tilt 60° (asked 86°, clipped' || fail "pitch 86 must be clipped to 60"
"$BIN" cover camera --center -123.1,49.2 --zoom 25 --pitch 70 --max-tilt-profile 0:30,10:45,16:67.5 --output reports/ci-camera-clip.txt \
  | grep -q 'zoom 22 (asked 25, clamped.*tilt 67.5°' || fail "zoom 25 must clamp to 22 and tilt to 67.5"
for bad in "--zoom nan" "--zoom 3 --viewport -10x20" "--zoom 3 --max-tilt-profile 5:30,4:20"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$BIN" cover camera --center 0,0 $bad
done
# A raster layer on a 2x screen: the same 256 grid, 512-px images.
"$BIN" cover camera --center 13.4,52.5 --zoom 8 --tile-size 256 --output reports/ci-camera-256.txt > /dev/null
"$BIN" cover camera --center 13.4,52.5 --zoom 8 --tile-size 256 --tile-scale 2 --output reports/ci-camera-256x2.txt \
  | grep -q '512x512-px images (256-pt tiles at scale 2)' || fail "tile scale 2 must state 512-px images"
cmp -s reports/ci-camera-256.txt reports/ci-camera-256x2.txt || fail "tile scale must not change the tiles"
have_shared corpora/gpx || exit 0
route=$SHARED/corpora/gpx/gpxpy/korita-zbevnica.gpx
"$BIN" cover follow "$route" --zoom 15 --viewport 390x844 --mode navigation --output reports/ci-follow.csv
[ "$(wc -l < reports/ci-follow.csv)" -eq 359 ] || fail "follow must write 358 updates and a header"
"$BIN" cover follow "$SHARED/corpora/gpx/openlayers/fells_loop.gpx" --zoom 16 --mode recenter --speed 12 --rate 1 \
  --output reports/ci-follow-speed.csv > /dev/null
python3 .ci/make_inputs.py headings 358 reports/ci-headings.txt
"$BIN" cover follow "$route" --zoom 15 --mode compass --headings reports/ci-headings.txt \
  --pan-at 200 --output reports/ci-follow-compass.csv | grep -q 'auto-pan off from update 200'
python3 .ci/make_inputs.py gpx-courses "$route" reports/ci-course.gpx
"$BIN" cover follow reports/ci-course.gpx --zoom 15 --mode compass --pan-at 200 --output reports/ci-follow-course.csv > /dev/null
cmp -s reports/ci-follow-compass.csv reports/ci-follow-course.csv || fail "GPX courses must equal the headings file"
python3 .ci/report_checks.py compass reports/ci-follow-compass.csv 200
# Compass mode honours --height-factor; an orientation change resizes the view from its update.
"$BIN" cover follow "$route" --zoom 15 --mode compass --headings reports/ci-headings.txt --height-factor 0.125 \
  --output reports/ci-follow-compass-low.csv > /dev/null
"$BIN" cover follow "$route" --zoom 15 --mode compass --headings reports/ci-headings.txt --output reports/ci-follow-compass-centred.csv > /dev/null
! cmp -s reports/ci-follow-compass-low.csv reports/ci-follow-compass-centred.csv || fail "--height-factor must move the compass camera"
"$BIN" cover follow "$route" --zoom 15 --viewport-at 100:844x390 --output reports/ci-follow-rotated.csv > /dev/null
[ "$(awk -F, 'NR > 1 && $1 >= 100 && $13 != "844x390"' reports/ci-follow-rotated.csv | wc -l)" -eq 0 ] \
  && [ "$(awk -F, 'NR > 1 && $1 < 100 && $13 != "390x844"' reports/ci-follow-rotated.csv | wc -l)" -eq 0 ] || fail "--viewport-at 100 must change the view from update 100"
# The SDKs' zoom: google zoom 3 with 256-point tiles loads z3 tiles, MapLibre zoom 2.
"$BIN" cover camera --center 13.4,52.5 --zoom 3 --zoom-convention google --tile-size 256 --output reports/ci-camera-google.txt \
  | grep -q '^camera: google zoom 3 = maplibre zoom 2' || fail "the camera line must state the google convention"
[ "$(cut -d/ -f1 reports/ci-camera-google.txt | sort -u)" = 3 ] || fail "google zoom 3 with 256-pt tiles must load z3 tiles"
# A tile layer over an archive: every request answered, the cache within its bound.
"$BIN" corpus generate tiles --count 1400 --format pmtiles --output reports/ci-layer.pmtiles > /dev/null
"$BIN" tiles load reports/ci-layer.pmtiles --route "$route" --zoom 4 --zoom-convention google --tile-size 256 --cache-tiles 8 \
  --clear-cache-at 150 --output reports/ci-tiles-load.csv | tee reports/ci-tiles-load.txt
python3 .ci/report_checks.py tiles-load reports/ci-tiles-load.csv 8 150
