#!/usr/bin/env python3
"""End-to-end tests of proofline-fleet against the fixture's PostgreSQL server (pg_server.sh).

  fleet_e2e.py drain --fleet BIN --state DIR --fixtures DIR   one worker, SIGTERM while it holds jobs: it
                                                              finishes and delivers them and exits 0
  fleet_e2e.py chaos --fleet BIN --state DIR --fixtures DIR   3 CPU workers, 300 jobs plus bad ones, one worker
                                                              SIGKILLed and the server restarted mid-run
  fleet_e2e.py curves --fleet BIN --state DIR --fixtures DIR  one worker proves bn128 and bls12381 keys side by
                                                              side (witnesses by path and inline); a witness of
                                                              the other curve fails its job naming both
  fleet_e2e.py operator --fleet BIN --state DIR --fixtures DIR an operator's mistakes: a second worker under a
                                                              live one's name, a cancelled statement, a key
                                                              replaced between jobs and under running ones, a
                                                              --check-vk of no key or of another key, a
                                                              --zkey that is no key, a URL that cannot be parsed
  fleet_e2e.py stuck --fleet BIN --state DIR --fixtures DIR    workers connecting to a server that never answers,
                                                              or waiting on a frozen backend or on a lock, still
                                                              stop on SIGTERM: at once, at the drain
                                                              timeout, or on a second SIGTERM
  fleet_e2e.py stop-now --fleet BIN --state DIR --fixtures DIR a second SIGTERM during long jobs puts them back
                                                              in the queue at once and another worker proves them
  fleet_e2e.py reattach --fleet BIN --state DIR --fixtures DIR `wait` collects jobs submitted earlier, by batch
                                                              or ids, as `submit --wait` would

Each run makes its own database on the server and its own temporary folder, and removes both.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

PSQL = os.environ.get("PROOFLINE_PSQL", "/usr/lib/postgresql/15/bin/psql")
PASSWORD = "s3cret-pw-never-logged"  # trust auth accepts it; the logs must never show it


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message, flush=True)


class Fleet:
    def __init__(self, args, name):
        self.args = args
        self.base = open(os.path.join(args.state, "conninfo")).read().strip()
        self.port = open(os.path.join(args.state, "port")).read().strip()
        self.db = "e2e_%s_%d" % (name, os.getpid())
        self.dir = tempfile.mkdtemp(prefix="proofline-fleet-e2e.")
        self.procs = []
        self.sql_admin("CREATE DATABASE " + self.db)
        self.url_file = os.path.join(self.dir, "db-url")
        with open(self.url_file, "w") as f:
            f.write("postgresql://proofline:%s@127.0.0.1:%s/%s\n" % (PASSWORD, self.port, self.db))
        os.chmod(self.url_file, 0o600)

    def sql_admin(self, sql):
        subprocess.run([PSQL, "-X", "-q", "-v", "ON_ERROR_STOP=1", self.base, "-c", sql], check=True)

    def sql(self, sql):
        out = subprocess.run([PSQL, "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", self.base + " dbname=" + self.db,
                              "-c", sql], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def sql_or_none(self, sql):
        """None while the statement fails (e.g. before a worker made the schema)."""
        try:
            return self.sql(sql)
        except subprocess.CalledProcessError:
            return None

    def count(self, where):
        return int(self.sql("SELECT count(*) FROM proofline.jobs WHERE " + where) or 0)

    def start(self, argv, log_name, env_url=False, url_file=None):
        env = dict(os.environ)
        if env_url:  # the other way in: the URL from the environment
            env["PROOFLINE_DB_URL"] = open(self.url_file).read().strip()
        else:
            argv = argv + ["--db-url-file", url_file or self.url_file]
        log = open(os.path.join(self.dir, log_name), "w")
        proc = subprocess.Popen([self.args.fleet] + argv, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.procs.append(proc)
        return proc

    def worker(self, name, lease=4, extra=(), url_file=None):
        return self.start(["worker", "--name", name, "--backend", "cpu", "--lease", str(lease), "--threads", "2",
                           "--zkey-check", "curve", *extra], name + ".log", url_file=url_file)

    def log(self, name):
        return open(os.path.join(self.dir, name)).read()

    def wait_for(self, what, predicate, timeout=60):
        """Polls the predicate; a statement that fails (the schema not made yet, the server restarting) is a no."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                if predicate():
                    return
            except subprocess.CalledProcessError:
                pass
            time.sleep(0.1)
        fail("timed out waiting for " + what)

    def wait_for_workers(self, count):
        self.wait_for("%d workers to register" % count,
                      lambda: self.sql_or_none("SELECT count(*) FROM proofline.workers") == str(count))

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        try:
            self.sql_admin("DROP DATABASE IF EXISTS %s WITH (FORCE)" % self.db)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def print_logs_if_asked(fleet):
    """With PROOFLINE_FLEET_KEEP_LOGS set, the end of every log and the queue's state, for a run that failed."""
    if os.environ.get("PROOFLINE_FLEET_KEEP_LOGS"):
        for name in sorted(os.listdir(fleet.dir)):
            if name.endswith(".log"):
                print("==== %s\n%s" % (name, fleet.log(name)[-3000:]))
        print("==== jobs by state and worker (now %s)\n%s" % (
            fleet.sql_or_none("SELECT now()"),
            fleet.sql_or_none("SELECT state, worker, count(*), min(lease_expires), max(attempts) "
                              "FROM proofline.jobs GROUP BY 1, 2 ORDER BY 1, 2")))
        print("==== workers\n%s" % fleet.sql_or_none("SELECT * FROM proofline.workers"))


def copies(fleet, source, stem, count):
    paths = []
    for i in range(count):
        path = os.path.join(fleet.dir, "%s%d.wtns" % (stem, i))
        shutil.copyfile(source, path)
        paths.append(path)
    return paths


def no_secret_in_logs(fleet):
    for name in os.listdir(fleet.dir):
        if name.endswith(".log") and PASSWORD in fleet.log(name):
            fail("%s shows the database password" % name)
    print("ok: no log shows the database password", flush=True)


