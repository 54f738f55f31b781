# Every proof of perf/cpu_prover_ab.sh's JSON files pooled per case and variant: min, lower quartile, median.
#   prove_runs.py OUT_DIR
import json,glob,statistics,sys,os
d=sys.argv[1]
for case in ["chain_14","chain_16","bls12381_16"]:
    for v in ["before","portable","mulx"]:
        runs=[]
        for f in sorted(glob.glob(f"{d}/{case}.{v}.*.json")):
            j=json.load(open(f))
            runs+= j["rows"][0]["prove_runs_s"] if "rows" in j else j["prove_runs_s"]
        runs.sort()
        print(f"{case:12s} {v:9s} n={len(runs):2d} min={runs[0]:.3f} q1={runs[len(runs)//4]:.3f} median={statistics.median(runs):.3f}")
