#!/usr/bin/env python3
"""External implementation of `geojson.parse` (mode whole) for graticule's runner.

Speaks the external protocol (see `ExternalProgram` in Sources/BenchKit/External.swift and
the README): load the dataset, print `ready`, answer `digest` with the parsed document's
digest (result_digest.py), then answer each `run N` with `ns T`, the nanoseconds N parses
took, until `quit`.

Usage: json_parse.py LIBRARY --dataset PATH, LIBRARY being `json` (standard library) or
`orjson` (pip install orjson).
"""
import sys

from adapter_protocol import serve
from result_digest import geojson_digest, geojson_located


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 3 or args[1] != "--dataset":
        print("error usage: json_parse.py json|orjson --dataset PATH", flush=True)
        return 2
    library, path = args[0], args[2]
    if library == "json":
        import json
        loads = json.loads
    elif library == "orjson":
        try:
            import orjson
        except ImportError:
            print("error orjson is not installed (pip install orjson)", flush=True)
            return 2
        loads = orjson.loads
    else:
        print(f"error unknown library {library}", flush=True)
        return 2
    with open(path, "rb") as f:
        data = f.read()
    loads(data)  # fail at setup, not while timing, if the data does not parse
    return serve(lambda: loads(data), digest=lambda: geojson_digest(loads(data)),
                 elements=lambda: geojson_located(loads(data)))


if __name__ == "__main__":
    sys.exit(main())
