#!/usr/bin/env python3
"""The end-to-end benchmark's table (issue 8): reads what perf/e2e_run.sh left in OUT_DIR (batch_prove reports
e2e-LOG2.RUN.json, trace-on/off-I.json, machine.txt) and prints one table per size plus the tracing overhead,
with each target checked; --json FILE writes the same numbers."""
import argparse
import glob
import json
import os
import re
import statistics
import sys

RUNS = ["pinned", "baseline", "pinned-pre", "baseline-pre"]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def stage(report, name):
    return (report or {}).get("stages", {}).get(name) or {}


def per_job_s(report, *names):
    """Mean seconds per job of the named device stages (their busy time over their span count per stage)."""
    total = 0.0
    for name in names:
        s = stage(report, name)
        if not s.get("count"):
            return None
        total += s["busy_s"] / s["count"]
    return total


def fmt(value, spec, unit=""):
    return "-" if value is None else format(value, spec) + unit


def check(ok):
    return "-" if ok is None else ("yes" if ok else "NO")


def size_rows(out, log2):
    r = {run: load(os.path.join(out, f"e2e-{log2}.{run}.json")) for run in RUNS}
    if not any(r.values()):
        return None
    row = {"log2": log2}
    for run in RUNS:
        rep = r[run]
        if rep is None:
            row[run] = None
            continue
        extra = rep.get("extra", {})
        row[run] = {
            "jobs": rep["jobs"], "proofs": rep["proofs"], "verified": rep["verified"], "failed": rep["failed"],
            "wall_s": rep["wall_s"], "proofs_per_s": rep["proofs_per_s"],
            "gpu_busy_fraction": rep.get("gpu_busy_fraction"),
            "gpu_busy_fraction_run": rep.get("gpu_busy_fraction_run"),
            "gpu_steady_s": rep.get("gpu_steady_s"),
            "h2d_gbps": rep.get("h2d_gbps"),
            "h2d_s_per_job": per_job_s(rep, "h2d"),
            "gpu_s_per_job": per_job_s(rep, "ntt", "msm"),
            "synthesis_p50_ms": stage(rep, "synthesis").get("p50_ms"),
            "tokens": rep.get("tokens"), "max_inflight_slots": rep.get("max_inflight_slots"),
            "slot_bytes": rep.get("slot_bytes"),
            "pin_calls": rep["pool"]["pin_calls"],
            "pin_calls_after_warmup": rep["pool"]["pin_calls_after_warmup"],
            "peak_pinned_bytes": rep["pool"]["high_water_bytes"],
            "host_high_water": rep["budget"]["host_high_water"],
            "probe_pinned_h2d_gbps": extra.get("probe_pinned_h2d_gbps"),
            "probe_pageable_h2d_gbps": extra.get("probe_pageable_h2d_gbps"),
            "probe_load_jobs": extra.get("probe_load_jobs"),
            "setup_s": extra.get("setup_s"),
            "verdict": rep.get("verdict"),
        }
    for suffix in ["", "-pre"]:
        p, b = row.get("pinned" + suffix), row.get("baseline" + suffix)
        key = "live" if suffix == "" else "pre"
        ratio = predicted = None
        if p and b and b["proofs_per_s"] > 0:
            ratio = p["proofs_per_s"] / b["proofs_per_s"]
        if b and b["h2d_s_per_job"] is not None and b["gpu_s_per_job"]:
            predicted = 1 + b["h2d_s_per_job"] / b["gpu_s_per_job"]
        h2d_vs_probe = None
        if p and p["h2d_gbps"] and p["probe_pinned_h2d_gbps"]:
            h2d_vs_probe = p["h2d_gbps"] / p["probe_pinned_h2d_gbps"]
        row[key] = {
            "ratio": ratio, "predicted_ratio": predicted,
            "ratio_vs_predicted": ratio / predicted if ratio and predicted else None,
            "h2d_vs_probe": h2d_vs_probe,
            "targets": {
                "gpu_busy_ge_0.95": None if not p or p["gpu_busy_fraction"] is None
                else p["gpu_busy_fraction"] >= 0.95,
                "h2d_ge_0.9_probe": None if h2d_vs_probe is None else h2d_vs_probe >= 0.9,
                "zero_pin_calls_after_warmup": None if not p else p["pin_calls_after_warmup"] == 0,
                "ratio_ge_1.5": None if ratio is None else ratio >= 1.5,
                "ratio_within_10pct_of_predicted": None if not ratio or not predicted
                else abs(ratio / predicted - 1) <= 0.10,
            },
        }
    return row


def trace_overhead(out):
    on = [load(p) for p in sorted(glob.glob(os.path.join(out, "trace-on-*.json")))]
    off = [load(p) for p in sorted(glob.glob(os.path.join(out, "trace-off-*.json")))]
    on = [r["wall_s"] for r in on if r and r["failed"] == 0]
    off = [r["wall_s"] for r in off if r and r["failed"] == 0]
    if not on or not off:
        return None
    m_on, m_off = statistics.median(on), statistics.median(off)
    return {"runs_on": len(on), "runs_off": len(off), "wall_s_on": on, "wall_s_off": off,
            "median_on_s": m_on, "median_off_s": m_off, "overhead": m_on / m_off - 1,
            "target_le_0.5pct": m_on / m_off - 1 <= 0.005}


