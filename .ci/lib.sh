# Sourced by every stage of .ci/run: where things are, and the few helpers stages share.
# A stage exits 0 when it passed, 3 when it could not run (after `skip REASON`), anything
# else when it failed; `note TEXT` adds a remark to its line of the stage table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=.build/release/graticule
SHARED=../shared

# The remark file of the running stage (the driver reads it for the table).
note() { echo "$*" >> "$CI_NOTES"; }
# Stops the stage as "skipped" with a reason: for a stage that cannot run here at all.
skip() { note "$*"; exit 3; }
# Stops the stage as failed, saying why.
fail() { echo "FAILED: $*" >&2; exit 1; }
# `expect_exit CODE COMMAND...`: runs COMMAND, fails the stage unless it exits CODE.
expect_exit() {
  local want=$1; shift
  local code=0
  "$@" || code=$?
  [ "$code" -eq "$want" ] || fail "expected exit $want from: $* (got $code)"
}
# True when ../shared holds PATH; otherwise notes that the part needing it did not run.
have_shared() {
  if [ -e "$SHARED/$1" ]; then return 0; fi
  note "no $SHARED/$1: part not run"
  return 1
}
mkdir -p reports
