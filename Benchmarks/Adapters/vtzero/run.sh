#!/bin/sh
# Builds the vtzero adapter on first use into .build/adapters, then runs it.
# Needs g++ and Debian's libprotozero-dev (apt-get install -y g++ libprotozero-dev) and
# PyPI through pip: vtzero 1.1.0's headers are taken from the PyPI source package `vtzero`
# 0.0.1b5 (a Python wrapper that vendors them), fetched with `pip download`, checked against
# its SHA-256 and unpacked under .build/adapters. Its vendored protozero is 1.7.1, the
# version Debian ships.
# Usage: run.sh mvt_decode [ARGS...]
set -e
here=$(dirname "$0")
prog=$1; shift
case "$prog" in mvt_decode) ;; *) echo "error unknown adapter program $prog"; exit 2;; esac
out=.build/adapters/vtzero-$prog
src=.build/adapters/vtzero-0.0.1b5
sha=043ccf58dc84dd296c19974a5a6d9bfeb989f0432c4ba7522597820d26f7f2c0
if [ ! -x "$out" ] || [ "$here/$prog.cpp" -nt "$out" ] || [ "$here/../protozero/protocol.hpp" -nt "$out" ] || [ "$here/../digest.hpp" -nt "$out" ] || [ "$0" -nt "$out" ]; then
  if [ ! -f /usr/include/protozero/pbf_reader.hpp ]; then
    echo "error protozero is not installed (apt-get install -y libprotozero-dev)"
    exit 2
  fi
  mkdir -p .build/adapters
  if [ ! -f "$src/vendor/vtzero/include/vtzero/vector_tile.hpp" ]; then
    dl=.build/adapters/vtzero-download
    rm -rf "$dl"
    python3 -m pip download --quiet vtzero==0.0.1b5 --no-deps --no-binary vtzero -d "$dl" 1>&2 \
      || { echo "error cannot download vtzero 0.0.1b5 with pip (python3 -m pip download vtzero==0.0.1b5 --no-deps --no-binary vtzero)"; exit 2; }
    python3 - "$dl/vtzero-0.0.1b5.tar.gz" "$sha" .build/adapters <<'PY' 1>&2 || { echo "error the vtzero source package does not check out"; exit 2; }
import hashlib, sys, tarfile
path, sha, dest = sys.argv[1:]
data = open(path, "rb").read()
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit("vtzero source package: SHA-256 mismatch")
safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
with tarfile.open(path) as t:
    t.extractall(dest, members=[m for m in t.getmembers()
                                if m.name.startswith("vtzero-0.0.1b5/vendor/vtzero/") and ".." not in m.name],
                 **safe)
PY
  fi
  # The same flags as the protozero adapters (CMake's Release flags).
  g++ -O3 -DNDEBUG -std=c++14 -I "$src/vendor/vtzero/include" -o "$out" "$here/$prog.cpp" 1>&2
fi
exec "$out" "$@"