def test_drain(args):
    fleet = Fleet(args, "drain")
    try:
        chain = os.path.join(args.fixtures, "chain_1024")
        wtns = copies(fleet, os.path.join(chain, "witness.wtns"), "d", 12)
        worker = fleet.worker("drainer", lease=30)
        # Idle first (its first claim found nothing): only the NOTIFY of the insert can wake it before its
        # 30-second safety claim.
        fleet.wait_for_workers(1)
        submit = fleet.start(["submit", "--zkey", os.path.join(chain, "circuit_final.zkey"), "--wtns"] + wtns,
                             "submit.log", env_url=True)
        check(submit.wait(timeout=30) == 0, "submit queues 12 jobs")
        fleet.wait_for("the idle worker to be woken by NOTIFY and claim", lambda: fleet.count("state = 'running'") > 0,
                       timeout=10)
        # Frozen with its jobs, the worker's heartbeat row is older than its claim: status counts the queue.
        worker.send_signal(signal.SIGSTOP)
        time.sleep(0.3)
        held = fleet.count("state = 'running'")
        status = subprocess.run([args.fleet, "status", "--db-url-file", fleet.url_file], capture_output=True,
                                text=True, timeout=30)
        check(status.returncode == 0 and ("holds %d of" % held) in status.stdout,
              "status shows the %d jobs the worker holds now: %s" % (held, status.stdout.strip()))
        queued = fleet.count("state = 'queued'")
        check(queued == 0 or ('queued by key (1 key):\n  "%s": %d, the oldest waiting'
                              % (os.path.join(chain, "circuit_final.zkey"), queued)) in status.stdout,
              "status counts the %d queued jobs by key: %s" % (queued, status.stdout.strip()))
        # Leases that ran out (a worker gone) are told apart from running jobs, then given back their time.
        fleet.sql("UPDATE proofline.jobs SET lease_expires = now() - interval '1 second' WHERE state = 'running'")
        status = subprocess.run([args.fleet, "status", "--db-url-file", fleet.url_file], capture_output=True,
                                text=True, timeout=30)
        check(("%d running past their lease" % held) in status.stdout,
              "status names leases that ran out: " + status.stdout.strip())
        fleet.sql("UPDATE proofline.jobs SET lease_expires = now() + interval '30 seconds' WHERE state = 'running'")
        worker.send_signal(signal.SIGCONT)
        worker.send_signal(signal.SIGTERM)
        check(worker.wait(timeout=60) == 0, "SIGTERM while holding %d jobs: the worker exits 0" % held)
        check(fleet.count("state = 'running'") == 0, "nothing is left running")
        done = fleet.count("state = 'done'")
        check(done >= held, "every job it held was finished and delivered (%d done)" % done)
        check(done + fleet.count("state = 'queued' AND attempts = 0") == 12, "the rest were never claimed")
        check(fleet.sql("SELECT count(*) FROM proofline.workers") == "0", "the worker left the workers table")
        check("stopping: claiming nothing more" in fleet.log("drainer.log"), "the worker logged its drain")
        no_secret_in_logs(fleet)
    finally:
        fleet.close()


def submit_groups(fleet, args):
    """Three submissions waiting for their results: 280 witnesses by path plus three broken ones, 20 inline,
    and 2 for a key file that does not load."""
    chain = os.path.join(args.fixtures, "chain_1024")
    zkey = os.path.join(chain, "circuit_final.zkey")
    good = copies(fleet, os.path.join(chain, "witness.wtns"), "w", 280)
    inline = copies(fleet, os.path.join(chain, "witness.wtns"), "i", 20)
    corrupt = os.path.join(fleet.dir, "corrupt.wtns")
    with open(os.path.join(chain, "witness.wtns"), "rb") as f, open(corrupt, "wb") as out:
        out.write(f.read()[:100])
    other = os.path.join(fleet.dir, "other.wtns")
    shutil.copyfile(os.path.join(args.fixtures, "chain_16", "witness.wtns"), other)
    # A key whose header is sound (submit reads it) but one of whose A points is not on the curve: the workers
    # find it when they load the key.
    bad_key = os.path.join(fleet.dir, "bad.zkey")
    with open(zkey, "rb") as f:
        image = bytearray(f.read())
    at, sections = 12, int.from_bytes(image[8:12], "little")
    for _ in range(sections):
        kind, size = int.from_bytes(image[at:at + 4], "little"), int.from_bytes(image[at + 4:at + 12], "little")
        if kind == 5:  # the A query
            image[at + 12 + 10] ^= 1
        at += 12 + size
    with open(bad_key, "wb") as f:
        f.write(image)
    missing = os.path.join(fleet.dir, "missing.wtns")
    vk = os.path.join(chain, "verification_key.json")
    out_a, out_b = os.path.join(fleet.dir, "out-a"), os.path.join(fleet.dir, "out-b")
    common = ["--wait", "--check-vk", vk]
    return {
        "a": fleet.start(["submit", "--zkey", zkey, "--out", out_a, "--wtns"] + good + [missing, corrupt, other] +
                         common, "submit-a.log"),
        "b": fleet.start(["submit", "--zkey", zkey, "--inline", "--priority", "1", "--out", out_b, "--wtns"] +
                         inline + common, "submit-b.log", env_url=True),
        "c": fleet.start(["submit", "--zkey", bad_key, "--wtns"] + good[:2] + ["--wait"], "submit-c.log"),
        "out_a": out_a, "out_b": out_b,
    }


class Pace:
    """The proofs per second the workers reach on this machine, measured between marks, so that a wait for
    more proofs allows for a slow machine (a sanitized build, a loaded host) instead of a fixed time."""

    def __init__(self, fleet):
        self.fleet = fleet
        self.mark()

    def mark(self):
        self.at, self.done = time.time(), self.fleet.count("state = 'done'")

    def allow(self, proofs, least):
        """Seconds for `proofs` more proofs: three times what they take at the pace since the last mark, and at
        least `least`. Marks again."""
        at, done = self.at, self.done
        self.mark()
        rate = (self.done - done) / max(self.at - at, 1e-3)
        return least if rate <= 0 else max(least, 3 * proofs / rate)


