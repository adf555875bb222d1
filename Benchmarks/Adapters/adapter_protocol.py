"""The runner's external protocol, for Python adapters (see `ExternalProgram` in
Sources/BenchKit/External.swift and the README): after setup, print `ready`, answer
`digest` with `digest TEXT` (the result's digest, see result_digest.py), answer each
`run N` with `ns T` (nanoseconds N operations took), stop at `quit`."""
import sys
import time


def serve(op, digest=None, elements=None) -> int:
    """Runs the protocol loop with `op` as the operation; `digest()` gives the text of the
    result's digest (without it, `digest` is answered with an error) and `elements()` its
    located elements (asked only after a digest that differs). Returns the exit status."""
    print("ready", flush=True)
    clock = time.perf_counter_ns
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "quit":
            return 0
        if parts == ["digest"]:
            if digest is None:
                print("error this adapter gives no result digest", flush=True)
                return 2
            print("digest", digest(), flush=True)
            continue
        if parts == ["elements"]:
            if elements is None:
                print("error this adapter does not list its elements", flush=True)
                return 2
            out = sys.stdout
            for e in elements():
                out.write("element " + e + "\n")
            print("end", flush=True)
            continue
        if parts[0] != "run" or len(parts) != 2:
            print(f"error unexpected command {line.strip()!r}", flush=True)
            return 2
        n = int(parts[1])
        t0 = clock()
        for _ in range(n):
            op()
        print("ns", clock() - t0, flush=True)
    return 0
