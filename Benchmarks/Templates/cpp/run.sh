#!/bin/sh
# Builds the template with g++ -O2 on first use (into $TMPDIR), then runs it with the
# runner's arguments.
set -e
here=$(dirname "$0")
bin="${TMPDIR:-/tmp}/graticule-template-varint-decode"
if [ ! -x "$bin" ] || [ "$here/varint_decode.cpp" -nt "$bin" ]; then
  g++ -O2 -std=c++17 -o "$bin" "$here/varint_decode.cpp" 1>&2
fi
exec "$bin" "$@"
