#!/usr/bin/env python3
"""Load for `proofline serve`: N clients post .wtns files (or input JSON) to one key and time the answers.

usage: serve_load.py URL KEY --clients N --requests R [--out DIR] [--json FILE] [--label TEXT] FILE...

Each client takes the next request number, posts FILE[number % len(FILES)] to URL/prove/KEY through its own
http.client connection (a new TCP connection per request: the server closes each after its answer) and waits
for the answer, until R requests were made. Prints one table row (requests,
clients, wall seconds, requests/s, latency median/p90/max, answers by status) and writes it as JSON with
--json. With --out, the answer of request I goes to DIR/I.proof.json and DIR/I.public.json (snarkjs's shapes)
so that `snarkjs groth16 verify` can check them. Only the standard library: it runs where python3 is.
"""
import argparse
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("key")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--requests", type=int, default=16)
    parser.add_argument("--out")
    parser.add_argument("--json")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    if args.clients < 1 or args.requests < 1:
        sys.exit("serve_load: --clients and --requests must be at least 1")

    target = urllib.parse.urlsplit(args.url)
    bodies = []
    for name in args.files:
        with open(name, "rb") as f:
            bodies.append(f.read())
    if args.out:
        os.makedirs(args.out, exist_ok=True)

    lock = threading.Lock()
    next_request = [0]
    latencies, statuses, errors = [], {}, []

    def client():
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=600)
        while True:
            with lock:
                number = next_request[0]
                if number >= args.requests:
                    break
                next_request[0] += 1
            body = bodies[number % len(bodies)]
            kind = "application/octet-stream" if body[:4] == b"wtns" else "application/json"
            start = time.perf_counter()
            try:
                connection.request("POST", "/prove/" + args.key, body=body, headers={"Content-Type": kind})
                answer = connection.getresponse()
                payload = answer.read()
                status = answer.status
            except (OSError, http.client.HTTPException) as e:
                # The server closed the connection (after a refusal, or a stop): count it, reconnect.
                status, payload = 0, str(e).encode()
                connection.close()
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=600)
            seconds = time.perf_counter() - start
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(seconds)
                elif len(errors) < 5:
                    errors.append("%d %s" % (status, payload[:200].decode(errors="replace")))
            if status == 200 and args.out:
                answer = json.loads(payload)
                with open(os.path.join(args.out, "%d.proof.json" % number), "w") as f:
                    json.dump(answer["proof"], f)
                with open(os.path.join(args.out, "%d.public.json" % number), "w") as f:
                    json.dump(answer["publicSignals"], f)
        connection.close()

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start

    def quantile(q):
        return sorted(latencies)[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else 0.0

    row = {
        "label": args.label,
        "requests": args.requests,
        "clients": args.clients,
        "ok": statuses.get(200, 0),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "wall_s": round(wall, 3),
        "proofs_per_s": round(statuses.get(200, 0) / wall, 2),
        "latency_median_s": round(statistics.median(latencies), 4) if latencies else 0.0,
        "latency_p90_s": round(quantile(0.9), 4),
        "latency_max_s": round(max(latencies), 4) if latencies else 0.0,
        "body_bytes": [len(b) for b in bodies][:1],
    }
    print("| %s | %d | %d | %d | %.3f | %.2f | %.4f | %.4f | %.4f | %s |" %
          (args.label, row["requests"], row["clients"], row["ok"], wall, row["proofs_per_s"],
           row["latency_median_s"], row["latency_p90_s"], row["latency_max_s"], row["statuses"]))
    for error in errors:
        print("serve_load: " + error, file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(row, f, indent=1)
    sys.exit(0 if row["ok"] == args.requests else 1)


if __name__ == "__main__":
    main()
