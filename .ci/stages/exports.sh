# Exports against their schemas: BMF and github-action-benchmark JSON, JUnit read by
# junitparser, verdict CSV; an unwritable --json exits 2 before anything is measured.
source "$(dirname "$0")/../lib.sh"
python3 -c "import jsonschema, junitparser" 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check jsonschema junitparser
junit=()
[ -f reports/ci-conform-all.junit.xml ] && junit=(--junit reports/ci-conform-all.junit.xml --verdicts reports/ci-conform-all.csv) \
  || note "no conform-all reports: JUnit and verdicts not checked"
python3 Benchmarks/Schemas/check.py --bencher reports/ci-smoke.bmf.json --gab reports/ci-smoke.gab.json \
  --gab reports/ci-smoke.gab.bigger-is-better.json "${junit[@]}"
code=0; "$BIN" bench --quick --quiet --filter baseline --json /proc/graticule-no.json 2>/dev/null || code=$?
[ "$code" -eq 2 ] && [ ! -e /proc/graticule-no.json ] || fail "an unwritable --json must exit 2 before measuring, got $code"
