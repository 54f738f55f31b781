"""When each GPU of a batch_prove --trace file began and ended, and how long its compute streams were busy.

    python3 fill_from_trace.py TRACE.json[.gz] ...

Prints the first 20 syntheses (start and end, ms from the first event) and, per GPU, its first event, its
first NTT/MSM span, its last event and the union of its NTT/MSM spans (busy).
"""
import gzip
import json
import sys


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def union(intervals):
    busy, start, end = 0, None, None
    for s, e in sorted(intervals):
        if start is None or s > end:
            if start is not None:
                busy += end - start
            start, end = s, e
        else:
            end = max(end, e)
    return busy + (end - start if start is not None else 0)


for path in sys.argv[1:]:
    events = [e for e in load(path)["traceEvents"] if e.get("ph") == "X"]
    t0 = min(e["ts"] for e in events)
    t1 = max(e["ts"] + e["dur"] for e in events)
    print(path, "span ms %.1f" % ((t1 - t0) / 1e3))
    synth = sorted((e["ts"] - t0, e["dur"]) for e in events if e["name"] == "synthesis")
    print(" synthesis, first 20 (start, end ms):", [(round(s / 1e3), round((s + d) / 1e3)) for s, d in synth[:20]])
    for pid in sorted({e["pid"] for e in events if e["pid"] != 1}):
        gpu = [e for e in events if e["pid"] == pid]
        compute = [(e["ts"], e["ts"] + e["dur"]) for e in gpu if e["name"] in ("ntt", "msm")]
        print(" process %d: first event %.1f ms, first compute %.1f, last %.1f, compute busy %.1f" % (
            pid, (min(e["ts"] for e in gpu) - t0) / 1e3, (min(s for s, _ in compute) - t0) / 1e3,
            (max(e["ts"] + e["dur"] for e in gpu) - t0) / 1e3, union(compute) / 1e3))
