#!/usr/bin/env python3
"""Resident size of `proofline serve` through bursts of large request bodies (refused .wtns images, so no proof
is made: the bodies alone), with glibc's default allocator settings or with the server's own.

usage: burst.py PROOFLINE WORK_DIR [ROUNDS]   (WORK_DIR holds key.zkey, as circom.sh setup makes it)
Each round sends 24 bodies of 4 to 15 MiB at once, then waits 2.5 s; RSS from /proc/PID/status.
"""
import http.client
import os
import re
import subprocess
import sys
import threading
import time

proofline, work = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
server = subprocess.Popen([proofline, "serve", os.path.join(work, "key.zkey"), "--listen", "127.0.0.1:0",
                           "--backend", "cpu", "--max-body", "16M", "--body-memory", "1G", "--connections", "32"],
                          stdout=subprocess.PIPE, text=True)
host, port = re.search(r"http://(\S+)", server.stdout.readline()).group(1).rsplit(":", 1)


def rss_mib():
    with open("/proc/%d/status" % server.pid) as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS:"))


def post(body):
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    connection.request("POST", "/prove/key", body=body, headers={"Content-Type": "application/octet-stream"})
    connection.getresponse().read()
    connection.close()


print("start: %d MiB" % rss_mib())
for round_ in range(rounds):
    threads = [threading.Thread(target=post, args=(b"wtns" + bytes(((4 + (i * 7) % 12) << 20) - 4),))
               for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("round %d answered: %d MiB" % (round_ + 1, rss_mib()))
    time.sleep(2.5)
    print("round %d, 2.5 s later: %d MiB" % (round_ + 1, rss_mib()))
server.terminate()
server.wait()
