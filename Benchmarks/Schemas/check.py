#!/usr/bin/env python3
"""Validates graticule's exports: JSON files against the schemas beside this script
(`--bencher FILE`, `--gab FILE`, `--profile FILE`, `--geojson-stats FILE`, `--mvt-inspect FILE` for the `--json` of
`graticule profile`, `geojson stats` and `mvt inspect`), and JUnit XML with junitparser against the verdict CSV it
was written from (`--junit FILE --verdicts CSV`: the same number of cases and failures).
Needs `pip install jsonschema junitparser`."""
import argparse, csv, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser()
p.add_argument("--bencher", action="append", default=[])
p.add_argument("--gab", action="append", default=[])
p.add_argument("--profile", action="append", default=[])
p.add_argument("--geojson-stats", action="append", default=[])
p.add_argument("--mvt-inspect", action="append", default=[])
p.add_argument("--junit")
p.add_argument("--verdicts")
a = p.parse_args()

import jsonschema
for files, schema in ((a.bencher, "bencher-metric-format.schema.json"), (a.gab, "github-action-benchmark.schema.json"),
                      (a.profile, "profile.schema.json"), (a.geojson_stats, "geojson-stats.schema.json"),
                      (a.mvt_inspect, "mvt-inspect.schema.json")):
    s = json.load(open(os.path.join(here, schema)))
    for f in files:
        doc = json.load(open(f))
        jsonschema.validate(doc, s)
        n = len(doc)
        if n == 0:
            sys.exit(f"{f}: no entries")
        print(f"{f}: valid against {schema} ({n} entries)")

if a.junit:
    from junitparser import JUnitXml
    xml = JUnitXml.fromfile(a.junit)
    cases = failures = 0
    for suite in xml:
        for case in suite:
            cases += 1
            if not case.is_passed:
                failures += 1
    rows = list(csv.DictReader(open(a.verdicts)))
    want_fail = sum(1 for r in rows if r["verdict"] == "fail")
    if (cases, failures) != (len(rows), want_fail):
        sys.exit(f"{a.junit}: {cases} cases, {failures} failures; the verdict CSV has {len(rows)} and {want_fail}")
    print(f"{a.junit}: junitparser reads {cases} cases, {failures} failures, as {a.verdicts}")
