# The README stays a front page: under 15 KB (figures in Benchmarks/RESULTS.md, history in Benchmarks/Experiments/).
source "$(dirname "$0")/../lib.sh"
size=$(wc -c < README.md)
[ "$size" -le 15000 ] || fail "README.md is $size bytes; keep it under 15000 (move detail to the DocC catalogs or Benchmarks/Experiments/)"
echo "README.md: $size bytes"
grep -qxF "${README_TEST_COMMAND:-.ci/setup && swift test}" README.md \
  || fail "README.md no longer shows the test command CI runs: ${README_TEST_COMMAND:-.ci/setup && swift test}"
