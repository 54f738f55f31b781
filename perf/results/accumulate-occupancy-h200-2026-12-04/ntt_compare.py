"""Medians of two bench_gpu runs per build, side by side: python3 ntt_compare.py A1 A2 B1 B2 (JSON files)."""
import json
import sys


def rows(path):
    return {(r["section"], r["name"], r["log_n"]): r["median_ms"] for r in json.load(open(path))["rows"]}


a1, a2, b1, b2 = (rows(p) for p in sys.argv[1:5])
print("| section | operation | n | main ms (run 1 / 2) | ns ms (run 1 / 2) | ns / main |")
print("|---|---|---|---|---|---|")
for key in a1:
    if key[0] not in ("ntt", "h") or key not in b1:
        continue
    main = (a1[key] + a2[key]) / 2
    ns = (b1[key] + b2[key]) / 2
    print(f"| {key[0]} | {key[1]} | 2^{key[2]} | {a1[key]:.3f} / {a2[key]:.3f} | {b1[key]:.3f} / {b2[key]:.3f} | "
          f"{ns / main:.3f} |")
