# Hostile input, huge requests, failing outputs (Tests/Adversarial/run.sh).
source "$(dirname "$0")/../lib.sh"
Tests/Adversarial/run.sh "$BIN" > reports/ci-adversarial.log 2>&1 || { cat reports/ci-adversarial.log; fail "adversarial cases"; }
tail -1 reports/ci-adversarial.log