def chaos_checks(fleet, subs, allowed):
    check(subs["a"].wait(timeout=allowed) == 1, "submission a ends with exit 1 (its three broken witnesses fail)")
    check(subs["b"].wait(timeout=30) == 0, "submission b (inline witnesses) ends with exit 0")
    check(subs["c"].wait(timeout=30) == 1, "submission c (a key that does not load) ends with exit 1")
    log_a, log_b, log_c = fleet.log("submit-a.log"), fleet.log("submit-b.log"), fleet.log("submit-c.log")
    check("280 done, 3 failed; 280 of the proofs verify" in log_a, "a: 280 proofs verify, 3 failures")
    check("20 done, 0 failed; 20 of the proofs verify" in log_b, "b: 20 proofs verify")
    check("0 done, 2 failed" in log_c, "c: both jobs failed")
    for name in ("missing.wtns", "corrupt.wtns", "other.wtns"):
        check(fleet.count("state = 'failed' AND error LIKE '%%%s%%'" % name) == 1, "the failure names " + name)
    check(fleet.count("state = 'failed' AND error LIKE 'key %bad.zkey%'") == 2, "both bad-key failures name the key")
    check(fleet.count("state = 'done'") == 300, "300 jobs are done")
    check(fleet.sql("SELECT count(*), count(DISTINCT job_id) FROM proofline.results") == "300|300",
          "300 results, one per job")
    check(fleet.sql("SELECT count(*) FROM proofline.jobs j JOIN proofline.results r ON r.job_id = j.id "
                    "WHERE j.state = 'done' AND r.attempt = j.attempts AND r.worker = j.worker AND r.verified") == "300",
          "each result comes from the job's last lease and was verified by its worker")
    check(fleet.count("state = 'done' AND attempts >= 2") >= 1, "jobs of the killed worker were proved again "
          "(%d with 2+ attempts)" % fleet.count("state = 'done' AND attempts >= 2"))
    check(fleet.count("witness_inline IS NOT NULL") == 0, "no inline witness is left in the database")
    check(len([f for f in os.listdir(subs["out_a"]) if f.endswith(".proof.json")]) == 280, "a wrote 280 proofs")
    check(len([f for f in os.listdir(subs["out_b"]) if f.endswith(".public.json")]) == 20, "b wrote 20 publics")


def test_chaos(args):
    fleet = Fleet(args, "chaos")
    started = time.time()
    try:
        workers = [fleet.worker("w%d" % i) for i in range(3)]
        fleet.wait_for_workers(3)  # the schema exists and every worker takes part from the first job
        subs = submit_groups(fleet, args)
        pace = Pace(fleet)
        fleet.wait_for("w1 to hold jobs after 30 proofs",
                       lambda: fleet.count("state = 'done'") >= 30 and fleet.count("state = 'running' AND worker = 'w1'") > 0,
                       timeout=180)
        workers[1].send_signal(signal.SIGKILL)
        print("killed w1 holding %d jobs" % fleet.count("state = 'running' AND worker = 'w1'"), flush=True)
        fleet.wait_for("120 proofs", lambda: fleet.count("state = 'done'") >= 120, timeout=pace.allow(90, 150))
        subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "pg_server.sh"), "restart",
                        args.state], check=True)
        print("restarted PostgreSQL at %.1f s" % (time.time() - started), flush=True)
        left = 300 - fleet.count("state = 'done'")
        chaos_checks(fleet, subs, pace.allow(left, 200))
        check(any("lost the database" in fleet.log(w + ".log") for w in ("w0", "w2")),
              "the workers noticed the restart and reconnected")
        for i in (0, 2):
            workers[i].send_signal(signal.SIGTERM)
            check(workers[i].wait(timeout=30) == 0, "w%d stops on SIGTERM with exit 0" % i)
        no_secret_in_logs(fleet)
        print("chaos run took %.1f s" % (time.time() - started), flush=True)
    finally:
        print_logs_if_asked(fleet)
        fleet.close()


def read(path):
    with open(path) as f:
        return f.read()


