#!/bin/sh
# Builds a protozero adapter on first use (needs g++ and libprotozero-dev:
#   apt-get install -y g++ libprotozero-dev) into .build/adapters, then runs it.
# Usage: run.sh PROGRAM [ARGS...], PROGRAM being mvt_decode or varint_decode.
set -e
here=$(dirname "$0")
prog=$1; shift
case "$prog" in mvt_decode|varint_decode) ;; *) echo "error unknown adapter program $prog"; exit 2;; esac
out=.build/adapters/protozero-$prog
if [ ! -x "$out" ] || [ "$here/$prog.cpp" -nt "$out" ] || [ "$here/protocol.hpp" -nt "$out" ]; then
  if [ ! -f /usr/include/protozero/pbf_reader.hpp ]; then
    echo "error protozero is not installed (apt-get install -y libprotozero-dev)"
    exit 2
  fi
  mkdir -p .build/adapters
  g++ -O2 -std=c++14 -o "$out" "$here/$prog.cpp" 1>&2
fi
exec "$out" "$@"
