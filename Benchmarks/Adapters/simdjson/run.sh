#!/bin/sh
# Builds the simdjson adapter on first use (needs g++ and libsimdjson-dev:
#   apt-get install -y g++ libsimdjson-dev) into .build/adapters, then runs it.
# Usage: run.sh MODE --dataset PATH, MODE being geometry-only or whole.
# -march=native: simdjson's header picks its SIMD kernel at compile time; without it the
# portable fallback kernel would be measured instead of simdjson's real speed.
set -e
here=$(dirname "$0")
out=.build/adapters/simdjson-geojson_parse
if [ ! -x "$out" ] || [ "$here/geojson_parse.cpp" -nt "$out" ] || [ "$here/../digest.hpp" -nt "$out" ] || [ "$here/../protozero/protocol.hpp" -nt "$out" ]; then
  if [ ! -f /usr/include/simdjson.h ]; then
    echo "error simdjson is not installed (apt-get install -y libsimdjson-dev)"
    exit 2
  fi
  mkdir -p .build/adapters
  g++ -O3 -march=native -std=c++17 -o "$out" "$here/geojson_parse.cpp" -lsimdjson 1>&2
fi
exec "$out" "$@"
