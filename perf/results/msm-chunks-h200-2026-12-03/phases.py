#!/usr/bin/env python3
"""Sums an ncu --csv --metrics gpu__time_duration.sum log of bench_gpu_msm into MSM phases, one line per MSM
call (a call starts at its digits or classify kernel). Usage: phases.py call2/ncu20.csv"""
import csv
import io
import re
import sys

PHASES = [("sort", ("classify", "digits", "DeviceScan", "scatter")), ("ones", ("ones", "sum_kernel")),
          ("accumulate", ("accumulate",)), ("fixup", ("fixup", "hot")), ("reduce", ("reduce",)),
          ("combine", ("combine",))]


def phase_of(name):
    for phase, keys in PHASES:
        if any(k in name for k in keys):
            return phase
    return None


def main(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    head, rows = rows[0], rows[1:]
    name_at, value_at, unit_at = head.index("Kernel Name"), head.index("Metric Value"), head.index("Metric Unit")
    scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
    calls, current, previous = [], None, ""
    for r in rows:
        name = r[name_at]
        ms = float(r[value_at].replace(",", "")) * scale[r[unit_at]]
        group = re.search(r"<(?:proofline::)?([\w:]*G[12]Params)", name)
        starts = "classify" in name or ("digits" in name and "classify" not in previous)
        previous = name
        if starts:
            current = {"kernels": set(), "group": None, **{p: 0.0 for p, _ in PHASES}}
            calls.append(current)
        phase = phase_of(name)
        if current is None or phase is None:
            continue  # table builds and other kernels outside an MSM call
        current["kernels"].add("classify" if "classify" in name else phase)
        current[phase] += ms
        if group and current["group"] is None:
            current["group"] = group.group(1).replace("proofline::", "")
    print("| # | group | " + " | ".join(p for p, _ in PHASES) + " | total ms |")
    print("|---|---|" + "---|" * (len(PHASES) + 1))
    for i, c in enumerate(calls):
        total = sum(c[p] for p, _ in PHASES)
        print(f"| {i} | {c['group']}{' split' if 'classify' in c['kernels'] else ''} | "
              + " | ".join(f"{c[p]:.3f}" for p, _ in PHASES) + f" | {total:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