def test_curves(args):
    fleet = Fleet(args, "curves")
    try:
        bn = os.path.join(args.fixtures, "bn128", "chain_16")
        bls = os.path.join(args.fixtures, "chain_16")
        bn_wtns = copies(fleet, os.path.join(bn, "witness.wtns"), "bn", 4)
        bls_wtns = copies(fleet, os.path.join(bls, "witness.wtns"), "bls", 3)
        wrong = os.path.join(fleet.dir, "wrong.wtns")
        shutil.copyfile(os.path.join(bls, "witness.wtns"), wrong)
        # Inline and broken: the other curve's witness (refused by its header when the worker takes it), and
        # w[0] = 2 (refused where synthesis reads the values); both fail for good at their first attempt.
        wrong_inline = os.path.join(fleet.dir, "wrong-inline.wtns")
        shutil.copyfile(os.path.join(bls, "witness.wtns"), wrong_inline)
        not_one = os.path.join(fleet.dir, "not-one.wtns")
        with open(bn_wtns[0], "rb") as f:
            image = bytearray(f.read())
        first = 76  # snarkjs's layout: the magic, version, section count, the header section, the values' head
        check(image[first:first + 32] == b"\x01" + bytes(31), "the bn128 witness's w[0] is 1 at byte 76")
        image[first] = 2
        with open(not_one, "wb") as f:
            f.write(image)
        bad = subprocess.run([args.fleet, "worker", "--max-log-rows", "40"], capture_output=True, text=True)
        check(bad.returncode == 2 and "--max-log-rows" in bad.stderr, "--max-log-rows 40 is refused (exit 2)")
        bad = subprocess.run([args.fleet, "worker", "--name", "  "], capture_output=True, text=True)
        check(bad.returncode == 2 and "--name" in bad.stderr, "a blank worker name is refused (exit 2)")
        bad = subprocess.run([args.fleet, "wrker\x1b[2J"], capture_output=True, text=True)
        check(bad.returncode == 2 and "unknown command 'wrker\\u001b[2J'" in bad.stderr and "submit" in bad.stderr
              and bad.stdout == "", "an unknown command is named, escaped, with the commands, on stderr (exit 2)")
        empty = os.path.join(fleet.dir, "empty.wtns")
        open(empty, "wb").close()
        for witness, why in ((os.path.join(fleet.dir, "missing.wtns"), "cannot open"), (fleet.dir, "not a regular"),
                             (empty, "the file is empty")):
            bad = subprocess.run([args.fleet, "submit", "--zkey", os.path.join(bn, "circuit_final.zkey"), "--inline",
                                  "--wtns", witness, "--db-url-file", fleet.url_file], capture_output=True, text=True)
            check(bad.returncode == 2 and "--wtns: " + witness in bad.stderr and why in bad.stderr,
                  "submit --inline refuses %s before anything is queued (exit 2): %s" % (witness, bad.stderr))
        closed = os.path.join(fleet.dir, "closed-url")  # nothing listens there: nothing gets queued
        with open(closed, "w") as f:
            f.write("postgresql://proofline:%s@127.0.0.1:1/%s\n" % (PASSWORD, fleet.db))
        typo = subprocess.run([args.fleet, "submit", "--zkey", os.path.join(fleet.dir, "typo.zkey"), "--wtns",
                               os.path.join(fleet.dir, "typo.wtns"), "--db-url-file", closed],
                              capture_output=True, text=True, timeout=60)
        check(typo.returncode == 1 and "typo.zkey' is not a file here" in typo.stderr and
              "1 of the witness files are not files here" in typo.stderr,
              "submit warns of a key and a witness that are not files here: " + typo.stderr.strip())
        for address, why in (("nonsense", "HOST:PORT"), ("127.0.0.1:99999", "0 to 65535"),
                             ("%s:%s" % ("127.0.0.1", fleet.port), "cannot listen")):  # the server's own port
            bad = subprocess.run([args.fleet, "worker", "--backend", "cpu", "--metrics", address, "--db-url-file",
                                  fleet.url_file], capture_output=True, text=True, timeout=60)
            check(bad.returncode == 2 and "--metrics '%s'" % address in bad.stderr and why in bad.stderr,
                  "--metrics %s is refused (exit 2): %s" % (address, bad.stderr.strip()))
        # GPU slot sizing: accepted, unused on the CPU
        fleet.worker("both", extra=("--max-log-rows", "12", "--metrics", "127.0.0.1:0"))
        fleet.wait_for_workers(1)
        out_bn, out_inline, out_bls = (os.path.join(fleet.dir, d) for d in ("out-bn", "out-inline", "out-bls"))

        def submit(zkey_dir, wtns, out, log, extra=()):
            return fleet.start(["submit", "--zkey", os.path.join(zkey_dir, "circuit_final.zkey"), "--out", out,
                                "--wait", "--check-vk", os.path.join(zkey_dir, "verification_key.json"),
                                "--wtns"] + wtns + list(extra), log)

        subs = [submit(bn, bn_wtns[:2] + [wrong], out_bn, "submit-bn.log"),
                submit(bn, bn_wtns[2:] + [wrong_inline, not_one], out_inline, "submit-inline.log", ["--inline"]),
                submit(bls, bls_wtns, out_bls, "submit-bls.log")]
        codes = [p.wait(timeout=120) for p in subs]
        check(codes == [1, 1, 0], "bn128 by path (one wrong witness), bn128 inline (two broken) and bls12381 end %s"
              % codes)
        check("2 done, 1 failed; 2 of the proofs verify" in fleet.log("submit-bn.log"),
              "bn128 by path: both good proofs verify against the bn128 vk")
        check("2 done, 2 failed; 2 of the proofs verify" in fleet.log("submit-inline.log"),
              "bn128 inline: both good proofs verify")
        check("3 done, 0 failed; 3 of the proofs verify" in fleet.log("submit-bls.log"),
              "bls12381 beside them: three proofs verify")
        error = fleet.sql("SELECT error FROM proofline.jobs WHERE state = 'failed' AND name = 'wrong'")
        check("wrong.wtns" in error and "BLS12-381" in error and "BN254" in error,
              "the bls12381 witness for the bn128 key fails naming both curves: " + error)
        error = fleet.sql("SELECT error FROM proofline.jobs WHERE state = 'failed' AND name = 'wrong-inline'")
        check("inline witness: the witness is over BLS12-381's scalar field, not BN254's" in error,
              "the same witness inline fails naming both curves: " + error)
        error = fleet.sql("SELECT error FROM proofline.jobs WHERE state = 'failed' AND name = 'not-one'")
        check("inline witness: w[0] is not 1" in error, "an inline witness with w[0] = 2 fails naming it: " + error)
        check(fleet.sql("SELECT count(*) FROM proofline.jobs WHERE state = 'failed' AND attempts = 1") == "3",
              "and each fails for good at its first attempt")
        check(fleet.sql("SELECT curve, octet_length(proof), count(*) FROM proofline.results GROUP BY 1, 2 "
                        "ORDER BY 1") == "bls12381|192|3\nbn128|256|4",
              "the results table keeps each proof in its curve's encoding")
        for out, names in ((out_bn, ["bn0", "bn1"]), (out_inline, ["bn2", "bn3"])):
            for name in names:
                proof = read(os.path.join(out, name + ".proof.json"))
                check('"curve": "bn128"' in proof, name + ".proof.json names curve bn128")
                check(read(os.path.join(out, name + ".public.json")) == read(os.path.join(bn, "public.json")),
                      name + ".public.json is snarkjs's")
        for name in ("bls0", "bls1", "bls2"):
            check('"curve": "bls12381"' in read(os.path.join(out_bls, name + ".proof.json")),
                  name + ".proof.json names curve bls12381")
        check("bn128 key" in fleet.log("both.log") and "bls12381 key" in fleet.log("both.log"),
              "one worker registered keys of both curves")
        scrape_metrics(fleet, "both", proofs=7, failures=3, keys=2)
    finally:
        fleet.close()


