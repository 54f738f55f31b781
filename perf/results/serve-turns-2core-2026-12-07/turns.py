"""`proofline serve` with two keys: 40 requests of the large key queued, then one of the small key. How long the
small one takes with the keys taking turns (the default) and with --submission-order, in one run.

usage: turns.py PROOFLINE SMALL.zkey SMALL.wtns LARGE.zkey LARGE.wtns
"""
import http.client
import re
import subprocess
import sys
import threading
import time

proofline, small_key, small_wtns, large_key, large_wtns = sys.argv[1:6]


def run(extra):
    command = [proofline, "serve", small_key, "--name", "small", "--key", large_key, "--name", "large",
               "--listen", "127.0.0.1:0", "--backend", "cpu", "--threads", "2", "--queue", "100", *extra]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    host, port = re.search(r"http://(\S+)", server.stdout.readline()).group(1).rsplit(":", 1)
    bodies = {"small": open(small_wtns, "rb").read(), "large": open(large_wtns, "rb").read()}

    def post(name, out):
        connection = http.client.HTTPConnection(host, int(port), timeout=600)
        start = time.time()
        connection.request("POST", "/prove/" + name, body=bodies[name])
        response = connection.getresponse()
        response.read()
        out.append((response.status, time.time() - start))

    backlog, single = [], []
    threads = [threading.Thread(target=post, args=("large", backlog)) for _ in range(40)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    post("small", single)
    for thread in threads:
        thread.join()
    server.terminate()
    server.wait()
    return single[0], max(seconds for _, seconds in backlog), sorted(set(status for status, _ in backlog))


for label, extra in [("turns", []), ("submission order", ["--submission-order"])]:
    (status, seconds), longest, statuses = run(extra)
    print("%-17s small: %d in %.2f s; the 40 large requests: statuses %s, the last answered after %.2f s"
          % (label, status, seconds, statuses, longest))