def gib(b):
    return None if b is None else b / 2**30


def print_size(row):
    print(f"\n2^{row['log2']} rows per job")
    hdr = (f"{'run':<13}{'jobs':>5}{'proofs/s':>10}{'GPU busy':>10}{'(batch)':>9}{'H2D GB/s':>10}"
           f"{'H2D ms/job':>11}{'GPU ms/job':>11}{'synth p50':>10}{'tokens':>7}{'pins>warm':>10}"
           f"{'peak pinned':>12}")
    print(hdr)
    for run in RUNS:
        v = row.get(run)
        if v is None:
            print(f"{run:<13} (missing)")
            continue
        print(f"{run:<13}{v['proofs']:>5}{v['proofs_per_s']:>10.3f}"
              f"{fmt(v['gpu_busy_fraction'] and 100 * v['gpu_busy_fraction'], '.1f', '%'):>10}"
              f"{fmt(v['gpu_busy_fraction_run'] and 100 * v['gpu_busy_fraction_run'], '.1f', '%'):>9}"
              f"{fmt(v['h2d_gbps'], '.1f'):>10}{fmt(v['h2d_s_per_job'] and 1e3 * v['h2d_s_per_job'], '.1f'):>11}"
              f"{fmt(v['gpu_s_per_job'] and 1e3 * v['gpu_s_per_job'], '.1f'):>11}"
              f"{fmt(v['synthesis_p50_ms'], '.0f'):>10}{v['tokens']:>7}{v['pin_calls_after_warmup']:>10}"
              f"{fmt(gib(v['peak_pinned_bytes']), '.2f', ' GiB'):>12}")
    p = row.get("pinned") or {}
    if p.get("probe_pinned_h2d_gbps"):
        print(f"H2D probe under the load of {p['probe_load_jobs']:.0f} jobs synthesizing: pinned "
              f"{p['probe_pinned_h2d_gbps']:.1f} GB/s, pageable {p['probe_pageable_h2d_gbps']:.1f} GB/s")
    for key, label in [("live", "live synthesis"), ("pre", "presynthesized")]:
        c = row[key]
        t = c["targets"]
        print(f"{label:<15} pinned/baseline {fmt(c['ratio'], '.2f', 'x')} (predicted {fmt(c['predicted_ratio'], '.2f', 'x')}"
              f" = 1 + pageable H2D / GPU per job; measured/predicted {fmt(c['ratio_vs_predicted'], '.3f')}); "
              f"pipeline H2D / probe {fmt(c['h2d_vs_probe'], '.2f')}")
        print(f"{'':<15} targets: GPU busy>=95% {check(t['gpu_busy_ge_0.95'])}, H2D>=0.9 probe "
              f"{check(t['h2d_ge_0.9_probe'])}, 0 pins after warm-up {check(t['zero_pin_calls_after_warmup'])}, "
              f"ratio>=1.5x {check(t['ratio_ge_1.5'])}, within 10% of predicted "
              f"{check(t['ratio_within_10pct_of_predicted'])}")
    for run in RUNS:
        v = row.get(run)
        if v:
            print(f"verdict {run:<13} {v['verdict']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--json")
    args = ap.parse_args()
    machine = ""
    try:
        with open(os.path.join(args.out, "machine.txt")) as f:
            machine = f.read().strip()
    except OSError:
        pass
    sizes = sorted({int(m.group(1)) for p in glob.glob(os.path.join(args.out, "e2e-*.json"))
                    if (m := re.search(r"e2e-(\d+)\.", os.path.basename(p)))})
    rows = [r for r in (size_rows(args.out, s) for s in sizes) if r]
    trace = trace_overhead(args.out)
    runs = [row[run] for row in rows for run in RUNS if row.get(run)]
    proofs, verified = sum(r["proofs"] for r in runs), sum(r["verified"] for r in runs)
    print("proofline end-to-end benchmark (batch_prove, synthetic circuits, " +
          ("every proof verified)" if runs and verified == proofs else
           f"{verified} of {proofs} proofs verified: run batch_prove with --verify)"))
    print(machine)
    print("proofs/s: proofs over the batch's wall time (submission of the first job to the last result; keys made"
          " before). GPU busy: compute-stream kernel time over the GPU's steady state (first and last job excluded);"
          " (batch): over the whole batch. H2D GB/s: bytes over copy-span time. -pre: jobs presynthesized.")
    for row in rows:
        print_size(row)
    if trace:
        print(f"\ntracing overhead (2^20 x 16 jobs, pinned): median wall {trace['median_on_s']:.4f} s with tracing, "
              f"{trace['median_off_s']:.4f} s compiled out ({trace['runs_on']}/{trace['runs_off']} runs): "
              f"{100 * trace['overhead']:+.2f}% (target <= 0.5%: {check(trace['target_le_0.5pct'])})")
        print("  with:    " + " ".join(f"{w:.4f}" for w in trace["wall_s_on"]))
        print("  without: " + " ".join(f"{w:.4f}" for w in trace["wall_s_off"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "sizes": rows, "tracing_overhead": trace}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