def http_get(url):
    """(status, content type, body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type"), response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode()


def scrape_metrics(fleet, worker, proofs, failures, keys):
    """The worker's /metrics, /healthz and /livez (--metrics 127.0.0.1:0: its log names the port it got)
    after its jobs: the counters say what the database says."""
    match = re.search(r"metrics at http://([0-9.:]+)/metrics", fleet.log(worker + ".log"))
    check(match is not None, "the worker logs where its metrics are")
    base = "http://" + match.group(1)
    check(http_get(base + "/healthz")[0:3:2] == (200, "serving\n"), "/healthz: ready while it serves the queue")
    check(http_get(base + "/livez")[0:3:2] == (200, "alive\n"), "/livez: alive while its loop turns")
    check(http_get(base + "/nothing")[0] == 404, "another path is 404")

    def values():
        status, content_type, body = http_get(base + "/metrics")
        check(status == 200 and content_type.startswith("text/plain; version=0.0.4"), "/metrics answers")
        return dict(line.rsplit(" ", 1) for line in body.splitlines() if not line.startswith("#"))

    recorded = 'proofline_fleet_results_recorded_total{result="proof"}'
    fleet.wait_for("the worker to publish its recorded results", lambda: values()[recorded] == str(proofs), 10)
    m = values()
    check(m['proofline_fleet_results_recorded_total{result="failure"}'] == str(failures),
          "/metrics counts %d recorded failure(s)" % failures)
    check(m["proofline_proofs_total"] == str(proofs) and m["proofline_proof_seconds_count"] == str(proofs),
          "the pipeline's proofs and its latency histogram count %d proofs" % proofs)
    check(m["proofline_fleet_keys"] == str(keys) and m["proofline_host_keys"] == str(keys),
          "%d keys loaded" % keys)
    check(m["proofline_fleet_connected"] == "1" and m["proofline_fleet_jobs_held"] == "0",
          "connected, holding nothing")
    check(m['proofline_fleet_worker_info{name="%s"}' % worker] == "1", "the worker's name is a label")


def cancel_locked_statements(fleet, seconds):
    """Holds a lock on the jobs table for `seconds` and cancels every statement that waits for it, as an
    operator's pg_cancel_backend (or a statement_timeout) would; returns how many were cancelled."""
    holder = subprocess.Popen([PSQL, "-X", "-q", fleet.base + " dbname=" + fleet.db, "-c",
                               "BEGIN; LOCK TABLE proofline.jobs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(%d); "
                               "COMMIT;" % seconds], stdout=subprocess.DEVNULL)
    cancelled, end = 0, time.time() + seconds
    while time.time() < end:
        cancelled += int(fleet.sql("SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE "
                                   "wait_event_type = 'Lock' AND datname = current_database()") or 0)
        time.sleep(0.2)
    holder.wait(timeout=30)
    return cancelled


def test_operator(args):
    fleet = Fleet(args, "operator")
    try:
        bls = os.path.join(args.fixtures, "chain_16")
        big = os.path.join(args.fixtures, "chain_1024")
        key = os.path.join(fleet.dir, "current.zkey")
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        first = fleet.worker("ops", extra=("--prefetch", "64"))  # claims a whole submit at once (see below)
        fleet.wait_for_workers(1)

        second = fleet.start(["worker", "--name", "ops", "--backend", "cpu"], "ops-again.log")
        check(second.wait(timeout=30) == 2, "a second worker under a live worker's name exits 2")
        check("another worker named ops is running" in fleet.log("ops-again.log"), "naming the running one")
        check(first.poll() is None, "the first worker runs on")

        check(cancel_locked_statements(fleet, 4) >= 1, "a statement of the worker was cancelled")
        check(first.poll() is None, "the worker survives a cancelled statement")

        bad_vk = subprocess.run([args.fleet, "submit", "--zkey", key, "--wtns", os.path.join(bls, "witness.wtns"),
                                 "--wait", "--check-vk", key, "--db-url-file", fleet.url_file],
                                capture_output=True, text=True)
        check(bad_vk.returncode == 2 and "--check-vk" in bad_vk.stderr,
              "a --check-vk that is not a verification key exits 2: " + bad_vk.stderr.strip())
        check(fleet.count("true") == 0, "and queues nothing")
        # A key of another circuit or curve, and a --zkey that is no key: refused before anything is proven.
        mistakes = {"another circuit's": ["--check-vk", os.path.join(big, "verification_key.json")],
                    "the other curve's": ["--check-vk", os.path.join(args.fixtures, "bn128", "chain_16",
                                                                    "verification_key.json")]}
        for what, extra in mistakes.items():
            run = subprocess.run([args.fleet, "submit", "--zkey", key, "--wtns", os.path.join(bls, "witness.wtns"),
                                  "--wait", "--db-url-file", fleet.url_file] + extra, capture_output=True, text=True)
            check(run.returncode == 2 and "is not the verification key of " + key in run.stderr,
                  "--check-vk with %s verification key exits 2 naming the key: %s" % (what, run.stderr.strip()))
        not_key = subprocess.run([args.fleet, "submit", "--zkey", os.path.join(bls, "verification_key.json"),
                                  "--wtns", os.path.join(bls, "witness.wtns"), "--db-url-file", fleet.url_file],
                                 capture_output=True, text=True)
        check(not_key.returncode == 2 and "--zkey: " in not_key.stderr and "JSON" in not_key.stderr,
              "a --zkey that is a JSON file exits 2: " + not_key.stderr.strip())
        check(fleet.count("true") == 0, "and none of them queues anything")

        url = os.path.join(fleet.dir, "bad-url")
        with open(url, "w") as f:
            f.write("postgresql://proofline:%s%%zz@127.0.0.1:%s/%s\n" % (PASSWORD, fleet.port, fleet.db))
        for command in (["status"], ["worker", "--backend", "cpu"]):
            run = subprocess.run([args.fleet] + command + ["--db-url-file", url], capture_output=True, text=True,
                                 timeout=30)
            check(run.returncode == 2 and "cannot be parsed" in run.stderr and PASSWORD not in run.stderr,
                  "%s with a URL libpq cannot parse exits 2 without showing it: %s" % (command[0],
                                                                                    run.stderr.strip()))

        def submit(zkey_dir, log):
            return fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                                os.path.join(zkey_dir, "verification_key.json"), "--wtns",
                                os.path.join(zkey_dir, "witness.wtns")], log)

        check(submit(bls, "submit-old.log").wait(timeout=60) == 0, "the first key proves after the cancel")
        # The key file is replaced by another circuit's while the worker keeps the first registered: the next
        # job is proved with the new file's key.
        shutil.copyfile(os.path.join(big, "circuit_final.zkey"), key)
        os.utime(key, (time.time() + 5, time.time() + 5))
        check(submit(big, "submit-new.log").wait(timeout=120) == 0, "after the file is replaced, its new key proves")
        check("1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit-new.log"),
              "against the new circuit's verification key")

        # Replaced again while jobs of the current key run: they finish with the key they started with, and a
        # job queued after the replacement is proved with the new file's key. (Jobs name their key by path:
        # one still queued at the replacement would get the new file, so the worker claims all of them first.)
        running = fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                               os.path.join(big, "verification_key.json"), "--wtns",
                               *copies(fleet, os.path.join(big, "witness.wtns"), "big", 60)], "submit-running.log")
        fleet.wait_for("the worker to claim every job of the current key, some still running",
                       lambda: fleet.count("state = 'done'") >= 2 and fleet.count("state = 'queued'") == 0 and
                       fleet.count("state = 'running'") > 0)
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        os.utime(key, (time.time() + 10, time.time() + 10))
        check(submit(bls, "submit-after.log").wait(timeout=120) == 0, "a job queued after the replacement proves")
        check("1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit-after.log"),
              "with the replacing file's key")
        check(running.wait(timeout=120) == 0 and
              "60 done, 0 failed; 60 of the proofs verify" in fleet.log("submit-running.log"),
              "every job that ran during the replacement verifies against the key it started with")
        check("jobs started before keep the old one" in fleet.log("ops.log"),
              "the worker kept the running jobs' key while it loaded the new file")
        first.send_signal(signal.SIGTERM)
        check(first.wait(timeout=30) == 0, "the worker stops on SIGTERM with exit 0")
        no_secret_in_logs(fleet)
    finally:
        fleet.close()


