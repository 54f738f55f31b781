#!/usr/bin/env python3
"""Prints a call folder's tables: each MSM under every sort the call ran (bench_gpu_msm, the median ms of each
process, mean over the alternating rounds) with its ratio to the earlier sort (direct; main's build in call 4),
every row's check, and batch_prove's rates.  Usage: compare.py CALL_DIR"""
import glob
import json
import os
import re
import statistics
import sys

call = sys.argv[1]


def rows(path):
    d = json.load(open(path))
    return {(r["name"], r["log_n"]): (r["median_ms"], r.get("check", r.get("ok", "")))
            for r in d["rows"] if "build" not in r["name"]}


runs = {}
for path in sorted(glob.glob(os.path.join(call, "msm_*_*.json"))):
    sort = re.match(r"msm_(.+)_\d+\.json", os.path.basename(path)).group(1)
    runs.setdefault(sort, []).append(rows(path))
base = "direct" if "direct" in runs else "main"
order = [base] + sorted(s for s in runs if s != base)
if base in runs and len(runs) > 1:
    others = order[1:]
    print("| MSM | n | " + " | ".join(order) + " | " + " | ".join(f"{s} / {base}" for s in others) + " | rounds |")
    print("|---|---|" + "---|" * (len(order) + len(others) + 1))
    failed = 0
    for key in sorted(runs[base][0], key=lambda k: (k[1], k[0])):
        if not all(key in r for s in order for r in runs[s]):
            continue
        failed += sum(r[key][1] not in ("PASS", True) for s in order for r in runs[s])
        ms = {s: statistics.mean(r[key][0] for r in runs[s]) for s in order}
        print(f"| {key[0].replace(' MSM', '')} | 2^{key[1]} | " + " | ".join(f"{ms[s]:.2f}" for s in order) +
              " | " + " | ".join(f"{ms[s] / ms[base]:.3f}" for s in others) +
              f" | {min(len(runs[s]) for s in order)} |")
    print(f"\nrows whose check did not pass: {failed}")
for path in sorted(glob.glob(os.path.join(call, "rows*.json")) + glob.glob(os.path.join(call, "b[0-9]*_*.json"))):
    d = json.load(open(path))
    print(f"- {os.path.basename(path)}: {d['proofs']} proofs, {d['verified']} verified, "
          f"{d['proofs_per_s']:.3f} proofs/s, GPU busy {d.get('gpu_busy_fraction', float('nan')):.2f}")
