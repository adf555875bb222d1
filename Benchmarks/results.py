#!/usr/bin/env python3
"""Benchmarks/RESULTS.md from the committed reports of the runs in Benchmarks/results.tsv.

  Benchmarks/results.py run NAME [--bin PATH]   run one (pinned to core 0), writing reports/results/NAME.csv
  Benchmarks/results.py                         write Benchmarks/RESULTS.md and the README's results table
  Benchmarks/results.py --check                 exit 1 unless both are what the reports give (RESULTS.md under 20 KB)

A row is a graticule case with at least one peer measured in the same run: Graticule's median,
each peer's median and Graticule's speedup over it (peer time / Graticule time, with its 95%
bootstrap interval, as `graticule bench` computes it). A case whose peer failed or whose
result differed is shown with its status, never with a speedup.
"""
import csv
import os
import random
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "Benchmarks", "results.tsv")
REPORTS = os.path.join(ROOT, "reports", "results")
OUTPUT = os.path.join(ROOT, "Benchmarks", "RESULTS.md")
README = os.path.join(ROOT, "README.md")
TABLE_BEGIN = "<!-- results table: written by Benchmarks/results.py from reports/results/ -->"
TABLE_END = "<!-- end of results table -->"

# The README's rows: (run, benchmark, parameters, dataset, peer, how the row names the case).
HEADLINE = [
    ("tiles", "pbf.varint.decode", "", "real-world/geometry-and-tags", "protozero", "`pbf.varint.decode`"),
    ("tiles", "mvt.decode", "mode=tolerant", "real-world/nepal", "protozero", "`mvt.decode` tolerant"),
    ("tiles", "mvt.decode", "mode=tolerant", "real-world/sanfrancisco", "protozero", "`mvt.decode` tolerant"),
    ("tiles", "mvt.decode", "mode=validating", "real-world/osm-qa-montevideo", "vtzero", "`mvt.decode` validating"),
    ("tiles", "mvt.decode", "mode=validating", "real-world/chicago", "vtzero", "`mvt.decode` validating"),
    ("tiles", "mvt.decode", "mode=tolerant", "real-world/osm-qa-montevideo", "swift-protobuf", "`mvt.decode` tolerant"),
    ("geojson", "geojson.parse", "mode=whole", "geojson/canada", "simdjson.ondemand", "`geojson.parse` whole"),
    ("geojson", "geojson.parse", "mode=whole", "geojson/ne_10m_coastline", "simdjson.ondemand", "`geojson.parse` whole"),
    ("geojson", "geojson.parse", "mode=whole", "geojson/ne_10m_populated_places", "simdjson.ondemand", "`geojson.parse` whole"),
    ("geojson", "geojson.parse", "mode=columnar", "geojson/ne_10m_populated_places", "simdjson.ondemand",
     "`geojson.parse` columnar"),
    ("geojson", "geojson.parse", "mode=columnar-geometry-only;skip=structural", "geojson/ne_10m_populated_places",
     "simdjson.ondemand", "`geojson.parse` columnar geometry, skip=structural"),
    ("geojson", "geojson.write", "", "geojson/canada", "rapidjson.writer", "`geojson.write`"),
    ("geojson", "geojson.write", "", "geojson/ne_10m_populated_places", "rapidjson.writer", "`geojson.write`"),
    ("tilecover", "tilecover.polygon", "zoom=12", "geojson/canada", "supermercado", "`tilecover.polygon` z12"),
    ("tilecover", "tilecover.lines", "zoom=10", "geojson/ne_10m_coastline", "supermercado", "`tilecover.lines` z10"),
    ("tilecover", "tilecover.points", "zoom=16", "generated/source-points-100k", "mercantile", "`tilecover.points` z16"),
    ("tilecover", "tilecover.polygon", "zoom=12", "geojson/canada", "tile-cover.js", "`tilecover.polygon` z12"),
    ("tilecover", "tilecover.lines", "zoom=10", "geojson/ne_10m_coastline", "tile-cover.js", "`tilecover.lines` z10"),
    ("tilecover", "tilecover.points", "zoom=16", "generated/source-points-100k", "tile-cover.js", "`tilecover.points` z16"),
    ("sources", "source.update", "k=10000", "generated/source-points-100k", "rebuild", "`source.update` k = 10,000"),
]
# Ratios between cases of one run that do not share a group (so the report gives no
# interval for them): (run, what the ratio says, reference case, measured case), each case
# (benchmark, implementation, parameters), for every dataset the run has both for. The
# ratio is the reference's median time ÷ the measured case's, with a 95% bootstrap interval
# over both cases' samples (reports/results/NAME.samples.csv).
CROSS = [
    ("geojson", "`geojson stats` (`geojson.profile` tool=stats) against Graticule's columnar parse",
     ("geojson.parse", "graticule", "mode=columnar"), ("geojson.profile", "graticule", "tool=stats")),
    ("geojson", "`profile --jobs 1` (`geojson.profile` tool=profile) against Graticule's columnar parse",
     ("geojson.parse", "graticule", "mode=columnar"), ("geojson.profile", "graticule", "tool=profile")),
    ("geojson", "columnar geometry-only, skip=validated, against simdjson.ondemand geometry-only",
     ("geojson.parse", "simdjson.ondemand", "mode=geometry-only"),
     ("geojson.parse", "graticule", "mode=columnar-geometry-only;skip=validated")),
]
BOOTSTRAP = 2000
EXPERIMENTS = os.path.join(ROOT, "Benchmarks", "Experiments")
LIMIT = 20_000