def test_roles(args):
    """A least-privilege role proves once an owner migrated; a schema edited by hand stops a worker (exit 1)."""
    fleet = Fleet(args, "roles")
    role = "e2e_prover_%d" % os.getpid()
    try:
        check(subprocess.run([args.fleet, "migrate", "--db-url-file", fleet.url_file], capture_output=True,
                             text=True).returncode == 0, "the owner migrates")
        fleet.sql_admin("CREATE ROLE %s LOGIN PASSWORD '%s'" % (role, PASSWORD))
        fleet.sql("GRANT CONNECT ON DATABASE %s TO %s; GRANT USAGE ON SCHEMA proofline TO %s;"
                  " GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA proofline TO %s;"
                  " GRANT USAGE ON ALL SEQUENCES IN SCHEMA proofline TO %s" % (fleet.db, role, role, role, role))
        fleet.url_file = os.path.join(fleet.dir, "prover-url")  # every command below logs in as the role
        with open(fleet.url_file, "w") as f:
            f.write("postgresql://%s:%s@127.0.0.1:%s/%s\n" % (role, PASSWORD, fleet.port, fleet.db))
        bls = os.path.join(args.fixtures, "chain_16")
        key = os.path.join(fleet.dir, "key-without-extension")  # the reader goes by the file's magic
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        worker = fleet.worker("least")
        fleet.wait_for_workers(1)
        submit = fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                              os.path.join(bls, "verification_key.json"), "--wtns",
                              os.path.join(bls, "witness.wtns")], "submit.log")
        check(submit.wait(timeout=120) == 0 and "1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit.log"),
              "a role with only USAGE and DML rights submits and proves: " + fleet.log("submit.log"))
        fleet.sql("ALTER TABLE proofline.jobs DROP COLUMN deadline")  # a schema edited by hand
        broken = subprocess.run([args.fleet, "submit", "--zkey", key, "--wtns", os.path.join(bls, "witness.wtns"),
                                 "--db-url-file", fleet.url_file], capture_output=True, text=True, timeout=60)
        check(broken.returncode == 1 and "does not fit this program" in broken.stderr,
              "submit to it exits 1 saying why: " + broken.stderr.strip())
        check(worker.wait(timeout=60) == 1, "a worker whose schema lost a column stops with exit 1")
        check("does not fit this program" in fleet.log("least.log"), "saying why: " + fleet.log("least.log")[-600:])
        wrong = os.path.join(fleet.dir, "wrong-database-url")
        with open(wrong, "w") as f:
            f.write("postgresql://%s:%s@127.0.0.1:%s/%s_typo\n" % (role, PASSWORD, fleet.port, fleet.db))
        def refused_at_once(name, words, what):
            """A worker whose database does not exist stops at its first connection (exit 1), naming it."""
            check(fleet.worker(name, url_file=wrong).wait(timeout=60) == 1, what + " stops with exit 1")
            log = fleet.log(name + ".log")
            check(words in log and "the worker stops, not retries" in log, "saying why: " + log[-600:])

        refused_at_once("refused", "does not exist", "a worker the server refuses at its first connection")
        # The same refusal from a server that speaks German (pg_server.sh makes the locale): read by its SQLSTATE.
        try:
            fleet.sql_admin("ALTER SYSTEM SET lc_messages = 'de_DE.UTF-8'")
            fleet.sql_admin("SELECT pg_reload_conf()")
            fleet.wait_for("the server to speak German", lambda: fleet.sql("SHOW lc_messages") == "de_DE.UTF-8", 10)
            refused_at_once("refused-de", "existiert nicht", "a worker a German-speaking server refuses")
        finally:
            fleet.sql_admin("ALTER SYSTEM RESET lc_messages")
            fleet.sql_admin("SELECT pg_reload_conf()")
        no_secret_in_logs(fleet)
    finally:
        fleet.close()
        fleet.sql_admin("DROP ROLE IF EXISTS " + role)


def backend_of(fleet, worker_name):
    """The pid of the server process serving the worker's connection (its application_name names it)."""
    pid = fleet.sql("SELECT pid FROM pg_stat_activity WHERE application_name = 'proofline worker %s' AND "
                    "datname = current_database()" % worker_name)
    check(pid.isdigit(), "worker %s's backend is found by its application_name: %s" % (worker_name, pid))
    return int(pid)


def wait_exit(proc, timeout, what):
    """The process's exit status, or a failure naming `what` when it is still running after `timeout`."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("%s: still running %d s after the signal" % (what, timeout))


def heartbeat_stuck(fleet, name, seconds):
    """True once the worker's heartbeat (every lease/3) is `seconds` old: it waits on the server."""
    return fleet.sql_or_none("SELECT extract(epoch FROM now() - heartbeat_at) > %f FROM proofline.workers "
                             "WHERE name = '%s'" % (seconds, name)) == "t"


