#!/usr/bin/env python3
"""Prints this folder's tables: the passes sweep (call 1) and main before/after the change (calls 2, 3)."""
import glob
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))


def medians(path, log_n=None):
    rows = json.load(open(path))["rows"]
    return {(r["name"], r["log_n"]): r["median_ms"] for r in rows
            if "build" not in r["name"] and (log_n is None or r["log_n"] == log_n)}


def short(name):
    return name.replace(" MSM", "").replace("precomputed", "table")


print("call 1: 2^24, median ms per passes setting (runs of one setting averaged)")
sweep = {}
for path in glob.glob(os.path.join(here, "call1-sweep", "passes*.json")):
    log = int(os.path.basename(path)[len("passes"):].split(".")[0])
    sweep.setdefault(log, []).append(medians(path))
names = sorted(next(iter(sweep.values()))[0])
print("| MSM | " + " | ".join(f"{1 << log} pass{'es' if log else ''}" for log in sorted(sweep)) + " |")
print("|---|" + "---|" * len(sweep))
for key in names:
    cells = [statistics.mean(run[key] for run in sweep[log]) for log in sorted(sweep)]
    best = min(cells)
    print(f"| {short(key[0])} | " + " | ".join(f"**{c:.2f}**" if c == best else f"{c:.2f}" for c in cells) + " |")

print("\ncall 2: main before (base) and after (new), two alternating rounds, median ms")
runs = {b: [medians(os.path.join(here, "call2-kernels", f"table_{b}_{r}.json")) for r in (1, 2)]
        for b in ("base", "new")}
print("| MSM | n | base | new | new / base |")
print("|---|---|---|---|---|")
for key in sorted(runs["base"][0], key=lambda k: (k[1], k[0])):
    base = statistics.mean(r[key] for r in runs["base"])
    new = statistics.mean(r[key] for r in runs["new"])
    print(f"| {short(key[0])} | 2^{key[1]} | {base:.2f} | {new:.2f} | {new / base:.3f} |")

print("\ncall 3: batch_prove, proofs/s (every proof verified)")
for path in sorted(glob.glob(os.path.join(here, "call3-pipeline", "rows*.json"))):
    d = json.load(open(path))
    print(f"- {os.path.basename(path)}: {d['proofs']} proofs, {d['verified']} verified, "
          f"{d['proofs_per_s']:.3f} proofs/s, GPU busy {d['gpu_busy_fraction']:.2f}")
