#!/usr/bin/env python3
"""Inputs CI derives from files graticule wrote, to check that graticule refuses or reads
them as it must. One subcommand each; every output is a new file named on the command line.

  make_inputs.py slow-report REPORT OUT          every ok time multiplied by 3 (no samples file)
  make_inputs.py other-run REPORT OUT            the same rows, samples tagged with another run id
  make_inputs.py bad-reports REPORT PREFIX       PREFIX-{nan,zero,negative,inf,huge,duplicate}.csv
  make_inputs.py gpx-courses GPX OUT             each track point given <course> i*7 mod 360
  make_inputs.py headings N OUT                  N lines, heading i*7 mod 360
  make_inputs.py strip-ids GEOJSON OUT           the FeatureCollection without feature ids
"""
import csv
import json
import re
import shutil
import sys

TIME_COLUMNS = ("min", "p25", "median", "p75", "p90", "p99", "max", "mean", "ci95_low", "ci95_high")


def read(path):
    return list(csv.DictReader(open(path, newline="", encoding="utf-8")))


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def slower(row):
    row = dict(row)
    for c in TIME_COLUMNS:
        row[c] = str(float(row[c]) * 3)
    return row


def slow_report(report, out):
    write(out, [slower(r) if r["metric"] == "time_ns" and r["status"] == "ok" else r for r in read(report)])


def other_run(report, out):
    shutil.copy(report, out)
    lines = open(report[:-len(".csv")] + ".samples.csv").read().splitlines()
    samples = out[:-len(".csv")] + ".samples.csv"
    open(samples, "w").write("\n".join([lines[0]] + ["0000000000000000" + l[16:] for l in lines[1:]]) + "\n")


def bad_reports(report, prefix):
    rows = read(report)
    first = next(i for i, r in enumerate(rows) if r["metric"] == "time_ns" and r["status"] == "ok")
    for name, value in [("nan", "nan"), ("zero", "0"), ("negative", "-1"), ("inf", "inf"), ("huge", "1e999")]:
        bad = [dict(r) for r in rows]
        bad[first]["median"] = value
        write(f"{prefix}-{name}.csv", bad)
    write(f"{prefix}-duplicate.csv", [slower(rows[first])] + rows)


def gpx_courses(gpx, out):
    n = iter(range(10**9))
    src = open(gpx, encoding="utf-8").read()
    open(out, "w", encoding="utf-8").write(
        re.sub(r"(<trkpt\b[^>]*>)", lambda m: m.group(1) + "<course>%d</course>" % ((next(n) * 7) % 360), src))


def headings(n, out):
    open(out, "w").write("\n".join(str((i * 7) % 360) for i in range(int(n))) + "\n")


def strip_ids(geojson, out):
    d = json.load(open(geojson, encoding="utf-8"))
    for f in d["features"]:
        f.pop("id", None)
    json.dump(d, open(out, "w", encoding="utf-8"))


MAKERS = {"slow-report": slow_report, "other-run": other_run, "bad-reports": bad_reports,
          "gpx-courses": gpx_courses, "headings": headings, "strip-ids": strip_ids}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in MAKERS:
        sys.exit(__doc__)
    MAKERS[sys.argv[1]](sys.argv[2], sys.argv[3])