def stuck_on_frozen_backend(fleet):
    worker = fleet.worker("frozen", lease=3)  # a heartbeat every second
    fleet.wait_for_workers(1)
    backend = backend_of(fleet, "frozen")
    os.kill(backend, signal.SIGSTOP)
    try:
        fleet.wait_for("the worker's heartbeat to wait on its frozen backend",
                       lambda: heartbeat_stuck(fleet, "frozen", 2.5), timeout=20)
        check(worker.poll() is None, "the worker waits on its frozen backend")
        started = time.time()
        worker.send_signal(signal.SIGTERM)
        code = wait_exit(worker, 15, "a worker waiting on a frozen backend")
        check(code == 0, "SIGTERM ends a worker waiting on a frozen backend: exit %d after %.1f s" %
              (code, time.time() - started))
        check("stopped waiting for the server after SIGTERM" in fleet.log("frozen.log"),
              "it says it gave up the statement")
        check(fleet.sql("SELECT count(*) FROM proofline.workers") == "0",
              "it drained through a fresh connection and left the workers table")
    finally:
        os.kill(backend, signal.SIGCONT)
    # The worker ended the frozen session from its new connection: resumed, it runs no stale heartbeat.
    fleet.wait_for("the frozen backend to end once resumed", lambda: fleet.sql(
        "SELECT count(*) FROM pg_stat_activity WHERE pid = %d" % backend) == "0", timeout=10)
    check(fleet.sql("SELECT count(*) FROM proofline.workers") == "0", "the resumed backend brought no row back")


def stuck_on_lock(fleet):
    """Heartbeats waiting on a lock that is never released: the drain timeout, or a second SIGTERM, ends them."""
    timed = fleet.worker("locked-timed", lease=3, extra=("--drain-timeout", "1"))
    twice = fleet.worker("locked-twice", lease=3)
    fleet.wait_for_workers(2)
    holder = subprocess.Popen([PSQL, "-X", "-q", fleet.base + " dbname=" + fleet.db, "-c",
                               "BEGIN; LOCK TABLE proofline.workers IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);"],
                              stdout=subprocess.DEVNULL)
    fleet.procs.append(holder)
    fleet.wait_for("both workers' heartbeats to wait on the lock", lambda: fleet.sql(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND "
        "application_name LIKE 'proofline worker locked-%'") == "2", timeout=20)
    started = time.time()
    timed.send_signal(signal.SIGTERM)
    twice.send_signal(signal.SIGTERM)
    # The drain's first statement waits on the same lock; the second SIGTERM gives it up.
    fleet.wait_for("the drain of locked-twice to wait on the lock", lambda: "stopping: claiming nothing more" in
                   fleet.log("locked-twice.log"), timeout=10)
    time.sleep(0.5)
    twice.send_signal(signal.SIGTERM)
    code = wait_exit(twice, 15, "a worker whose drain waits on a lock, after a second SIGTERM")
    check(code == 128 + signal.SIGTERM, "a second SIGTERM ends a drain waiting on a lock: exit %d after %.1f s" %
          (code, time.time() - started))
    check("stopped after a second SIGTERM" in fleet.log("locked-twice.log"), "saying it stopped at once")
    code = wait_exit(timed, 15, "a worker whose drain waits on a lock, with --drain-timeout 1")
    check(code == 1, "--drain-timeout 1 ends a drain waiting on a lock: exit %d after %.1f s" %
          (code, time.time() - started))
    check("stopped after the drain timeout" in fleet.log("locked-timed.log"), "saying the drain timed out")
    holder.kill()
    holder.wait()


