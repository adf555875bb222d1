# The README's test command (.ci/setup && swift test), leaving nothing outside the tests'
# own temporary folders: SwiftPM's lock files and empty build folders in TMPDIR are allowed;
# anything else in TMPDIR, anything new in /tmp or in the checkout is a test that wrote
# outside its own folder (or forgot to remove it).
source "$(dirname "$0")/../lib.sh"
ls -A /tmp | sort > "$CI_ROOT/tmp-before"
# Build outputs, ignored by git, are not test leftovers: .build/, Package.resolved, .swiftpm/.
build_outputs='^!! (\.build/|Package\.resolved$|\.swiftpm/)'
git status --porcelain --ignored --untracked-files=all | grep -Ev "$build_outputs" | sort > "$CI_ROOT/git-before" || true
bash -c "${README_TEST_COMMAND:-.ci/setup && swift test}"
ls -A /tmp | sort | comm -13 "$CI_ROOT/tmp-before" - | grep -v '^graticule-ci\.' > "$CI_ROOT/tmp-new" || true
git status --porcelain --ignored --untracked-files=all | grep -Ev "$build_outputs" | sort | comm -13 "$CI_ROOT/git-before" - > "$CI_ROOT/git-new" || true
find "$TMPDIR" -mindepth 1 ! -name '*.lock' ! -name '.keep-directory' ! -path "$TMPDIR/TemporaryDirectory.*" > "$CI_ROOT/tmpdir-left" || true
find "$TMPDIR" -mindepth 1 -path "$TMPDIR/TemporaryDirectory.*/*" ! -name '.keep-directory' >> "$CI_ROOT/tmpdir-left" || true
if [ -s "$CI_ROOT/tmp-new" ] || [ -s "$CI_ROOT/git-new" ] || [ -s "$CI_ROOT/tmpdir-left" ]; then
  echo "tests left files behind:"; cat "$CI_ROOT/tmp-new" "$CI_ROOT/git-new" "$CI_ROOT/tmpdir-left" | head -40; exit 1
fi
