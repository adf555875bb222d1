# corpus generate / diff: counts, touched tiles, apply(old, diff(old, new)) == new, a strict
# apply that cannot succeed exits 2 writing nothing, --lenient skips, features without ids
# refused unless --match says how to pair them.
source "$(dirname "$0")/../lib.sh"
"$BIN" corpus generate points --count 20000 --output reports/ci-old.json
"$BIN" corpus generate points --count 20000 --edits 500 --output reports/ci-new.json
"$BIN" diff reports/ci-old.json reports/ci-new.json --zoom 0-14 --out reports/ci-diff.json | tee reports/ci-diff.txt
grep -q '^added 50, removed 50, updated 500' reports/ci-diff.txt || fail "diff counts differ"
"$BIN" diff touched reports/ci-old.json reports/ci-new.json --zoom 0-14 --output reports/ci-touched.txt
touched=$(sed -nE 's/^touched tiles over z0-14: ([0-9]+)$/\1/p' reports/ci-diff.txt)
[ "$(wc -l < reports/ci-touched.txt)" -eq "$touched" ] || fail "diff touched must list the $touched tiles diff counts"
"$BIN" diff apply reports/ci-old.json reports/ci-diff.json --output reports/ci-applied.geojson | tee reports/ci-apply.txt
"$BIN" diff reports/ci-new.json reports/ci-applied.geojson --out reports/ci-roundtrip.json | grep -q '^added 0, removed 0, updated 0' \
  || fail "apply(old, diff(old, new)) must equal new"
rm -f reports/ci-applied-twice.geojson
code=0; "$BIN" diff apply reports/ci-new.json reports/ci-diff.json --output reports/ci-applied-twice.geojson > /dev/null 2> reports/ci-apply-strict.err || code=$?
[ "$code" -eq 2 ] && [ ! -e reports/ci-applied-twice.geojson ] && grep -qE '(remove|update|add) of id' reports/ci-apply-strict.err \
  || fail "a strict apply that cannot succeed must exit 2 naming the operation and write nothing (exit $code)"
"$BIN" diff apply reports/ci-new.json reports/ci-diff.json --lenient --output reports/ci-applied-twice.geojson > reports/ci-apply-lenient.txt
grep -q 'skipped' reports/ci-apply-lenient.txt
for side in old new; do python3 .ci/make_inputs.py strip-ids "reports/ci-$side.json" "reports/ci-$side-noid.json"; done
rm -f reports/ci-diff-noid.json
code=0; "$BIN" diff reports/ci-old-noid.json reports/ci-new-noid.json --out reports/ci-diff-noid.json > /dev/null 2> reports/ci-diff-noid.err || code=$?
[ "$code" -eq 2 ] && [ ! -e reports/ci-diff-noid.json ] && grep -q '40000 features have no id' reports/ci-diff-noid.err \
  || { cat reports/ci-diff-noid.err; fail "features without ids must be refused (exit 2, nothing written), got $code"; }
"$BIN" diff reports/ci-old-noid.json reports/ci-new-noid.json --match index --out reports/ci-diff-noid.json | tee reports/ci-diff-noid.txt
grep -q '^matched by id, and features without an id by their position' reports/ci-diff-noid.txt
"$BIN" diff reports/ci-old-noid.json reports/ci-new-noid.json --match geometry+properties --out reports/ci-diff-noid.json \
  | grep -q '^matched by id, and features without an id by their geometry and properties'
# A diff of id-less features applies with the --match it was made with, and round-trips.
for m in index geometry+properties; do
  "$BIN" diff reports/ci-old-noid.json reports/ci-new-noid.json --match "$m" --out reports/ci-diff-noid.json > /dev/null
  expect_exit 2 "$BIN" diff apply reports/ci-old-noid.json reports/ci-diff-noid.json --output reports/ci-applied-noid.geojson
  "$BIN" diff apply reports/ci-old-noid.json reports/ci-diff-noid.json --match "$m" --output reports/ci-applied-noid.geojson > /dev/null
  "$BIN" diff reports/ci-new-noid.json reports/ci-applied-noid.geojson --match "$m" --out reports/ci-roundtrip-noid.json \
    | grep -q '^added 0, removed 0, updated 0' || fail "apply --match $m (old, diff --match $m (old, new)) must equal new"
done
# --lenient keeps features without an id in place and lists every skipped change.
"$BIN" diff apply reports/ci-old-noid.json reports/ci-diff.json --lenient --output reports/ci-applied-mixed.geojson > reports/ci-apply-mixed.txt
grep -q '^features without an id kept in place: 20000' reports/ci-apply-mixed.txt || fail "lenient apply must keep the id-less features"
[ "$(grep -c '^  skipped in the diff: ' reports/ci-apply-mixed.txt)" -eq "$(sed -nE 's/.*; skipped ([0-9]+) \(lenient\).*/\1/p' reports/ci-apply-mixed.txt)" ] \
  || fail "every skipped change must be listed"
expect_exit 2 "$BIN" diff reports/ci-old.json /nonexistent.json
