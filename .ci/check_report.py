#!/usr/bin/env python3
"""Checks that a graticule report CSV (and its samples file) follows schema version 4.

Usage: check_report.py REPORT.csv [--require-metric NAME]... [--require-impl NAME]...
Exits 1 with a message per violation. Timing values are never judged, only their form.
"""
import csv
import re
import math
import sys

COLUMNS = ("schema_version,run_id,timestamp,tool_version,git_commit,git_dirty,toolchain,build_configuration,"
           "cpu_model,cpu_count,os,kernel,load_average,allocator,benchmark,implementation,role,dataset,"
           "dataset_bytes,dataset_items,parameters,metric,status,samples,iterations_per_sample,min,"
           "p25,median,p75,p90,p99,max,mean,stddev,cv,ci95_low,ci95_high,reference,ratio_to_reference,"
           "ratio_to_reference_ci95_low,ratio_to_reference_ci95_high,speedup,speedup_ci95_low,speedup_ci95_high,"
           "detail").split(",")
SAMPLE_COLUMNS = "run_id,benchmark,implementation,dataset,parameters,metric,sample,iterations,value".split(",")
METRICS = {"time_ns", "throughput_mb_per_s", "throughput_items_per_s", "alloc_count", "alloc_bytes",
           "peak_heap_bytes", "peak_resident_bytes", "instructions"}
STATS = ["min", "p25", "median", "p75", "p90", "p99", "max"]


def main(argv):
    path = argv[1]
    required = [argv[i + 1] for i, a in enumerate(argv) if a == "--require-metric"]
    impls = [argv[i + 1] for i, a in enumerate(argv) if a == "--require-impl"]
    errors = []
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != COLUMNS:
        print(f"{path}: header differs from schema 4", file=sys.stderr)
        return 1
    body = [dict(zip(COLUMNS, r)) for r in rows[1:]]
    if not body:
        errors.append("no rows")
    for n, (raw, r) in enumerate(zip(rows[1:], body), start=2):
        where = f"{path}:{n}"
        if len(raw) != len(COLUMNS):
            errors.append(f"{where}: {len(raw)} fields")
            continue
        if r["schema_version"] != "4":
            errors.append(f"{where}: schema_version {r['schema_version']}")
        if not re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", r["tool_version"]):
            errors.append(f"{where}: tool_version {r['tool_version']!r} is not a semantic version")
        if r["metric"] not in METRICS:
            errors.append(f"{where}: unknown metric {r['metric']}")
        if r["status"] not in ("ok", "unsupported", "failed", "wrong", "crash", "timeout", "unchecked"):
            errors.append(f"{where}: bad status {r['status']}")
        if r["git_dirty"] not in ("true", "false"):
            errors.append(f"{where}: git_dirty {r['git_dirty']}")
        for c in ("cpu_count", "dataset_bytes", "dataset_items"):
            if not r[c].isdigit():
                errors.append(f"{where}: {c} is not a count")
        if r["role"] not in ("project", "peer", "candidate"):
            errors.append(f"{where}: bad role {r['role']}")
        if r["status"] in ("ok", "unchecked"):
            try:
                vals = [float(r[c]) for c in STATS]
                for c in ("mean", "stddev", "cv", "ci95_low", "ci95_high"):
                    if not math.isfinite(float(r[c])):
                        raise ValueError(c)
                if int(r["samples"]) < 1 or int(r["iterations_per_sample"]) < 1:
                    raise ValueError("samples")
            except ValueError as e:
                errors.append(f"{where}: non-numeric statistic ({e})")
                continue
            if vals != sorted(vals):
                errors.append(f"{where}: quantiles out of order {vals}")
        else:
            if any(r[c] for c in STATS):
                errors.append(f"{where}: {r['status']} row carries statistics")
            if not r["detail"]:
                errors.append(f"{where}: {r['status']} row without a reason")
        if r["reference"]:
            for name in ("ratio_to_reference", "speedup"):
                if name == "speedup" and r["metric"] != "time_ns":
                    if r["speedup"]:
                        errors.append(f"{where}: speedup on a {r['metric']} row")
                    continue
                try:
                    lo, q, hi = float(r[name + "_ci95_low"]), float(r[name]), float(r[name + "_ci95_high"])
                    if not (lo <= q * (1 + 1e-9) and q <= hi * (1 + 1e-9)):
                        errors.append(f"{where}: {name} outside its interval")
                except ValueError:
                    errors.append(f"{where}: {name} is not numeric")
            if r["metric"] == "time_ns" and r["speedup"] and r["ratio_to_reference"]:
                if abs(float(r["speedup"]) * float(r["ratio_to_reference"]) - 1) > 1e-6:
                    errors.append(f"{where}: speedup is not the inverse of ratio_to_reference")
    for m in required:
        if not any(r["metric"] == m and r["status"] == "ok" for r in body):
            errors.append(f"no measured {m} row")
    for i in impls:
        if not any(r["implementation"] == i and r["metric"] == "time_ns" and r["status"] == "ok" for r in body):
            errors.append(f"implementation {i} was not measured")
    samples_path = path[:-4] + ".samples.csv" if path.endswith(".csv") else path + ".samples.csv"
    with open(samples_path, newline="") as f:
        srows = list(csv.reader(f))
    if not srows or srows[0] != SAMPLE_COLUMNS:
        errors.append(f"{samples_path}: header differs from schema 2")
    else:
        counts = {}
        for s in srows[1:]:
            key = tuple(s[1:6])
            counts[key] = counts.get(key, 0) + 1
            float(s[8])
        for r in body:
            if r["status"] in ("ok", "unchecked"):
                key = (r["benchmark"], r["implementation"], r["dataset"], r["parameters"], r["metric"])
                if counts.get(key, 0) != int(r["samples"]):
                    errors.append(f"{samples_path}: {key} has {counts.get(key, 0)} samples, report says {r['samples']}")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{path}: {len(body)} rows, {'schema OK' if not errors else str(len(errors)) + ' problems'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
