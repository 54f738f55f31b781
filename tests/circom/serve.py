#!/usr/bin/env python3
"""`proofline serve` end to end (circom.sh's serve step): concurrent proof requests from input JSON and .wtns,
every error status, a client that stalls half-way through its body, a body that does not fit in --body-memory
beside one being read, and SIGTERM with requests in flight.

usage: serve.py PROOFLINE WORK CACHE OUT [WORK_BN128 OUT_BN128]

WORK is circom.sh setup's folder (key.zkey, check_cpp/, inputs/g*.json, snarkjs/g*.wtns); the proofs the server
answers go to OUT/NAME.proof.json and OUT/NAME.public.json for circom.sh to check with snarkjs (NAME-I for the
I-th proof of input NAME). With WORK_BN128 (setup-bn128's folder, and its .wtns files in OUT_BN128/wtns/), one
server proves keys of both curves side by side; the bn128 proofs go to OUT_BN128.
"""
import http.client
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

proofline, work, cache, out = sys.argv[1:5]
failures = []


def say(text):
    print("serve-test: " + text, flush=True)


def check(condition, what):
    if not condition:
        failures.append(what)
        say("FAILED: " + what)


def start(*extra):
    """Starts a server on a free port; returns (process, "host:port")."""
    command = [proofline, "serve", os.path.join(work, "key.zkey"), "--circuit", os.path.join(work, "check_cpp"),
               "--key", os.path.join(work, "key.zkey"), "--name", "wtns-only", "--listen", "127.0.0.1:0",
               "--cache-dir", cache, "--backend", "cpu", *extra]
    say("$ " + " ".join(command))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()  # the generator may be built first: no timeout of our own but ctest's
    found = re.search(r"listening on http://(\S+)", line)
    if not found:
        process.kill()
        sys.exit("serve-test: FAILED: no address on stdout: %r (exit %s)" % (line, process.wait()))
    say(line.strip())
    return process, found.group(1)


def request(address, method, path, body=None, headers=None, timeout=120):
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        connection.close()


def raw(address, data, shutdown=False, timeout=30):
    """Sends raw bytes and reads the answer until the server closes the connection."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(data)
        if shutdown:
            s.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return answer
            answer += chunk


def read(path):
    with open(os.path.join(work, path), "rb") as f:
        return f.read()


def wtns_sections(image):
    """The sections of a .wtns image by type: {1: header, 2: values}."""
    count, at, sections = struct.unpack_from("<I", image, 8)[0], 12, {}
    for _ in range(count):
        kind, size = struct.unpack_from("<IQ", image, at)
        sections[kind] = image[at + 12:at + 12 + size]
        at += 12 + size
    return sections


def wtns_image(header, values):
    """A .wtns image (version 2) of a header section and a values section."""
    image = b"wtns" + struct.pack("<II", 2, 2)
    for kind, payload in ((1, header), (2, values)):
        image += struct.pack("<IQ", kind, len(payload)) + payload
    return image


def keep(name, body):
    """Writes a 200's proof and public signals for circom.sh to verify with snarkjs."""
    answer = json.loads(body)
    check(set(answer) == {"proof", "publicSignals"}, name + ": answer members " + str(sorted(answer)))
    check(answer["proof"].get("protocol") == "groth16" and answer["proof"].get("curve") == "bls12381",
          name + ": not a bls12381 groth16 proof")
    with open(os.path.join(out, name + ".proof.json"), "w") as f:
        json.dump(answer["proof"], f)
    with open(os.path.join(out, name + ".public.json"), "w") as f:
        json.dump(answer["publicSignals"], f)


def expect_error(address, status, method, path, body=None, said=None, headers=None):
    got, text, answer_headers = request(address, method, path, body, headers)
    what = "%s %s: %d" % (method, path, got)
    check(got == status, "%s, expected %d: %r" % (what, status, text[:300]))
    try:
        message = json.loads(text)["error"]
    except (ValueError, KeyError, TypeError):
        check(False, what + ": not a JSON error: %r" % text[:300])
        return
    if said is not None:
        check(said in message, "%s: the error %r does not say %r" % (what, message, said))
    if status == 503:
        check("Retry-After" in answer_headers, what + ": no Retry-After")
    say("%s %s -> %d %s" % (method, path, got, message))


inputs = ["g1", "g2", "g3", "g4", "g5", "g6"]

