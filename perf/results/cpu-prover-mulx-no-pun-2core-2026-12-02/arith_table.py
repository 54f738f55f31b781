# arith_table.py DIR: table of the interleaved bench_cpu_arith processes (arith_ab.sh): per row and variant, the median over rounds of each
# process's median CPU ms per run, and the ratio of portable and before to mulx.
import json,glob,statistics,sys
d=sys.argv[1]
data={}
for f in sorted(glob.glob(f"{d}/*.json")):
    v=f.split("/")[-1].split(".")[0]
    for r in json.load(open(f))["rows"]:
        k=(r["section"],r["op"],r["variant"])
        data.setdefault(k,{}).setdefault(v,[]).append((r["cpu_median_ms"],r["median_ms"]))
print("| section | input | before (pun) CPU ms | portable CPU ms | mulx CPU ms | portable / mulx | before / mulx | wall ms before / portable / mulx |")
print("|---|---|---|---|---|---|---|---|")
for k,vs in data.items():
    cpu={v:statistics.median(x[0] for x in vs[v]) for v in vs}
    wall={v:statistics.median(x[1] for x in vs[v]) for v in vs}
    print(f"| {k[0]} | {k[2]} | {cpu['before']:.1f} | {cpu['portable']:.1f} | {cpu['mulx']:.1f} | {cpu['portable']/cpu['mulx']:.2f}x | {cpu['before']/cpu['mulx']:.2f}x | {wall['before']:.0f} / {wall['portable']:.0f} / {wall['mulx']:.0f} |")
for k,vs in data.items():
    print(k, {v:[round(x[0],1) for x in vs[v]] for v in vs})
