#!/usr/bin/env python3
"""Per-job kernel times from two ncu --csv logs of the same batch at two lengths (the difference removes the
setup's kernels). Usage: diff_kernels.py SHORT.csv LONG.csv EXTRA_JOBS"""
import csv, io, os, sys
from collections import defaultdict
# The kernel names are shortened as batch-profile-h200-2026-12-03/kernels.py does.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "batch-profile-h200-2026-12-03"))
from kernels import short
def load(path):
    lines=[l for l in open(path) if l.startswith('"')]
    rows=list(csv.reader(io.StringIO("".join(lines))))
    head,rows=rows[0],rows[1:]
    at={k:head.index(k) for k in ("ID","Kernel Name","Metric Name","Metric Unit","Metric Value")}
    scale={"ns":1e-6,"nsecond":1e-6,"us":1e-3,"usecond":1e-3,"ms":1.0,"msecond":1.0}
    ms,count=defaultdict(float),defaultdict(int)
    for r in rows:
        if r[at["Metric Name"]]!="gpu__time_duration.sum": continue
        n=short(r[at["Kernel Name"]]); ms[n]+=float(r[at["Metric Value"]].replace(",",""))*scale[r[at["Metric Unit"]]]; count[n]+=1
    return ms,count
a,ca=load(sys.argv[1]); b,cb=load(sys.argv[2]); jobs=float(sys.argv[3])
names=set(a)|set(b)
rows=[(n,(b[n]-a[n])/jobs,(cb[n]-ca[n])/jobs) for n in names]
rows.sort(key=lambda r:-r[1])
tot=sum(r[1] for r in rows)
print("| kernel | launches/job | ms/job | % |"); print("|---|---|---|---|")
for n,m,c in rows:
    if abs(m)<1e-4 and c==0: continue
    print(f"| {n} | {c:.1f} | {m:.4f} | {100*m/tot:.1f} |")
print(f"| all | {sum(r[2] for r in rows):.1f} | {tot:.4f} | 100 |")