class Malformed(Exception):
    pass


def runs():
    out = []
    for n, line in enumerate(open(MANIFEST, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3 or not all(fields):
            raise Malformed(f"{MANIFEST}:{n}: want NAME, CORE and ARGUMENTS separated by tabs")
        out.append({"name": fields[0], "core": fields[1], "arguments": fields[2]})
    return out


def run(name, binary):
    entry = next((r for r in runs() if r["name"] == name), None)
    if entry is None:
        sys.exit(f"no run named '{name}' in {MANIFEST}")
    os.makedirs(REPORTS, exist_ok=True)
    command = ["taskset", "-c", "0", binary, "bench"] + entry["arguments"].split() + \
              ["--output", os.path.join("reports", "results", name + ".csv")]
    print(" ".join(command), flush=True)
    sys.exit(subprocess.call(command, cwd=ROOT))


def time_text(ns):
    ns = float(ns)
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            v = ns / scale
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return f"{ns:.0f} ns"


def ratio_text(r):
    """Graticule's speedup over the peer of row `r`: the peer's time ÷ Graticule's (the
    report's ratio to the reference, graticule), with its interval."""
    if r["reference"] != "graticule" or not r["ratio_to_reference"]:
        return "no ratio to graticule"
    text = f"{float(r['ratio_to_reference']):.3g}×"
    if r["ratio_to_reference_ci95_low"] and r["ratio_to_reference_ci95_high"]:
        text += f" [{float(r['ratio_to_reference_ci95_low']):.3g}–{float(r['ratio_to_reference_ci95_high']):.3g}]"
    return text


def case_name(r):
    return f"`{r['benchmark']}`" + (f" {r['parameters']}" if r["parameters"] else "")


# Benchmarks without a peer whose rate RESULTS.md shows, with the unit of their items.
RATES = {"tilecover.stream": "tiles"}


def table(path):
    """The rows of one run's report, and the run's date, commit and dirty flag."""
    try:
        rows = [r for r in csv.DictReader(open(path, newline="", encoding="utf-8")) if r["metric"] == "time_ns"]
    except (OSError, KeyError, csv.Error) as e:
        raise Malformed(f"{path}: {e}")
    if not rows:
        raise Malformed(f"{path}: no time_ns rows")
    ours = {}
    peers = {}
    for r in rows:
        key = (r["benchmark"], r["dataset"], r["parameters"])
        if r["implementation"] == "graticule":
            ours[key] = r
        else:
            peers.setdefault(key, []).append(r)
    lines = []
    for key in sorted(ours):
        g = ours[key]
        if key not in peers:
            # A case no peer runs is shown only where its dataset's items are what it
            # produces, as a rate (RATES).
            unit = RATES.get(g["benchmark"])
            if unit and g["status"] == "ok" and g["median"] and g["dataset_items"]:
                per_s = float(g["dataset_items"]) / (float(g["median"]) / 1e9)
                lines.append(f"| {case_name(g)} | {g['dataset']} | {time_text(g['median'])} | no peer; {per_s / 1e6:.3g} M {unit}/s |")
            continue
        if g["status"] != "ok":
            lines.append(f"| {case_name(g)} | {g['dataset']} | {g['status']} | | |")
            continue
        cells = []
        for p in sorted(peers[key], key=lambda p: float(p["median"]) if p["status"] == "ok" and p["median"] else float("inf")):
            if p["status"] == "ok" and p["median"]:
                cells.append(f"{p['implementation']} {time_text(p['median'])}, {ratio_text(p)}")
            else:
                cells.append(f"{p['implementation']}: {p['status']}")
        lines.append(f"| {case_name(g)} | {g['dataset']} | {time_text(g['median'])} | {'; '.join(cells)} |")
    first = rows[0]
    return lines, first["timestamp"], first["git_commit"], first["git_dirty"] == "true"


def cross_ratios(run_name):
    """The CROSS rows of one run, from its samples: (label, [(dataset, text)])."""
    wanted = [c for c in CROSS if c[0] == run_name]
    if not wanted:
        return []
    path = os.path.join(REPORTS, run_name + ".samples.csv")
    samples = {}
    try:
        for r in csv.DictReader(open(path, newline="", encoding="utf-8")):
            if r["metric"] == "time_ns":
                samples.setdefault((r["benchmark"], r["implementation"], r["parameters"], r["dataset"]), []).append(float(r["value"]))
    except (OSError, KeyError, ValueError, csv.Error) as e:
        raise Malformed(f"{path}: {e}")
    out = []
    for _, label, ref, case in wanted:
        cells = []
        for dataset in sorted({k[3] for k in samples if k[:3] == case}):
            a, b = samples.get(ref + (dataset,)), samples.get(case + (dataset,))
            if not a or not b:
                continue
            # A fixed seed per row: the same report gives the same interval (--check).
            rng = random.Random(f"{run_name} {ref} {case} {dataset}")
            boots = sorted(statistics.median(rng.choices(a, k=len(a))) / statistics.median(rng.choices(b, k=len(b)))
                           for _ in range(BOOTSTRAP))
            lo, hi = boots[int(0.025 * BOOTSTRAP)], boots[int(0.975 * BOOTSTRAP) - 1]
            cells.append((dataset, f"{statistics.median(a) / statistics.median(b):.3g} [{lo:.3g}–{hi:.3g}]"))
        if cells:
            out.append((label, cells))
    return out


def headline_table():
    """The README's results table: the HEADLINE rows, each from its run's committed report."""
    reports = {}
    out = ["| benchmark | dataset | Graticule | peer (same run) | Graticule's speedup [95% interval] |",
           "|---|---|---|---|---|"]
    for run_name, benchmark, parameters, dataset, peer, label in HEADLINE:
        if run_name not in reports:
            path = os.path.join(REPORTS, run_name + ".csv")
            if not os.path.exists(path):
                raise Malformed(f"{path} is missing (the README's table needs it)")
            reports[run_name] = [r for r in csv.DictReader(open(path, newline="", encoding="utf-8")) if r["metric"] == "time_ns"]
        rows = reports[run_name]

        def find(impl):
            for r in rows:
                if (r["benchmark"], r["parameters"], r["dataset"], r["implementation"]) == (benchmark, parameters, dataset, impl):
                    return r
            raise Malformed(f"reports/results/{run_name}.csv has no {benchmark} [{parameters}] {dataset} {impl} row")
        ours, theirs = find("graticule"), find(peer)
        if ours["status"] != "ok" or theirs["status"] != "ok":
            raise Malformed(f"{run_name}: {benchmark} {dataset}: graticule {ours['status']}, {peer} {theirs['status']}")
        out.append(f"| {label} | {dataset} | {time_text(ours['median'])} | {peer} {time_text(theirs['median'])} | {ratio_text(theirs)} |")
    return "\n".join(out)


def readme_with_table(text, table):
    if text.count(TABLE_BEGIN) != 1 or text.count(TABLE_END) != 1:
        raise Malformed(f"README.md needs one '{TABLE_BEGIN}' and one '{TABLE_END}' line around its table")
    head, rest = text.split(TABLE_BEGIN)
    _, tail = rest.split(TABLE_END)
    return head + TABLE_BEGIN + "\n" + table + "\n" + TABLE_END + tail


def render():
    out = ["# Graticule: current results", "",
           "The figures of the last run of each core, generated by `Benchmarks/results.py` from the",
           "committed reports in `reports/results/` (the runs are listed in `Benchmarks/results.tsv`;",
           "`Benchmarks/results.py run NAME` measures one again). Medians of a release build pinned to",
           "core 0 on a 2-core machine; every peer was measured in the same run and its result checked",
           "against Graticule's first. The speedup is peer time ÷ Graticule time with its 95% bootstrap",
           "interval (above 1: Graticule is faster). Absolute times on shared machines mean little; the",
           "same-run ratios carry.", ""]
    for entry in runs():
        path = os.path.join(REPORTS, entry["name"] + ".csv")
        out.append(f"## {entry['core']}")
        out.append("")
        if not os.path.exists(path):
            out += [f"Not measured yet: `Benchmarks/results.py run {entry['name']}`.", ""]
            continue
        lines, date, commit, dirty = table(path)
        out.append(f"`graticule bench {entry['arguments']}`, pinned to core 0; run {date}, commit "
                   f"{commit[:10]}{' (uncommitted changes)' if dirty else ''}; report "
                   f"`reports/results/{entry['name']}.csv`.")
        out += ["", "| case | dataset | Graticule | peers, same run: median, Graticule's speedup |", "|---|---|---|---|"]
        out += lines
        out.append("")
        cross = cross_ratios(entry["name"])
        if cross:
            out += ["Ratios between cases of this run that share no group: the reference's median time ÷ the",
                    "case's, with a 95% bootstrap interval over both cases' samples.", "",
                    "| ratio | dataset | ratio [95% interval] |", "|---|---|---|"]
            for label, cells in cross:
                out += [f"| {label} | {dataset} | {text} |" for dataset, text in cells]
            out.append("")
    pages = sorted(f for f in os.listdir(EXPERIMENTS) if f.endswith(".md")) if os.path.isdir(EXPERIMENTS) else []
    if pages:
        out += ["## Experiments", "",
                "What was tried, kept or dropped, with the figures of the day, one dated page each in",
                "`Benchmarks/Experiments/`:", ""]
        for f in pages:
            title = open(os.path.join(EXPERIMENTS, f), encoding="utf-8").readline().lstrip("# ").strip()
            out.append(f"- [{title}](Experiments/{f})")
        out.append("")
    return "\n".join(out)


def main(argv):
    if argv[:1] == ["run"] and len(argv) in (2, 4):
        binary = argv[3] if len(argv) == 4 and argv[2] == "--bin" else os.path.join(ROOT, ".build", "release", "graticule")
        run(argv[1], binary)
    if argv not in ([], ["--check"]):
        sys.exit(__doc__)
    try:
        text = render()
        readme = open(README, encoding="utf-8").read()
        new_readme = readme_with_table(readme, headline_table())
    except Malformed as e:
        sys.exit(f"results: {e}")
    if len(text.encode()) > LIMIT:
        sys.exit(f"results: RESULTS.md would be {len(text.encode())} bytes; keep it under {LIMIT} (fewer rows or runs)")
    if argv == ["--check"]:
        current = open(OUTPUT, encoding="utf-8").read() if os.path.exists(OUTPUT) else ""
        if current != text:
            sys.exit("results: Benchmarks/RESULTS.md is not what reports/results/ give; run Benchmarks/results.py")
        if readme != new_readme:
            sys.exit("results: the README's results table is not what reports/results/ give; run Benchmarks/results.py")
        print(f"RESULTS.md: {len(text.encode())} bytes, generated from {len(runs())} runs")
        return
    open(OUTPUT, "w", encoding="utf-8").write(text)
    open(README, "w", encoding="utf-8").write(new_readme)
    print(f"wrote {OUTPUT} ({len(text.encode())} bytes) and the README's results table")


if __name__ == "__main__":
    main(sys.argv[1:])
