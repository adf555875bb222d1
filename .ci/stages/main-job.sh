# The README's main job (.ci/setup && swift run -c release graticule bench): every case ok,
# the summary table well formed.
source "$(dirname "$0")/../lib.sh"
.ci/setup && swift run -c release graticule bench > reports/ci-main-job.txt 2> reports/ci-main-job.err \
  || { tail -30 reports/ci-main-job.txt reports/ci-main-job.err; fail "the main job"; }
grep -E '^[0-9]+ cases: ' reports/ci-main-job.txt
python3 .ci/check_summary.py reports/ci-main-job.txt || { cat reports/ci-main-job.txt; fail "summary table"; }
