#!/usr/bin/env python3
"""Compares two bench_gpu_msm --json files row by row (same section, name and size) as a Markdown table of
medians. Usage: compare.py BEFORE.json AFTER.json BEFORE_LABEL AFTER_LABEL"""
import json
import sys


def main(before_path, after_path, before_label, after_label):
    before = {(r["section"], r["name"], r["log_n"]): r for r in json.load(open(before_path))["rows"]}
    after = json.load(open(after_path))["rows"]
    print(f"| section | MSM | n | {before_label} ms | {after_label} ms | {after_label} / {before_label} | checks |")
    print("|---|---|---|---|---|---|---|")
    for r in after:
        b = before.get((r["section"], r["name"], r["log_n"]))
        if b is None:
            continue
        ratio = r["median_ms"] / b["median_ms"] if b["median_ms"] else float("nan")
        print(f"| {r['section']} | {r['name']} | 2^{r['log_n']} | {b['median_ms']:.3f} | {r['median_ms']:.3f} | "
              f"{ratio:.3f} | {b['check']}/{r['check']} |")


if __name__ == "__main__":
    main(*sys.argv[1:5])
