#!/bin/sh
# Builds the RapidJSON writer adapter on first use (needs g++ and rapidjson-dev:
#   apt-get install -y g++ rapidjson-dev) into .build/adapters, then runs it.
# Usage: run.sh --dataset PATH
set -e
here=$(dirname "$0")
out=.build/adapters/rapidjson-geojson_write
if [ ! -x "$out" ] || [ "$here/geojson_write.cpp" -nt "$out" ] || [ "$here/../digest.hpp" -nt "$out" ] || [ "$here/../protozero/protocol.hpp" -nt "$out" ]; then
  if [ ! -f /usr/include/rapidjson/writer.h ]; then
    echo "error RapidJSON is not installed (apt-get install -y rapidjson-dev)"
    exit 2
  fi
  mkdir -p .build/adapters
  g++ -O3 -march=native -std=c++17 -o "$out" "$here/geojson_write.cpp" 1>&2
fi
exec "$out" "$@"