def stuck_connecting(fleet):
    """A server that accepts the connection and never answers (a listening socket nobody serves), with
    connect_timeout=0 (wait for ever): the first SIGTERM gives the connection up and the drain tries again, the
    second stops the worker."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        url_file = os.path.join(fleet.dir, "silent-url")
        with open(url_file, "w") as f:
            f.write("postgresql://proofline@127.0.0.1:%d/none?connect_timeout=0\n" % silent.getsockname()[1])
        worker = fleet.worker("connecting", url_file=url_file)
        fleet.wait_for("the worker to start connecting", lambda: "backend, lease" in fleet.log("connecting.log"))
        time.sleep(0.5)
        check(worker.poll() is None, "the worker waits on a server that never answers")
        started = time.time()
        worker.send_signal(signal.SIGTERM)
        fleet.wait_for("the worker to give the connection up", lambda: "stopped connecting after SIGTERM" in
                       fleet.log("connecting.log"), timeout=10)
        fleet.wait_for("the drain to begin", lambda: "stopping: claiming nothing more" in fleet.log("connecting.log"),
                       timeout=10)
        worker.send_signal(signal.SIGTERM)
        code = wait_exit(worker, 15, "a worker connecting to a server that never answers")
        check(code == 128 + signal.SIGTERM, "two SIGTERMs end a worker connecting to a server that never answers: "
              "exit %d after %.1f s" % (code, time.time() - started))
    finally:
        silent.close()


def test_stuck(args):
    """A worker waiting on the server, connecting or in a statement, still stops on SIGTERM, within a bound."""
    fleet = Fleet(args, "stuck")
    try:
        stuck_connecting(fleet)
        stuck_on_frozen_backend(fleet)
        stuck_on_lock(fleet)
        no_secret_in_logs(fleet)
    finally:
        print_logs_if_asked(fleet)
        fleet.close()


def test_stop_now(args):
    """A second SIGTERM during long jobs: the worker stops at once with exit 143, the jobs it had not finished go
    back in the queue (their attempt given back) instead of waiting out its 300-second lease, and another worker
    proves them."""
    fleet = Fleet(args, "stopnow")
    try:
        chain = os.path.join(args.fixtures, "chain_1024")
        wtns = copies(fleet, os.path.join(chain, "witness.wtns"), "s", 24)
        first = fleet.worker("first", lease=300, extra=("--prefetch", "24", "--threads", "1"))
        fleet.wait_for_workers(1)
        submit = fleet.start(["submit", "--zkey", os.path.join(chain, "circuit_final.zkey"), "--wait", "--check-vk",
                              os.path.join(chain, "verification_key.json"), "--wtns"] + wtns, "submit.log")
        fleet.wait_for("the worker to claim every job", lambda: fleet.count("worker = 'first'") == 24, timeout=30)
        first.send_signal(signal.SIGTERM)
        fleet.wait_for("the drain to begin", lambda: "stopping: claiming nothing more" in fleet.log("first.log"),
                       timeout=10)
        started = time.time()
        first.send_signal(signal.SIGTERM)
        code = wait_exit(first, 15, "a draining worker after a second SIGTERM")
        check(code == 128 + signal.SIGTERM, "a second SIGTERM stops the draining worker at once: exit %d after "
              "%.1f s" % (code, time.time() - started))
        done = fleet.count("state = 'done'")
        requeued = fleet.count("state = 'queued' AND attempts = 0 AND error LIKE "
                               "'worker first stopped before finishing it (a second SIGTERM)%'")
        check(requeued > 0 and done + requeued == 24, "the %d jobs it had not finished are queued again, their "
              "attempt given back (%d done before)" % (requeued, done))
        check("stopped after a second SIGTERM" in fleet.log("first.log"), "the worker says why it stopped")
        check(fleet.sql("SELECT count(*) FROM proofline.workers") == "0", "and left the workers table")
        fleet.worker("second", lease=4)
        check(submit.wait(timeout=120) == 0 and "24 done, 0 failed; 24 of the proofs verify" in fleet.log("submit.log"),
              "another worker proves them long before the first one's lease would have expired")
        check(fleet.count("worker = 'second' AND attempts = 1 AND state = 'done'") == requeued,
              "each put-back job was proved by the second worker on its first counted attempt")
        no_secret_in_logs(fleet)
    finally:
        print_logs_if_asked(fleet)
        fleet.close()


def submitted_ids(text):
    """The ids `submit` printed ("ids 5..7,9"), as `wait --ids` takes them, and its batch label."""
    match = re.search(r"submitted \d+ jobs? \(ids ([0-9.,]+)\) in batch '([^']+)'", text)
    if match is None:
        fail("submit did not print its ids and batch: " + text)
    return match.group(1), match.group(2)


def test_reattach(args):
    """`wait` collects jobs submitted earlier (without --wait, or by a submit --wait that was interrupted), by
    batch label or by ids, with submit --wait's output and exit codes."""
    fleet = Fleet(args, "reattach")
    try:
        bls = os.path.join(args.fixtures, "chain_16")
        key, vk = os.path.join(bls, "circuit_final.zkey"), os.path.join(bls, "verification_key.json")
        wtns = copies(fleet, os.path.join(bls, "witness.wtns"), "r", 4)
        missing = os.path.join(fleet.dir, "missing.wtns")

        def fleet_run(argv, timeout=60):
            return subprocess.run([args.fleet] + argv + ["--db-url-file", fleet.url_file], capture_output=True,
                                  text=True, timeout=timeout)

        nightly = fleet_run(["submit", "--zkey", key, "--batch", "nightly", "--max-attempts", "1", "--wtns"] +
                            wtns[:3] + [missing])
        check(nightly.returncode == 0, "submit without --wait queues 4 jobs in batch nightly: " + nightly.stdout)
        nightly_ids, label = submitted_ids(nightly.stdout)
        check(label == "nightly", "submit prints the batch it was given")
        # A submit --wait interrupted before its job ended (no worker runs yet).
        interrupted = fleet.start(["submit", "--zkey", key, "--wait", "--wtns", wtns[3]], "interrupted.log")
        fleet.wait_for("the interrupted submit to queue its job", lambda: "submitted" in fleet.log("interrupted.log"))
        interrupted.send_signal(signal.SIGINT)
        check(interrupted.wait(timeout=10) != 0, "submit --wait is interrupted before its job ends")
        lone_ids, lone_batch = submitted_ids(fleet.log("interrupted.log"))

        early = fleet_run(["wait", "--batch", "nightly", "--timeout", "1"])
        check(early.returncode == 1 and "0 done, 0 failed, 4 unfinished" in early.stdout,
              "wait --timeout with no worker running exits 1 naming 4 unfinished jobs: " + early.stdout.strip())
        for argv, why in ((["wait"], "--batch or --ids"), (["wait", "--batch", "no-such-batch"], "no-such-batch"),
                          (["wait", "--ids", "999999"], "999999"), (["wait", "--ids", "7..x"], "--ids"),
                          (["wait", "--ids", "1", "--check-vk", key], "--check-vk")):
            bad = fleet_run(argv)
            check(bad.returncode == 2 and why in bad.stderr, "%s exits 2: %s" % (" ".join(argv), bad.stderr.strip()))

        fleet.worker("reattach")
        out = os.path.join(fleet.dir, "out")
        by_batch = fleet_run(["wait", "--batch", "nightly", "--out", out, "--check-vk", vk])
        check(by_batch.returncode == 1 and "3 done, 1 failed; 3 of the proofs verify" in by_batch.stdout and
              "missing.wtns" in by_batch.stderr, "wait --batch collects the batch, its failure named (exit 1): " +
              by_batch.stdout.strip())
        check(sorted(os.listdir(out)) == sorted(["r%d.%s.json" % (i, kind) for i in range(3)
                                                 for kind in ("proof", "public")]), "and writes its 3 proofs")
        lone = fleet_run(["wait", "--ids", lone_ids, "--out", out, "--check-vk", vk])
        check(lone.returncode == 0 and "1 done, 0 failed; 1 of the proofs verify" in lone.stdout and
              os.path.exists(os.path.join(out, "r3.proof.json")),
              "wait --ids collects the interrupted submit's job: " + lone.stdout.strip())
        again = fleet_run(["wait", "--batch", lone_batch, "--ids", nightly_ids.split(",")[0].split("..")[0]])
        check(again.returncode == 0 and "2 done, 0 failed" in again.stdout,
              "a finished job is reported at once, by the default batch submit printed and an id together: " +
              again.stdout.strip())
        joined = fleet_run(["submit", "--zkey", key, "--batch", lone_batch, "--wtns", wtns[0]])
        check(joined.returncode == 0 and "batch '%s' already has 1 job of an earlier submission" % lone_batch
              in joined.stderr, "a batch label given again is said to join the earlier jobs: " + joined.stderr.strip())
        no_secret_in_logs(fleet)
    finally:
        fleet.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=["drain", "chaos", "curves", "operator", "roles", "stuck", "stop-now",
                                         "reattach"])
    parser.add_argument("--fleet", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--fixtures", required=True)
    args = parser.parse_args()
    {"drain": test_drain, "chaos": test_chaos, "curves": test_curves, "operator": test_operator,
     "roles": test_roles, "stuck": test_stuck, "stop-now": test_stop_now, "reattach": test_reattach}[args.test](args)


if __name__ == "__main__":
    main()
