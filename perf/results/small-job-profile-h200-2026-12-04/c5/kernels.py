#!/usr/bin/env python3
"""Sums an ncu --csv log (metrics gpu__time_duration.sum and smsp__inst_executed.sum) by kernel name, template
arguments dropped but the group kept. Usage: kernels.py ncu.csv JOBS"""
import csv
import io
import re
import sys
from collections import defaultdict


def short(name):
    group = re.search(r"(bn254::)?G([12])Params", name)
    field = re.search(r"(bn254::)?(Fr|Fp)\b", name)
    base = re.sub(r"<.*", "", name).replace("proofline::cuda::detail::", "").replace("void ", "")
    base = re.sub(r"\(.*", "", base)
    tag = ("bn254 " if group and group.group(1) else "") + f"G{group.group(2)}" if group else (field.group(0) if field else "")
    return f"{base} [{tag}]" if tag else base


def main(path, jobs):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    head, rows = rows[0], rows[1:]
    at = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
    scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
    ms, inst, count, seen = defaultdict(float), defaultdict(float), defaultdict(int), set()
    for r in rows:
        name = short(r[at["Kernel Name"]])
        value = float(r[at["Metric Value"]].replace(",", ""))
        if r[at["Metric Name"]] == "gpu__time_duration.sum":
            ms[name] += value * scale[r[at["Metric Unit"]]]
            if r[at["ID"]] not in seen:
                seen.add(r[at["ID"]])
                count[name] += 1
        elif r[at["Metric Name"]] == "smsp__inst_executed.sum":
            inst[name] += value
    total_ms, total_inst = sum(ms.values()), sum(inst.values())
    print(f"| kernel | launches/job | ms/job | % time | G inst/job | % inst |")
    print("|---|---|---|---|---|---|")
    for name in sorted(ms, key=lambda n: -ms[n]):
        print(f"| {name} | {count[name] / jobs:.1f} | {ms[name] / jobs:.3f} | {100 * ms[name] / total_ms:.1f} | "
              f"{inst[name] / jobs / 1e9:.3f} | {100 * inst[name] / max(total_inst, 1):.1f} |")
    print(f"| all | {sum(count.values()) / jobs:.1f} | {total_ms / jobs:.3f} | 100 | {total_inst / jobs / 1e9:.3f} | 100 |")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