# ---- one server: concurrent proofs, the other pages, every error -------------------------------------------
server, address = start("--max-body", "4096", "--read-timeout", "2", "--connections", "16")
try:
    results = {}

    def prove(name, index):
        if index % 3 == 2:  # a .wtns to the key served without its circuit
            status, body, _ = request(address, "POST", "/prove/wtns-only", read("snarkjs/%s.wtns" % name),
                                      {"Content-Type": "application/octet-stream"})
        elif index % 3 == 1:  # a .wtns recognised by its magic, to the key with its circuit
            status, body, _ = request(address, "POST", "/prove/key", read("snarkjs/%s.wtns" % name))
        else:
            status, body, _ = request(address, "POST", "/prove/key", read("inputs/%s.json" % name),
                                      {"Content-Type": "application/json"})
        results["%s-%d" % (name, index)] = (status, body)

    started = time.monotonic()
    threads = [threading.Thread(target=prove, args=(name, i)) for name in inputs for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    say("%d concurrent proof requests answered in %.2f s" % (len(threads), time.monotonic() - started))
    for name, (status, body) in sorted(results.items()):
        check(status == 200, "%s: status %d: %r" % (name, status, body[:300]))
        if status == 200:
            keep(name, body)

    status, body, headers = request(address, "GET", "/healthz")
    check(status == 200 and body == b"serving\n", "GET /healthz: %d %r" % (status, body))
    status, body, _ = request(address, "GET", "/keys")
    keys = json.loads(body)["keys"]
    check(status == 200 and [k["name"] for k in keys] == ["key", "wtns-only"], "GET /keys: %r" % body)
    check(keys[0]["inputJson"] is True and keys[1]["inputJson"] is False, "GET /keys: inputJson %r" % keys)
    check(keys[0]["variables"] > 0 and keys[0]["publicSignals"] == 2, "GET /keys: sizes %r" % keys)
    with open(os.path.join(work, "vk.json")) as f:
        snarkjs_curve = json.load(f)["curve"]  # as `snarkjs zkey export verificationkey` names it
    check([k["curve"] for k in keys] == [snarkjs_curve] * 2, "GET /keys: curves %r, snarkjs says %r" %
          ([k["curve"] for k in keys], snarkjs_curve))
    status, body, headers = request(address, "GET", "/metrics")
    page = body.decode()
    check(status == 200 and "proofline_serve_proofs_total %d\n" % len(threads) in page,
          "GET /metrics: no proofline_serve_proofs_total %d" % len(threads))
    check("proofline_serve_responses_total{status=\"200\"}" in page, "GET /metrics: no responses by status")
    check("proofline_serve_in_flight 0\n" in page, "GET /metrics: requests still in flight")

    # Unusable input: the messages `proofline prove` gives.
    expect_error(address, 400, "POST", "/prove/key", b'{"a": "3", "b": ', said="not JSON")
    expect_error(address, 400, "POST", "/prove/key", b'{"a": "3", "b": "7", "c": "49", "d": "1"}', said='"d"')
    expect_error(address, 400, "POST", "/prove/key", b'{"a": "3", "b": "7"}', said="input signal of main missing")
    expect_error(address, 400, "POST", "/prove/key", b'{"a": ["3", "4"], "b": "7", "c": "49"}',
                 said="expects 1 value")
    expect_error(address, 400, "POST", "/prove/wtns-only", read("inputs/g1.json"), said="without --circuit")
    expect_error(address, 400, "POST", "/prove/key", b"wtns" + b"\x02\x00\x00\x00" + b"\x00" * 8,
                 said="the request's witness (.wtns)")
    # A witness of another length is refused before it is queued; values that are no witness fail in synthesis,
    # as a file's would, and are the client's error too.
    sections = wtns_sections(read("snarkjs/g1.wtns"))
    header, values = sections[1], sections[2]
    count = struct.unpack_from("<I", header, 36)[0]
    expect_error(address, 400, "POST", "/prove/key",
                 wtns_image(header[:36] + struct.pack("<I", count - 1), values[:-32]),
                 said="the witness has %d values, key 'key' expects %d variables" % (count - 1, count))
    expect_error(address, 400, "POST", "/prove/key", wtns_image(header, (2).to_bytes(32, "little") + values[32:]),
                 said="w[0] is not 1")
    expect_error(address, 400, "POST", "/prove/wtns-only", wtns_image(header, values[:32] + b"\xff" * 32 + values[64:]),
                 said="the value at index 1 is not below the field modulus r")
    # A witness that does not satisfy the circuit: prove's exit 1.
    expect_error(address, 422, "POST", "/prove/key", b'{"a": "3", "b": "7", "c": "48"}',
                 said="does not satisfy the circuit")
    expect_error(address, 422, "POST", "/prove/key", b'{"a": "0", "b": "7", "c": "49"}',
                 said="does not satisfy the circuit")
    # Names, paths and methods.
    expect_error(address, 404, "POST", "/prove/nope", read("inputs/g1.json"), said="no key named 'nope'")
    expect_error(address, 404, "POST", "/prove", read("inputs/g1.json"), said="POST to /prove/NAME")
    expect_error(address, 404, "GET", "/nowhere", said="no such path")
    expect_error(address, 405, "GET", "/prove/key", said="POST")
    expect_error(address, 405, "PUT", "/prove/key", b"{}", said="method PUT is not allowed")
    expect_error(address, 405, "POST", "/keys", b"{}", said="only GET and HEAD")
    # Sizes: over --max-body, no length at all, garbage.
    expect_error(address, 413, "POST", "/prove/key", b"{" + b" " * 5000 + b"}", said="over the 4096-byte limit")
    answer = raw(address, b"POST /prove/key HTTP/1.1\r\nHost: x\r\n\r\n{}")
    check(answer.startswith(b"HTTP/1.1 411 "), "no Content-Length: %r" % answer[:100])
    answer = raw(address, b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n")
    check(answer.startswith(b"HTTP/1.1 400 ") and b'"error"' in answer, "garbage: %r" % answer[:100])

    # A client that sends half its body and stalls holds one connection until the read timeout (2 s, then 408),
    # never the others.
    host, port = address.rsplit(":", 1)
    stalled = socket.create_connection((host, int(port)), timeout=30)
    stalled.sendall(b"POST /prove/key HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"a\": ")
    started = time.monotonic()
    status, body, _ = request(address, "POST", "/prove/key", read("inputs/g1.json"))
    took = time.monotonic() - started
    check(status == 200 and took < 1.5, "a request beside a stalled one: %d after %.2f s" % (status, took))
    answer = stalled.recv(65536)
    check(answer.startswith(b"HTTP/1.1 408 "), "the stalled client: %r" % answer[:100])
    stalled.close()
    say("a stalled client was answered 408 after %.2f s; the request beside it took %.2f s" %
        (time.monotonic() - started, took))
finally:
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=60)
check(code == 0, "the first server exited %d after SIGTERM" % code)

# ---- SIGTERM with requests in flight: they are answered, then exit 0 ---------------------------------------
server, address = start("--read-timeout", "20")
host, port = address.rsplit(":", 1)
body = read("inputs/g2.json")
in_flight = []
for i in range(4):
    s = socket.create_connection((host, int(port)), timeout=60)
    # Head and half the body: the connection is accepted and its request on its way when the signal comes.
    s.sendall(b"POST /prove/key HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:5])
    in_flight.append(s)
time.sleep(0.3)
server.send_signal(signal.SIGTERM)
time.sleep(0.3)
refused = False
try:
    raw(address, b"GET /healthz HTTP/1.1\r\n\r\n", timeout=5)
except OSError:
    refused = True
check(refused, "a connection after SIGTERM was accepted")
for i, s in enumerate(in_flight):
    s.sendall(body[5:])
    answer = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        answer += chunk
    s.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    check(head.startswith(b"HTTP/1.1 200 "), "in-flight request %d after SIGTERM: %r" % (i, answer[:200]))
    if head.startswith(b"HTTP/1.1 200 "):
        keep("g2-sigterm%d" % i, payload)
code = server.wait(timeout=60)
check(code == 0, "the server exited %d after SIGTERM with requests in flight" % code)

# ---- a second signal stops at once --------------------------------------------------------------------------
server, address = start("--read-timeout", "60")
host, port = address.rsplit(":", 1)
held = socket.create_connection((host, int(port)), timeout=60)
held.sendall(b"POST /prove/key HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
time.sleep(0.3)
started = time.monotonic()
server.send_signal(signal.SIGTERM)
time.sleep(0.2)
server.send_signal(signal.SIGTERM)
code = server.wait(timeout=30)
took = time.monotonic() - started
held.close()
check(code == 128 + signal.SIGTERM and took < 5,
      "a second SIGTERM: exit %d after %.2f s (expected %d at once)" % (code, took, 128 + signal.SIGTERM))

# ---- a full queue: 503 with Retry-After, the others proven ---------------------------------------------------
server, address = start("--queue", "1", "--slots", "1")
statuses = []
for attempt in range(5):  # many requests at once against a queue of one: some find it full
    answers = []

    def ask_one():
        answers.append(request(address, "POST", "/prove/key", read("inputs/g3.json")))

    threads = [threading.Thread(target=ask_one) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for status, body, headers in answers:
        statuses.append(status)
        if status == 503:
            check(json.loads(body)["error"] == "the queue is full" and headers.get("Retry-After") == "1",
                  "a full queue: %r %r" % (body, headers))
    if 503 in statuses and 200 in statuses:
        break
check(set(statuses) == {200, 503}, "a queue of one under 16 requests at once: statuses %r" % sorted(set(statuses)))
server.send_signal(signal.SIGTERM)
check(server.wait(timeout=60) == 0, "the queue-of-one server: not exit 0")

# ---- keys named by their files; a body that does not fit in --body-memory beside another -------------------
import shutil
shutil.copyfile(os.path.join(work, "key.zkey"), os.path.join(out, "key.zkey"))
command = [proofline, "serve", os.path.join(work, "key.zkey"), "--key", os.path.join(out, "key.zkey"),
           "--listen", "127.0.0.1:0", "--backend", "cpu", "--max-body", "4096", "--body-memory", "6000"]
server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
line = server.stdout.readline()
address = re.search(r"listening on http://(\S+)", line).group(1)
expected = ["key", os.path.basename(os.path.normpath(out)) + "/key"]
check("(keys: key (bls12381, .wtns only), %s (bls12381, .wtns only))" % expected[1] in line,
      "the startup line: %r" % line)
names = [k["name"] for k in json.loads(request(address, "GET", "/keys")[1])["keys"]]
check(names == expected, "two files named key.zkey are served as %r, expected %r" % (names, expected))
# 4000 bytes announced and still arriving hold that much of the 6000: a .wtns of about 2 KiB must wait.
wtns = read("snarkjs/g1.wtns")
check(4000 + len(wtns) > 6000 and len(wtns) <= 4096, "the .wtns is %d bytes" % len(wtns))
host, port = address.rsplit(":", 1)
held = socket.create_connection((host, int(port)), timeout=30)
held.sendall(b"POST /prove/key HTTP/1.1\r\nContent-Length: 4000\r\n\r\n" + b" " * 10)
time.sleep(0.5)
expect_error(address, 503, "POST", "/prove/key", wtns, said="body memory (6000 bytes)")
held.sendall(b" " * 3990)
answer = held.recv(65536)
check(answer.startswith(b"HTTP/1.1 400 "), "the held body, once whole: %r" % answer[:100])
held.close()
status, body, _ = request(address, "POST", "/prove/key", wtns)
check(status == 200, "the .wtns once the held body is answered: %d %r" % (status, body[:300]))
server.send_signal(signal.SIGINT)
check(server.wait(timeout=60) == 0, "SIGINT: not exit 0")
os.remove(os.path.join(out, "key.zkey"))


# ---- bursts of large bodies leave no resident memory behind ------------------------------------------------
# Each body is read on a connection thread and freed once answered; glibc would keep such blocks in the threads'
# arenas (its mmap threshold rises to the largest block freed) and the server would stay at its largest burst.
def resident_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS:"))


command = [proofline, "serve", os.path.join(work, "key.zkey"), "--listen", "127.0.0.1:0", "--backend", "cpu",
           "--max-body", "16M", "--body-memory", "1G", "--connections", "32"]
server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
address = re.search(r"listening on http://(\S+)", server.stdout.readline()).group(1)
expect_error(address, 400, "POST", "/prove/key", b"wtns" + bytes(1000), said="wtns")
before = resident_mib(server.pid)
statuses = []
for burst in range(3):
    # Bodies of 4 to 15 MiB that begin as a .wtns and are not one: each is read whole, then refused.
    bodies = [b"wtns" + bytes(((4 + (i * 7) % 12) << 20) - 4) for i in range(24)]
    threads = [threading.Thread(target=lambda b=b: statuses.append(request(address, "POST", "/prove/key", b)[0]))
               for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
after = resident_mib(server.pid)
check(statuses == [400] * 72, "bursts of large bodies: statuses %r" % sorted(set(statuses)))
check(after - before < 48, "three bursts of 24 bodies of 4-15 MiB left the server at %d MiB resident, %d before" %
      (after, before))
say("bursts of large bodies: %d MiB resident before, %d after" % (before, after))
server.send_signal(signal.SIGTERM)
check(server.wait(timeout=60) == 0, "the large-body server: not exit 0")


# ---- options refused (exit 2) -------------------------------------------------------------------------------
def refused(said, *args):
    done = subprocess.run([proofline, "serve", *args], capture_output=True, text=True, timeout=120)
    check(done.returncode == 2 and said in done.stderr,
          "proofline serve %s: exit %d, %r (expected 2, saying %r)" % (" ".join(args), done.returncode,
                                                                        done.stderr, said))


key = os.path.join(work, "key.zkey")
refused("--circuit: given twice for one key", key, "--circuit", "a", "--circuit", "b")
refused("is given to two keys", key, "--name", "k", "--key", key, "--name", "k")
refused("give HOST:PORT or :PORT", key, "--listen", "8080")
refused("the port must be a number from 0 to 65535", key, "--listen", "127.0.0.1:65536")
refused("--max-body", key, "--max-body", "10")
refused("--body-memory 4.00 KiB is less than --max-body 8.00 KiB", key, "--max-body", "8K",
        "--body-memory", "4K")
refused("--body-memory: 0 is less than", key, "--body-memory", "0")
refused("--body-memory: 2T is absurd", key, "--body-memory", "2T")
refused("no-such.zkey", os.path.join(work, "no-such.zkey"))

# ---- keys of both curves side by side ----------------------------------------------------------------------
if len(sys.argv) > 6:
    work_bn, out_bn = sys.argv[5], sys.argv[6]
    command = [proofline, "serve", os.path.join(work, "key.zkey"), "--circuit", os.path.join(work, "check_cpp"),
               "--name", "bls", "--key", os.path.join(work_bn, "key.zkey"), "--circuit",
               os.path.join(work_bn, "check_cpp"), "--name", "bn", "--listen", "127.0.0.1:0", "--cache-dir", cache,
               "--backend", "cpu"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    found = re.search(r"listening on http://(\S+)", line)
    check(found is not None, "no address from the two-curve server: %r" % line)
    if found:
        address = found.group(1)
        keys = json.loads(request(address, "GET", "/keys")[1])["keys"]
        check([(k["name"], k["curve"]) for k in keys] == [("bls", "bls12381"), ("bn", "bn128")],
              "two curves: /keys %r" % keys)
        check("(keys: bls (bls12381, input JSON or .wtns), bn (bn128, input JSON or .wtns))" in line,
              "two curves: the startup line %r" % line)
        answers = {}

        def prove_bn(name, wtns):
            if wtns:
                with open(os.path.join(out_bn, "wtns", name + ".wtns"), "rb") as f:
                    body = f.read()
            else:
                with open(os.path.join(work_bn, "inputs", name + ".json"), "rb") as f:
                    body = f.read()
            answers["%s-%s" % (name, "wtns" if wtns else "json")] = request(address, "POST", "/prove/bn", body)

        def prove_bls(name):
            answers["bls-" + name] = request(address, "POST", "/prove/bls", read("inputs/%s.json" % name))

        threads = [threading.Thread(target=prove_bn, args=(name, wtns)) for name in inputs for wtns in (False, True)]
        threads += [threading.Thread(target=prove_bls, args=(name,)) for name in inputs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name, (status, body, _) in sorted(answers.items()):
            check(status == 200, "two curves, %s: %d %r" % (name, status, body[:300]))
            if status != 200:
                continue
            answer = json.loads(body)
            curve = answer["proof"]["curve"]
            if name.startswith("bls-"):
                check(curve == "bls12381", name + ": curve " + curve)
                keep(name[4:] + "-both", body)
            else:
                check(curve == "bn128", name + ": curve " + curve)
                with open(os.path.join(out_bn, name + ".proof.json"), "w") as f:
                    json.dump(answer["proof"], f)
                with open(os.path.join(out_bn, name + ".public.json"), "w") as f:
                    json.dump(answer["publicSignals"], f)
        expect_error(address, 400, "POST", "/prove/bn", read("snarkjs/g1.wtns"), said="BLS12-381")
        server.send_signal(signal.SIGTERM)
        check(server.wait(timeout=60) == 0, "the two-curve server: not exit 0")

if failures:
    sys.exit("serve-test: %d checks failed" % len(failures))
say("every check passed")
