# The adapter templates (Python, JavaScript, C++): timed, with checked results.
source "$(dirname "$0")/../lib.sh"
Benchmarks/Templates/check.sh "$BIN"
