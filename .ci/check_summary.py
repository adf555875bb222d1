#!/usr/bin/env python3
"""Checks the summary table `graticule bench` printed: within 120 columns, and no two lines
read the same (each implementation line is told apart by its group heading).

Usage: check_summary.py OUTPUT.txt    (the bench run's standard output)
"""
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
try:
    start = next(i for i, l in enumerate(lines) if l.startswith("implementation "))
except StopIteration:
    sys.exit("no summary table in " + sys.argv[1])
errors, seen, heading, rows = [], set(), None, 0
for n, line in enumerate(lines[start + 2:], start=start + 3):
    if not line.strip() or line.startswith("graticule speedup") or " speedup: " in line:
        break
    if len(line) > 120:
        errors.append(f"line {n} is {len(line)} columns")
    if "…" in line:
        errors.append(f"line {n} is cut: {line}")
    if line.startswith("  "):
        if heading is None:
            errors.append(f"line {n} has no heading")
        key = (heading, line.split()[0])
        if key in seen:
            errors.append(f"line {n} reads the same as an earlier one: {heading} / {key[1]}")
        seen.add(key)
        rows += 1
    else:
        heading = line
for e in errors:
    print(e)
print(f"summary table: {rows} lines under {len({h for h, _ in seen})} headings, {len(errors)} problems")
sys.exit(1 if errors or rows == 0 else 0)
