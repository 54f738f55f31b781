#!/usr/bin/env python3
"""Table of perf/cpu_prover_ab.sh's results: per case and variant, medians over the rounds of the prove time
and of each stage (bench_snarkjs: the stages of each process's best proof; bench_groth16: each process's
medians), of the process's CPU seconds, and each variant's speed-up over the first one (wall and CPU).

    perf/cpu_prover_ab_table.py OUT_DIR
"""
import glob
import json
import os
import statistics
import sys

STAGES = ["h", "msm_a", "msm_b1", "msm_b2", "msm_l", "msm_h"]


def figures(path):
    with open(path) as f:
        data = json.load(f)
    if "rows" in data:  # bench_groth16
        row = data["rows"][0]["prove_median_s"]
        return row["total"], {s: row[s] for s in STAGES}
    best = data["best"]
    return data["prove_median_s"], {s: best[s + "_s"] for s in STAGES}


def cpu_seconds(path):
    try:
        with open(path) as f:
            user, system = f.read().split()[-2:]
        return float(user) + float(system)
    except (OSError, ValueError):
        return None


def main():
    out = sys.argv[1]
    cases = {}
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        case, variant, _round, _ = os.path.basename(path).rsplit(".", 3)
        total, stages = figures(path)
        cpu = cpu_seconds(path[: -len(".json")] + ".cpu")
        cases.setdefault(case, {}).setdefault(variant, []).append((total, stages, cpu))
    header = ("| case | variant | rounds | prove (s) | " + " | ".join(STAGES) +
              " | process CPU (s) | speed-up (prove) | speed-up (CPU) |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for case, variants in cases.items():
        first = None
        for variant in ("before", "portable", "mulx"):
            runs = variants.get(variant, [])
            if not runs:
                continue
            total = statistics.median(r[0] for r in runs)
            stages = [statistics.median(r[1][s] for r in runs) for s in STAGES]
            cpus = [r[2] for r in runs if r[2] is not None]
            cpu = statistics.median(cpus) if cpus else float("nan")
            if first is None:
                first = (total, cpu)
                ratios = "| "
            else:
                ratios = f"{first[0] / total:.2f}x | {first[1] / cpu:.2f}x"
            cells = " | ".join(f"{x:.3f}" for x in stages)
            print(f"| {case} | {variant} | {len(runs)} | {total:.3f} | {cells} | {cpu:.2f} | {ratios} |")

if __name__ == "__main__":
    main()
