# The one release build every later stage runs (.build/release/graticule).
source "$(dirname "$0")/../lib.sh"
.ci/setup
swift build -c release
"$BIN" --version
