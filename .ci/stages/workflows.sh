# .github/workflows linted (actionlint, or schema + shellcheck where it cannot be installed).
source "$(dirname "$0")/../lib.sh"
python3 .ci/lint-workflows.py
