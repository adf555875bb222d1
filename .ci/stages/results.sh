# Benchmarks/RESULTS.md is generated from the committed report CSVs (reports/results/): the
# script's output must be the committed file, and the file must stay a record (under 20 KB).
# The CI scripts' own checks run here too.
source "$(dirname "$0")/../lib.sh"
python3 .ci/report_checks.py --self-test
python3 Benchmarks/results.py --check
