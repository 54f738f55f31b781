#!/usr/bin/env python3
"""Before/after table of bench_gpu_msm runs: compare.py DIR prints, for every MSM row of DIR/table_{base,new}_*.json
and DIR/shared_{base,new}.json, the medians of each build's runs and their ratio (new / base), as Markdown."""
import glob
import json
import statistics
import sys

folder = sys.argv[1]
rows = {}
for build in ("base", "new"):
    for path in sorted(glob.glob(f"{folder}/table_{build}_*.json")) + sorted(glob.glob(f"{folder}/shared_{build}.json")):
        for row in json.load(open(path))["rows"]:
            if "MSM" not in row["name"] and row["section"] != "shared":
                continue
            assert row["check"] == "PASS", (path, row["name"])
            rows.setdefault((row["name"], row["log_n"]), {}).setdefault(build, []).append(row["median_ms"])
print("| operation | log2 n | before (ms, per run) | after (ms, per run) | after / before |")
print("|---|---|---|---|---|")
for (name, log_n), by_build in rows.items():
    base, new = by_build.get("base", []), by_build.get("new", [])
    if not base or not new:
        continue
    ratio = statistics.mean(new) / statistics.mean(base)
    fmt = lambda values: " / ".join(f"{v:.2f}" for v in values)
    print(f"| {name} | {log_n} | {fmt(base)} | {fmt(new)} | {ratio:.3f} |")
