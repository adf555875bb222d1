#!/bin/sh
# Builds the protozero adapter on first use (needs g++ and libprotozero-dev:
#   apt-get install -y g++ libprotozero-dev) into .build/adapters, then runs it.
set -e
here=$(dirname "$0")
out=.build/adapters/protozero-mvt-decode
if [ ! -x "$out" ] || [ "$here/mvt_decode.cpp" -nt "$out" ]; then
  if [ ! -f /usr/include/protozero/pbf_reader.hpp ]; then
    echo "error protozero is not installed (apt-get install -y libprotozero-dev)"
    exit 2
  fi
  mkdir -p .build/adapters
  g++ -O2 -std=c++14 -o "$out" "$here/mvt_decode.cpp" 1>&2
fi
exec "$out" "$@"
